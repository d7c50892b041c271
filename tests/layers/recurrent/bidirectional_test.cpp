// Bidirectional (merge modes, masks, weight names) and TimeDistributed.
#include <unistd.h>

#include <cstdio>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "keras/saving/hdf5.hpp"

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
