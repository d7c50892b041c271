// stateful=true recurrent layers (tf.keras 2.x): the last states of one call start the next, so a sequence
// fed in two halves gives what the whole gives; reset_states() back to zero, reset_states(values) sets them;
// Model::reset_states(); fit/predict carry the states from batch to batch; the errors name the layer.
#include <catch2/catch.hpp>

#include <filesystem>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

namespace {

/// Steps [begin, begin + count) of [batch, time, ...].
Tensor steps(const Tensor& x, std::int64_t begin, std::int64_t count) {
  Shape b(x.shape().size(), 0), s = x.shape();
  b[1] = begin;
  s[1] = count;
  return ops::slice(x, b, s);
}

/// Samples [begin, begin + count).
Tensor samples(const Tensor& x, std::int64_t begin, std::int64_t count) {
  Shape b(x.shape().size(), 0), s = x.shape();
  b[0] = begin;
  s[0] = count;
  return ops::slice(x, b, s);
}

void check_near(const Tensor& got, const Tensor& want, double margin = 2e-6) {
  REQUIRE(got.shape() == want.shape());
  const auto g = got.to_vector<float>(), w = want.to_vector<float>();
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO("element " << i);
    CHECK(g[i] == Approx(w[i]).margin(margin));
  }
}

bool all_zero(const std::vector<Tensor>& states) {
  for (const auto& s : states)
    for (float v : s.to_vector<float>())
      if (v != 0.f) return false;
  return true;
}

/// `stateless` and `stateful` are the same recurrent layer (return_sequences) but for stateful: the halves
/// of x through the stateful one are the whole through the stateless one.
template <class L>
void check_halves(L& stateless, L& stateful, const Tensor& x) {
  stateless.ensure_built(x.shape());
  stateful.ensure_built(x.shape());
  REQUIRE(stateful.stateful());
  CHECK_FALSE(stateless.stateful());
  stateful.set_weights(stateless.get_weights());
  CHECK(all_zero(stateful.states()));
  const std::int64_t T = x.dim(1), half = T / 2;
  const Tensor whole = stateless(x);
  const Tensor first = stateful(steps(x, 0, half));
  CHECK_FALSE(all_zero(stateful.states()));
  const Tensor second = stateful(steps(x, half, T - half));
  check_near(first, steps(whole, 0, half));
  check_near(second, steps(whole, half, T - half));

  // reset_states(): back to zero, so the first half gives the same again.
  stateful.reset_states();
  CHECK(all_zero(stateful.states()));
  CHECK(stateful(steps(x, 0, half)).template to_vector<float>() == first.template to_vector<float>());
  // reset_states(values): the states the stateless layer ends the first half with.
  auto after_first = stateless.call_with_state(steps(x, 0, half));
  after_first.erase(after_first.begin());
  stateful.reset_states(after_first);
  check_near(stateful(steps(x, half, T - half)), second);
}

}  // namespace

TEST_CASE("stateful SimpleRNN, LSTM and GRU continue a sequence across calls", "[stateful]") {
  backend::clear_session();
  const Tensor x = random_tensor({2, 6, 3}, -1, 1, 21);
  SECTION("LSTM") {
    layers::LSTM a(4, {.return_sequences = true}), b(4, {.return_sequences = true, .stateful = true});
    check_halves(a, b, x);
    CHECK(b.states().size() == 2);
    CHECK(b.get_config()["stateful"] == true);
  }
  SECTION("GRU") {
    layers::GRU a(4, {.return_sequences = true}), b(4, {.return_sequences = true, .stateful = true});
    check_halves(a, b, x);
  }
  SECTION("SimpleRNN") {
    layers::SimpleRNN a(4, {.return_sequences = true}), b(4, {.return_sequences = true, .stateful = true});
    check_halves(a, b, x);
  }
  SECTION("an LSTM with relu (the step-by-step path)") {
    layers::LSTM a(4, {.activation = "relu", .return_sequences = true});
    layers::LSTM b(4, {.activation = "relu", .return_sequences = true, .stateful = true});
    check_halves(a, b, x);
  }
  SECTION("stacked cells") {
    auto cells = [] {
      return std::vector<layers::CellPtr>{std::make_shared<layers::LSTMCell>(3), std::make_shared<layers::GRUCell>(2)};
    };
    layers::RNN a(cells(), {.return_sequences = true}), b(cells(), {.return_sequences = true, .stateful = true});
    check_halves(a, b, x);
    CHECK(b.states().size() == 3);
  }
  SECTION("ConvLSTM1D") {
    const Tensor xs = random_tensor({2, 4, 5, 2}, -1, 1, 22);
    layers::ConvLSTM1D a(3, 3, {.padding = "same", .return_sequences = true});
    layers::ConvLSTM1D b(3, 3, {.padding = "same", .return_sequences = true, .stateful = true});
    check_halves(a, b, xs);
  }
  SECTION("ConvLSTM2D") {
    const Tensor xs = random_tensor({2, 4, 4, 5, 1}, -1, 1, 23);
    layers::ConvLSTM2D a(2, {3, 3}, {.return_sequences = true});
    layers::ConvLSTM2D b(2, {3, 3}, {.return_sequences = true, .stateful = true});
    check_halves(a, b, xs);
    CHECK(b.states()[0].shape() == Shape{2, 2, 3, 2});
  }
  SECTION("ConvLSTM3D") {
    const Tensor xs = random_tensor({1, 4, 3, 4, 3, 1}, -1, 1, 24);
    layers::ConvLSTM3D a(2, {2, 2, 2}, {.padding = "same", .return_sequences = true});
    layers::ConvLSTM3D b(2, {2, 2, 2}, {.padding = "same", .return_sequences = true, .stateful = true});
    check_halves(a, b, xs);
  }
}

TEST_CASE("a stateful Bidirectional carries each direction's states", "[stateful]") {
  backend::clear_session();
  const Tensor x = random_tensor({2, 6, 3}, -1, 1, 25);
  layers::Bidirectional a(layers::LSTM(3, {.return_sequences = true}), {.merge_mode = "none"});
  layers::Bidirectional b(layers::LSTM(3, {.return_sequences = true, .stateful = true}), {.merge_mode = "none"});
  a.ensure_built(x.shape());
  b.ensure_built(x.shape());
  b.set_weights(a.get_weights());
  CHECK(b.stateful());
  CHECK(b.get_config()["layer"]["config"]["stateful"] == true);
  const Tensor x1 = steps(x, 0, 3), x2 = steps(x, 3, 3);
  const auto first = b.call_all({x1});
  const auto second = b.call_all({x2});
  // Forward: the halves are the whole. Backward: the second half starts from the first half's final states.
  check_near(ops::concatenate({first[0], second[0]}, 1), a.call_all({x})[0]);
  auto backward_states = a.backward_layer()->call_with_state(x1);
  backward_states.erase(backward_states.begin());
  check_near(second[1], ops::reverse_time(a.backward_layer()->call_with_state(x2, backward_states)[0]));
  b.reset_states();
  CHECK(b.call_all({x1})[1].to_vector<float>() == first[1].to_vector<float>());
  // reset_states(values): the forward layer's {h, c}, then the backward layer's.
  auto forward_states = a.forward_layer()->call_with_state(x1);
  forward_states.erase(forward_states.begin());
  std::vector<Tensor> values = forward_states;
  values.insert(values.end(), backward_states.begin(), backward_states.end());
  b.reset_states(values);
  check_near(b.call_all({x2})[0], second[0]);
  CHECK_THROWS_WITH(b.reset_states(std::vector<Tensor>{forward_states[0]}), Catch::Contains("forward layer"));
}

TEST_CASE("Model::reset_states and predict carry and reset the states of stateful layers", "[stateful]") {
  backend::clear_session();
  utils::set_random_seed(26);
  Sequential stateless({Input({3, 2}), layers::LSTM(4), layers::Dense(1)});
  auto lstm = std::make_shared<layers::LSTM>(4, layers::LSTMOptions{.stateful = true});
  auto stateful = std::make_shared<Sequential>(std::vector<LayerRef>{Input({3, 2}, {.batch_size = 2}), lstm, layers::Dense(1)});
  stateful->set_weights(stateless.get_weights());
  Sequential stateless_whole({Input({6, 2}), layers::LSTM(4), layers::Dense(1)});  // the same weights, 6 steps
  stateless_whole.set_weights(stateless.get_weights());
  CHECK(stateful->stateful());
  CHECK_FALSE(stateless.stateful());
  stateless.reset_states();  // a no-op without stateful layers, as in Keras

  // Four samples in batches of two: samples 2 and 3 continue samples 0 and 1.
  const Tensor x = random_tensor({4, 3, 2}, -1, 1, 27);
  const Tensor whole = ops::concatenate({samples(x, 0, 2), samples(x, 2, 2)}, 1);  // [2, 6, 2]
  const Tensor y = stateful->predict(x, {.batch_size = 2});
  check_near(samples(y, 0, 2), stateless.predict(samples(x, 0, 2)));
  check_near(samples(y, 2, 2), stateless_whole.predict(whole));

  stateful->reset_states();
  CHECK(all_zero(lstm->states()));
  CHECK(stateful->predict(samples(x, 0, 2), {.batch_size = 2}).to_vector<float>() == samples(y, 0, 2).to_vector<float>());

  // A model holding the stateful model is stateful, and resets it.
  auto in = Input({3, 2}, {.batch_size = 2});
  Model outer(in, (*stateful)(in));
  CHECK(outer.stateful());
  CHECK_FALSE(all_zero(lstm->states()));
  outer.reset_states();
  CHECK(all_zero(lstm->states()));
}

TEST_CASE("fit with shuffle=false carries the states from batch to batch", "[stateful]") {
  backend::clear_session();
  utils::set_random_seed(28);
  auto lstm = std::make_shared<layers::LSTM>(3, layers::LSTMOptions{.stateful = true});
  Sequential model({Input({3, 2}, {.batch_size = 2}), lstm, layers::Dense(1)});
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 0.0}), .loss = "mse"});
  const Tensor x = random_tensor({4, 3, 2}, -1, 1, 29), y = random_tensor({4, 1}, -1, 1, 30);
  model.fit(x, y, {.batch_size = 2, .epochs = 1, .verbose = 0, .shuffle = false});
  // After the two batches the states are those of samples 0|2 and 1|3 run as one sequence each.
  layers::LSTM reference(3);
  reference.ensure_built({2, 6, 2});
  reference.set_weights(lstm->get_weights());
  const auto want = reference.call_with_state(ops::concatenate({samples(x, 0, 2), samples(x, 2, 2)}, 1));
  REQUIRE(lstm->states().size() == 2);
  check_near(lstm->states()[0], want[1]);
  check_near(lstm->states()[1], want[2]);
  // Keras leaves the reset to the user (a callback at the end of each epoch).
  model.reset_states();
  CHECK(all_zero(lstm->states()));
  // evaluate carries them the same way.
  model.evaluate(x, y, {.batch_size = 2, .verbose = 0});
  check_near(lstm->states()[0], want[1]);
}

TEST_CASE("stateful layers: clear errors, and the config keeps stateful", "[stateful]") {
  backend::clear_session();
  // No batch size: the error names the layer and the fix.
  auto in = Input({5, 3});
  CHECK_THROWS_WITH(layers::LSTM(2, {.stateful = true, .name = "carry"})(in),
                    Catch::Contains("\"carry\"") && Catch::Contains("batch size") && Catch::Contains("batch_size"));
  CHECK_THROWS_AS(layers::ConvLSTM2D(2, {3, 3}, {.stateful = true})(Input({2, 5, 5, 1})), ValueError);

  layers::GRU gru(2, {.stateful = true, .name = "memory"});
  gru(Tensor::ones({4, 3, 1}));
  CHECK_THROWS_WITH(gru(Tensor::ones({3, 3, 1})),
                    Catch::Contains("\"memory\"") && Catch::Contains("batch size of 4") && Catch::Contains("3 samples"));
  CHECK_THROWS_WITH(gru.reset_states({Tensor::zeros({4, 2}), Tensor::zeros({4, 2})}), Catch::Contains("expects 1 states"));
  CHECK_THROWS_WITH(gru.reset_states({Tensor::zeros({3, 2})}), Catch::Contains("expected shape=(4, 2)"));
  layers::LSTM plain(2);
  CHECK_THROWS_WITH(plain.reset_states(), Catch::Contains("not stateful"));
  layers::Dense dense(2);
  CHECK_THROWS_WITH(dense.reset_states(), Catch::Contains("not stateful"));

  // A batch that does not divide the samples fails with the layer's message.
  Sequential model({Input({3, 1}, {.batch_size = 4}), layers::GRU(2, {.stateful = true})});
  CHECK_THROWS_WITH(model.predict(Tensor::ones({6, 3, 1}), {.batch_size = 4}),
                    Catch::Contains("batch size of 4 but received a batch of 2 samples"));
  CHECK_THROWS_WITH(model.predict(Tensor::ones({6, 3, 1})), Catch::Contains("pass batch_size=4"));  // 32 by default

  // Keras's batch_input_shape on the first layer of a Sequential model fixes the batch too.
  auto rnn = std::make_shared<layers::SimpleRNN>(2, layers::SimpleRNNOptions{.stateful = true});
  rnn->set_batch_input_shape({2, 3, 1});
  Sequential from_layer({rnn, layers::Dense(1)});
  const Tensor once = from_layer.predict(Tensor::ones({2, 3, 1}), {.batch_size = 2});
  CHECK(from_layer.predict(Tensor::ones({2, 3, 1}), {.batch_size = 2}).to_vector<float>() != once.to_vector<float>());
  CHECK(from_layer.get_config()["layers"][0]["config"]["batch_input_shape"] == json::array({2, 3, 1}));

  // The saved config keeps stateful and the batch size; the loaded model is stateful.
  Sequential saved({Input({2, 4, 1}, {.batch_size = 2}),
                    layers::ConvLSTM1D(2, 3, {.padding = "same", .stateful = true}), layers::Flatten(),
                    layers::Dense(1)});
  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_stateful.h5").string();
  saved.save(path);
  auto loaded = models::load_model(path);
  std::filesystem::remove(path);
  CHECK(loaded->get_config() == saved.get_config());
  CHECK(loaded->stateful());
  const json layer = loaded->get_config()["layers"][1];
  CHECK(layer["class_name"] == "ConvLSTM1D");
  CHECK(layer["config"]["stateful"] == true);
  const Tensor x = random_tensor({2, 2, 4, 1}, -1, 1, 31);
  const Tensor first = loaded->predict(x, {.batch_size = 2});
  CHECK(loaded->predict(x, {.batch_size = 2}).to_vector<float>() != first.to_vector<float>());
  loaded->reset_states();
  CHECK(loaded->predict(x, {.batch_size = 2}).to_vector<float>() == first.to_vector<float>());
}
