// SimpleRNN, LSTM and GRU against PyTorch (torch.nn.RNN/LSTM/GRU with weights converted from Keras's
// layout) and, where PyTorch has no twin (GRU reset_after=False, masks, hard_sigmoid), against a
// float64 loop of Keras's cell equations: outputs, final states and every gradient, 1e-4 relative.
// Each unmasked case runs twice: on oneDNN's RNN primitives, and step by step (an all-ones mask).
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "golden.hpp"

namespace k = keras;
using k::testing::golden_tensor;

namespace {

std::shared_ptr<k::layers::RNN> make_layer(const k::json& c) {
  const std::string kind = c["kind"];
  const k::json& cfg = c["config"];
  const auto units = c["recurrent_kernel"]["shape"][0].get<std::int64_t>();
  const bool back = cfg.value("go_backwards", false);
  if (kind == "lstm")
    return std::make_shared<k::layers::LSTM>(units, k::layers::LSTMOptions{
        .recurrent_activation = cfg.value("recurrent_activation", "sigmoid"), .return_sequences = true, .go_backwards = back});
  if (kind == "gru")
    return std::make_shared<k::layers::GRU>(units, k::layers::GRUOptions{
        .reset_after = cfg.value("reset_after", true), .return_sequences = true, .go_backwards = back});
  return std::make_shared<k::layers::SimpleRNN>(units, k::layers::SimpleRNNOptions{
      .activation = cfg.value("activation", "tanh"), .return_sequences = true, .go_backwards = back});
}

void check(const k::Tensor& got, const k::json& want, double tol = 1e-4) {
  const k::Tensor w = golden_tensor(want);
  REQUIRE(got.shape() == w.shape());
  const auto g = got.to_vector<float>(), v = w.to_vector<float>();
  for (std::size_t i = 0; i < v.size(); ++i) {
    INFO("element " << i);
    CHECK(g[i] == Approx(v[i]).epsilon(tol).margin(tol * 0.1));
  }
}

void run_case(const k::json& c, bool force_stepwise) {
  auto layer = make_layer(c);
  k::Tensor x = golden_tensor(c["x"]);
  layer->ensure_built(x.shape());
  layer->set_weights({golden_tensor(c["kernel"]), golden_tensor(c["recurrent_kernel"]), golden_tensor(c["bias"])});
  std::vector<k::Tensor> init;
  for (const auto& s : c["initial_state"]) init.push_back(golden_tensor(s));
  k::Tensor mask = golden_tensor(c["mask"]);
  if (!mask.defined() && force_stepwise) mask = k::Tensor::ones({x.dim(0), x.dim(1)});

  k::GradientTape tape;
  tape.watch(x);
  for (auto& s : init) tape.watch(s);
  auto out = layer->call_with_state(x, init, mask, true);
  k::Tensor loss = k::ops::sum(k::ops::multiply(out[0], golden_tensor(c["w_sequence"])));
  for (std::size_t i = 0; i + 1 < out.size(); ++i)
    loss = k::ops::add(loss, k::ops::sum(k::ops::multiply(out[i + 1], golden_tensor(c["w_states"][i]))));
  std::vector<k::Tensor> sources{x};
  for (const auto& w : layer->trainable_weights()) sources.push_back(w->value());
  sources.insert(sources.end(), init.begin(), init.end());
  auto grads = tape.gradient(loss, sources);

  check(out[0], c["sequence"]);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) check(out[i + 1], c["states"][i]);
  const char* names[] = {"x", "kernel", "recurrent_kernel", "bias"};
  for (int i = 0; i < 4; ++i) {
    INFO("gradient of " << names[i]);
    check(grads[i], c["grads"][names[i]]);
  }
  for (std::size_t i = 0; i < init.size(); ++i) {
    INFO("gradient of initial state " << i);
    check(grads[4 + i], c["grad_states"][i]);
  }
}

}  // namespace

TEST_CASE("recurrent layers match PyTorch and Keras's cell equations", "[rnn][golden]") {
  const k::json g = k::testing::load_golden("rnn.json");
  for (const auto& c : g["cases"]) {
    for (bool stepwise : {false, true}) {
      if (stepwise && !c["mask"].is_null()) continue;
      INFO("case " << c["name"].get<std::string>() << (stepwise ? " (step by step)" : ""));
      run_case(c, stepwise);
    }
  }
}

TEST_CASE("inference (no tape) gives the training-mode outputs", "[rnn][golden]") {
  const k::json g = k::testing::load_golden("rnn.json");
  for (const auto& c : g["cases"]) {
    if (!c["mask"].is_null()) continue;
    INFO("case " << c["name"].get<std::string>());
    auto layer = make_layer(c);
    k::Tensor x = golden_tensor(c["x"]);
    layer->ensure_built(x.shape());
    layer->set_weights({golden_tensor(c["kernel"]), golden_tensor(c["recurrent_kernel"]), golden_tensor(c["bias"])});
    std::vector<k::Tensor> init;
    for (const auto& s : c["initial_state"]) init.push_back(golden_tensor(s));
    auto out = layer->call_with_state(x, init);
    check(out[0], c["sequence"]);
  }
}
