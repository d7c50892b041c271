// Bidirectional (merge modes, masks, weight names) and TimeDistributed.
#include <unistd.h>

#include <cstdio>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/hdf5/file.hpp"

namespace k = keras;
using k::testing::random_tensor;

namespace {
void check_same(const k::Tensor& a, const k::Tensor& b, float tol = 1e-5f) {
  REQUIRE(a.shape() == b.shape());
  auto va = a.to_vector<float>(), vb = b.to_vector<float>();
  for (std::size_t i = 0; i < va.size(); ++i) CHECK(va[i] == Approx(vb[i]).margin(tol));
}
}  // namespace

TEST_CASE("Bidirectional runs a forward and a go_backwards copy and merges them", "[rnn][bidirectional]") {
  k::Tensor x = random_tensor({2, 4, 3});
  for (bool sequences : {false, true}) {
    k::layers::Bidirectional bi(k::layers::GRU(5, {.return_sequences = sequences}));
    bi.ensure_built(x.shape());
    k::layers::GRU fwd(5, {.return_sequences = sequences}), bwd(5, {.return_sequences = sequences, .go_backwards = true});
    fwd.ensure_built(x.shape());
    bwd.ensure_built(x.shape());
    auto w = bi.get_weights();
    REQUIRE(w.size() == 6);
    fwd.set_weights({w[0], w[1], w[2]});
    bwd.set_weights({w[3], w[4], w[5]});
    k::Tensor f = fwd(x), b = bwd(x);
    if (sequences) b = k::ops::reverse_time(b);
    check_same(bi(x), k::ops::concat_last({f, b}));
    CHECK(bi.compute_output_shape({-1, 4, 3}) == (sequences ? k::Shape{-1, 4, 10} : k::Shape{-1, 10}));
    auto both = bi.call_both(x);
    check_same(both[0], f);
    check_same(both[1], b);
  }
  for (const char* mode : {"sum", "mul", "ave"}) {
    k::layers::Bidirectional bi(k::layers::SimpleRNN(3), {.merge_mode = mode});
    auto both = bi.call_both(x);
    k::Tensor want = std::string(mode) == "sum" ? k::ops::add(both[0], both[1])
                     : std::string(mode) == "mul" ? k::ops::multiply(both[0], both[1])
                                                  : k::ops::multiply(k::ops::add(both[0], both[1]), k::Tensor::scalar(0.5f));
    check_same(bi(x), want);
    auto again = k::Layer::deserialize({{"class_name", "Bidirectional"}, {"config", bi.get_config()}});
    CHECK(again->get_config()["merge_mode"] == mode);
  }
  k::layers::Bidirectional none(k::layers::LSTM(2), {.merge_mode = "none"});
  CHECK_THROWS_AS(none(x), k::ValueError);
  CHECK_THROWS_AS(k::layers::Bidirectional(k::layers::Dense(2)), k::ValueError);
}

TEST_CASE("Bidirectional trains, skips padding and saves with tf.keras's weight names", "[rnn][bidirectional][saving]") {
  k::backend::clear_session();
  k::utils::set_random_seed(2);
  k::Sequential model({k::Input({5}), k::layers::Embedding(10, 3, {.mask_zero = true}),
                       k::layers::Bidirectional(k::layers::LSTM(4)), k::layers::Dense(1)});
  model.compile({.optimizer = "adam", .loss = "mse"});
  k::Tensor padded = k::Tensor::from_vector<float>({3, 1, 4, 0, 0}, {1, 5});
  k::Tensor short_seq = k::Tensor::from_vector<float>({3, 1, 4}, {1, 3});
  check_same(model(padded), (*model.layers()[2])((*model.layers()[1])((*model.layers()[0])(short_seq))));
  model.fit(padded, k::Tensor::ones({1, 1}), {.epochs = 2, .verbose = 0});
  const std::string path = "/tmp/kerascpp_bidirectional_" + std::to_string(::getpid()) + ".h5";
  model.save(path);
  k::backend::clear_session();
  auto loaded = k::models::load_model(path);
  CHECK(loaded->predict(padded).to_vector<float>() == model.predict(padded).to_vector<float>());
  k::hdf5::File f = k::hdf5::File::open(path);
  auto names = f.root().open_group("model_weights").open_group("bidirectional").string_list_attr("weight_names");
  REQUIRE(names.size() == 6);
  CHECK(names[0].rfind("bidirectional/forward_lstm/lstm_cell", 0) == 0);
  CHECK(names[3].rfind("bidirectional/backward_lstm/lstm_cell", 0) == 0);
  std::remove(path.c_str());
}

TEST_CASE("Bidirectional returning sequences outputs zeros at masked steps (zero_output_for_mask), as Keras",
          "[rnn][bidirectional]") {
  k::backend::clear_session();
  k::utils::set_random_seed(4);
  auto in = k::Input({5});
  auto embedded = k::layers::Embedding(10, 3, {.mask_zero = true})(in);
  auto lstm = std::make_shared<k::layers::LSTM>(4, k::layers::LSTMOptions{.return_sequences = true});
  auto plain = (*lstm)(embedded);
  auto both = k::layers::Bidirectional(k::layers::LSTM(4, {.return_sequences = true}))(embedded);
  k::Model model(in, std::vector<k::KerasTensor>{plain, both});
  const auto out = model.predict_outputs(k::Arrays(k::Tensor::from_vector<float>({3, 1, 4, 0, 0}, {1, 5})));
  const auto p = out[0].to_vector<float>(), b = out[1].to_vector<float>();
  for (int t = 3; t < 5; ++t)
    for (int u = 0; u < 4; ++u) {
      CHECK(p[t * 4 + u] == p[2 * 4 + u]);  // a plain LSTM repeats its last output at masked steps
      CHECK(b[t * 8 + u] == 0.f);           // each direction of a Bidirectional outputs zeros there
      CHECK(b[t * 8 + 4 + u] == 0.f);
    }
  CHECK(b[2 * 8] != 0.f);
  // The flag is an LSTM argument, as in Keras, and part of its config.
  CHECK_FALSE(lstm->get_config().value("zero_output_for_mask", false));
  auto zeroing = k::layers::LSTM(4, {.return_sequences = true, .zero_output_for_mask = true});
  CHECK(zeroing.get_config().at("zero_output_for_mask") == true);
}

namespace {
// A Bidirectional(LSTM) case of bidirectional_state.json, its weights set from the golden file.
std::shared_ptr<k::layers::Bidirectional> golden_bidirectional(const k::json& c, bool return_state = false) {
  const auto units = c["units"].get<std::int64_t>();
  auto bi = std::make_shared<k::layers::Bidirectional>(
      k::layers::LSTM(units, {.return_sequences = c["return_sequences"].get<bool>(), .return_state = return_state}),
      k::layers::BidirectionalOptions{.merge_mode = c["merge_mode"].get<std::string>()});
  bi->ensure_built(k::testing::golden_tensor(c["x"]).shape());
  bi->set_weights(k::testing::golden_tensors(c["weights"]));
  return bi;
}

// Outputs of float32 recurrences against float64 references: 1e-5 relative, 2e-6 absolute near zero.
void check_golden(const k::Tensor& got, const k::json& want) {
  REQUIRE(got.shape() == want["shape"].get<k::Shape>());
  const auto v = got.to_vector<float>();
  const auto w = want["data"].get<std::vector<double>>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    INFO("element " << i);
    CHECK(v[i] == Approx(w[i]).epsilon(1e-5).margin(2e-6));
  }
}
}  // namespace

TEST_CASE("Bidirectional starts the forward layer from the first half of initial_state, the backward from the second",
          "[rnn][bidirectional][golden]") {
  const k::json golden = k::testing::load_golden("bidirectional_state.json");
  for (const auto& c : golden["cases"]) {
    INFO("merge_mode " << c["merge_mode"] << ", return_sequences " << c["return_sequences"]);
    auto bi = golden_bidirectional(c);
    k::Tensor x = k::testing::golden_tensor(c["x"]);
    std::vector<k::Tensor> states = k::testing::golden_tensors(c["initial_state"]);
    const k::Tensor w = k::testing::golden_tensor(c["w"]);
    std::vector<k::Tensor> sources{x};
    sources.insert(sources.end(), states.begin(), states.end());
    for (const auto& v : bi->trainable_weights()) sources.push_back(v->value());
    std::vector<k::Tensor> out, grads;
    {
      k::GradientTape tape;
      tape.watch(x);
      for (auto& s : states) tape.watch(s);
      out = bi->call_with_state(x, states, k::Tensor(), true);
      grads = tape.gradient(k::ops::sum(k::ops::multiply(out[0], w)), sources);
    }
    REQUIRE(out.size() == 5);  // output, h_f, c_f, h_b, c_b
    check_golden(out[0], c["output"]);
    for (std::size_t i = 0; i < 4; ++i) check_golden(out[1 + i], c["states"][i]);
    REQUIRE(grads.size() == 11);
    check_golden(grads[0], c["grad_x"]);
    for (std::size_t i = 0; i < 4; ++i) check_golden(grads[1 + i], c["grad_initial_state"][i]);
    for (std::size_t i = 0; i < 6; ++i) check_golden(grads[5 + i], c["grad_weights"][i]);
  }
  auto bi = golden_bidirectional(golden["cases"][0]);
  const k::Tensor x = k::testing::golden_tensor(golden["cases"][0]["x"]);
  auto states = k::testing::golden_tensors(golden["cases"][0]["initial_state"]);
  CHECK_THROWS_WITH(bi->call_with_state(x, {states[0], states[1]}), Catch::Contains("the 2 states of the forward layer"));
  // Without initial states both directions start from zeros, as the plain call.
  check_same(bi->call_with_state(x)[0], (*bi)(x), 0.f);
}

TEST_CASE("Bidirectional in a functional graph takes its initial states from other inputs and round-trips in HDF5",
          "[rnn][bidirectional][golden][saving]") {
  k::backend::clear_session();
  const k::json golden = k::testing::load_golden("bidirectional_state.json");
  const k::json& c = golden["cases"][0];
  const k::Tensor x = k::testing::golden_tensor(c["x"]);
  const auto states = k::testing::golden_tensors(c["initial_state"]);
  const auto units = c["units"].get<std::int64_t>();
  std::vector<k::KerasTensor> inputs{k::Input({x.dim(1), x.dim(2)}, {.name = "sequence"})};
  for (const char* name : {"h_forward", "c_forward", "h_backward", "c_backward"}) inputs.push_back(k::Input({units}, {.name = name}));
  auto bi = golden_bidirectional(c);
  auto out = bi->call_all(inputs);
  REQUIRE(out.size() == 1);
  CHECK(out[0].shape() == k::Shape{-1, x.dim(1), 2 * units});
  k::Model model(inputs, out[0]);
  std::vector<k::Tensor> feed{x};
  feed.insert(feed.end(), states.begin(), states.end());
  const k::Tensor y = model.predict(feed);
  check_golden(y, c["output"]);
  // Keras records the states as extra inputs of the call.
  const k::json config = model.get_config();
  CHECK(config["layers"][5]["inbound_nodes"][0].size() == 5);
  {
    k::GradientTape tape;  // gradients through the graph reach the state inputs
    std::vector<k::Tensor> watched = feed;
    for (auto& t : watched) tape.watch(t);
    k::Tensor loss = k::ops::sum(k::ops::multiply(model.call_all(watched, {.training = true})[0], k::testing::golden_tensor(c["w"])));
    const auto grads = tape.gradient(loss, watched);
    for (std::size_t i = 0; i < 4; ++i) check_golden(grads[1 + i], c["grad_initial_state"][i]);
  }
  const std::string path = "/tmp/kerascpp_bidirectional_state_" + std::to_string(::getpid()) + ".h5";
  model.save(path);
  k::backend::clear_session();
  auto loaded = k::models::load_model(path);
  std::remove(path.c_str());
  CHECK(loaded->predict(feed).to_vector<float>() == y.to_vector<float>());
  CHECK(loaded->input_names() == std::vector<std::string>{"sequence", "h_forward", "c_forward", "h_backward", "c_backward"});

  // return_state: the merged output, then the forward and the backward final states.
  const k::json& c2 = golden["cases"][1];
  const k::Tensor x2 = k::testing::golden_tensor(c2["x"]);
  std::vector<k::KerasTensor> inputs2{k::Input({x2.dim(1), x2.dim(2)})};
  for (int i = 0; i < 4; ++i) inputs2.push_back(k::Input({units}));
  auto outputs2 = golden_bidirectional(c2, true)->call_all(inputs2);
  REQUIRE(outputs2.size() == 5);
  k::Model with_states(inputs2, outputs2);
  std::vector<k::Tensor> feed2{x2};
  for (const auto& s : k::testing::golden_tensors(c2["initial_state"])) feed2.push_back(s);
  const auto got = with_states.predict_outputs(feed2);
  check_golden(got[0], c2["output"]);
  for (std::size_t i = 0; i < 4; ++i) check_golden(got[1 + i], c2["states"][i]);
}

TEST_CASE("TimeDistributed applies a layer to every time step", "[rnn][time_distributed]") {
  k::layers::TimeDistributed td(k::layers::Dense(2));
  k::Tensor x = random_tensor({3, 4, 5});
  k::Tensor y = td(x);
  REQUIRE(y.shape() == k::Shape{3, 4, 2});
  auto dense = std::dynamic_pointer_cast<k::layers::Dense>(td.layer());
  REQUIRE(dense);
  check_same(k::ops::time_step(y, 2), (*dense)(k::ops::time_step(x, 2)));
  CHECK(td.compute_output_shape({-1, 4, 5}) == k::Shape{-1, 4, 2});
  auto again = k::Layer::deserialize({{"class_name", "TimeDistributed"}, {"config", td.get_config()}});
  CHECK(again->get_config() == td.get_config());
  k::testing::check_gradients([&](const std::vector<k::Tensor>& t) { return td(t[0]); }, {random_tensor({2, 3, 5})});
}
