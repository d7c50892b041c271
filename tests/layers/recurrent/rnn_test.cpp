// Recurrent layers beyond the golden values: configs, HDF5 names and round trips, stacked cells,
// masks from Embedding, dropout, finite differences of the oneDNN op.
#include <unistd.h>

#include <cstdio>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/hdf5/file.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/lstm_inference.hpp"
#include "keras/kernels/lstm_training.hpp"

namespace k = keras;
using k::testing::random_tensor;

namespace {

void check_same(const k::Tensor& a, const k::Tensor& b, float tol = 1e-5f) {
  REQUIRE(a.shape() == b.shape());
  auto va = a.to_vector<float>(), vb = b.to_vector<float>();
  for (std::size_t i = 0; i < va.size(); ++i) CHECK(va[i] == Approx(vb[i]).margin(tol));
}

}  // namespace

TEST_CASE("recurrent configs round-trip through the registry", "[rnn]") {
  std::vector<std::shared_ptr<k::Layer>> layers{
      std::make_shared<k::layers::LSTM>(7, k::layers::LSTMOptions{.recurrent_activation = "hard_sigmoid", .use_bias = false,
                                                                  .unit_forget_bias = false, .dropout = 0.25f,
                                                                  .return_sequences = true}),
      std::make_shared<k::layers::GRU>(3, k::layers::GRUOptions{.reset_after = false, .recurrent_dropout = 0.5f,
                                                                .return_state = true, .go_backwards = true}),
      std::make_shared<k::layers::SimpleRNN>(4, k::layers::SimpleRNNOptions{.activation = "relu"}),
      std::make_shared<k::layers::RNN>(std::vector<k::layers::CellPtr>{std::make_shared<k::layers::LSTMCell>(4),
                                                                       std::make_shared<k::layers::GRUCell>(2)}),
  };
  for (const auto& l : layers) {
    INFO(l->class_name());
    const k::json c = l->get_config();
    auto again = k::Layer::deserialize({{"class_name", l->class_name()}, {"config", c}});
    CHECK(again->get_config() == c);
  }
  const k::json lstm = layers[0]->get_config();
  CHECK(lstm["units"] == 7);
  CHECK(lstm["recurrent_activation"] == "hard_sigmoid");
  CHECK(lstm["unit_forget_bias"] == false);
  CHECK(lstm["return_sequences"] == true);
  CHECK(lstm["recurrent_initializer"]["class_name"] == "Orthogonal");
  CHECK(layers[1]->get_config()["reset_after"] == false);
  CHECK(layers[3]->get_config()["cell"]["class_name"] == "StackedRNNCells");
}

TEST_CASE("Keras weight shapes, unit_forget_bias and output shapes", "[rnn]") {
  k::layers::LSTM lstm(5);
  lstm.ensure_built({-1, 7, 3});
  auto w = lstm.get_weights();
  REQUIRE(w.size() == 3);
  CHECK(w[0].shape() == k::Shape{3, 20});
  CHECK(w[1].shape() == k::Shape{5, 20});
  CHECK(w[2].shape() == k::Shape{20});
  auto b = w[2].to_vector<float>();
  for (int i = 0; i < 20; ++i) CHECK(b[i] == (i >= 5 && i < 10 ? 1.f : 0.f));
  CHECK(lstm.compute_output_shape({-1, 7, 3}) == k::Shape{-1, 5});

  k::layers::GRU gru(4, {.return_sequences = true});
  gru.ensure_built({-1, 7, 3});
  CHECK(gru.get_weights()[2].shape() == k::Shape{2, 12});
  CHECK(gru.compute_output_shape({-1, 7, 3}) == k::Shape{-1, 7, 4});
  k::layers::GRU gru_v1(4, {.reset_after = false});
  gru_v1.ensure_built({-1, 7, 3});
  CHECK(gru_v1.get_weights()[2].shape() == k::Shape{12});
  k::layers::LSTM stateful(3, {.stateful = true});  // needs a known batch size when it is built
  CHECK_THROWS_AS(stateful.ensure_built({-1, 7, 4}), k::ValueError);
  CHECK_THROWS_AS(lstm(k::Tensor::zeros({2, 7, 4})), k::ValueError);
}

TEST_CASE("the oneDNN recurrent op passes finite-difference checks", "[rnn]") {
  using C = k::kernels::RnnCell;
  for (C cell : {C::lstm, C::gru, C::lbr_gru, C::vanilla_tanh}) {
    INFO("cell " << static_cast<int>(cell));
    const int G = k::kernels::rnn_gates(cell);
    const k::Shape bias_shape = cell == C::lbr_gru ? k::Shape{2, 3 * 3} : k::Shape{G * 3};
    std::vector<k::Tensor> in{random_tensor({2, 3, 2}, -1, 1, 1), random_tensor({2, G * 3}, -0.5, 0.5, 2),
                              random_tensor({3, G * 3}, -0.5, 0.5, 3), random_tensor(bias_shape, -0.5, 0.5, 4),
                              random_tensor({2, 3}, -1, 1, 5)};
    k::testing::check_gradients(
        [&](const std::vector<k::Tensor>& t) {
          auto r = k::ops::rnn(t[0], t[4], k::Tensor(), t[1], t[2], t[3], cell, true);
          return k::ops::add(k::ops::sum(r.sequence, {1}), k::ops::multiply(r.h, k::Tensor::scalar(2.f)));
        },
        in);
  }
}

TEST_CASE("an LSTM trains on our own kernels: finite differences, and oneDNN's RNN to float32 rounding", "[rnn]") {
  // 8 and 24 units (multiples of 8: kernels::lstm_training_fits); 3 and 5 sequences, an uneven share for two
  // threads; initial states given, both directions. The reference is oneDNN's RNN (our own kernels off).
  namespace kk = k::kernels;
  if (!kk::lstm_training_fits({.batch = 3, .time = 4, .input = 2, .units = 8, .cell = kk::RnnCell::lstm})) {
    WARN("our LSTM training kernels need AVX2 and our own kernels on");
    return;
  }
  const int threads_before = k::utils::get_num_threads();
  k::utils::set_num_threads(2);
  for (const bool backwards : {false, true}) {
    INFO("go_backwards " << backwards);
    std::vector<k::Tensor> in{random_tensor({3, 4, 2}, -1, 1, 11), random_tensor({2, 32}, -0.5, 0.5, 12),
                              random_tensor({8, 32}, -0.5, 0.5, 13), random_tensor({32}, -0.5, 0.5, 14),
                              random_tensor({3, 8}, -1, 1, 15), random_tensor({3, 8}, -1, 1, 16)};
    k::testing::check_gradients(
        [&](const std::vector<k::Tensor>& t) {
          auto r = k::ops::rnn(t[0], t[4], t[5], t[1], t[2], t[3], kk::RnnCell::lstm, backwards);
          return k::ops::add(k::ops::add(k::ops::sum(r.sequence, {1}), k::ops::multiply(r.h, k::Tensor::scalar(2.f))),
                             k::ops::multiply(r.c, k::Tensor::scalar(3.f)));
        },
        in);
  }
  const k::Tensor x = random_tensor({5, 13, 6}, -1, 1, 21), w = random_tensor({6, 96}, -0.4, 0.4, 22),
                  r = random_tensor({24, 96}, -0.4, 0.4, 23), b = random_tensor({96}, -0.3, 0.3, 24),
                  h0 = random_tensor({5, 24}, -1, 1, 25), c0 = random_tensor({5, 24}, -1, 1, 26),
                  wy = random_tensor({5, 13, 24}, -1, 1, 27), wh = random_tensor({5, 24}, -1, 1, 28),
                  wc = random_tensor({5, 24}, -1, 1, 29);
  auto run = [&](bool own) {
    kk::set_own_kernels(own);
    std::vector<k::Tensor> sources{x, w, r, b, h0, c0};
    k::GradientTape tape;
    for (const auto& t : sources) tape.watch(t);
    auto out = k::ops::rnn(x, h0, c0, w, r, b, kk::RnnCell::lstm, true);
    k::Tensor loss = k::ops::add(k::ops::add(k::ops::sum(k::ops::multiply(out.sequence, wy)),
                                             k::ops::sum(k::ops::multiply(out.h, wh))),
                                 k::ops::sum(k::ops::multiply(out.c, wc)));
    std::vector<k::Tensor> got{out.sequence, out.h, out.c};
    for (const auto& grad : tape.gradient(loss, sources)) got.push_back(grad);
    kk::set_own_kernels(true);
    return got;
  };
  const auto ours = run(true), onednn = run(false);
  for (std::size_t i = 0; i < ours.size(); ++i) {
    INFO("0-2: sequence, h, c; 3-8: d x, kernel, recurrent kernel, bias, h0, c0; here " << i);
    const auto got = ours[i].to_vector<float>(), want = onednn[i].to_vector<float>();
    REQUIRE(got.size() == want.size());
    double largest = 0, worst = 0;
    for (std::size_t j = 0; j < got.size(); ++j) {
      largest = std::max(largest, double(std::abs(want[j])));
      worst = std::max(worst, double(std::abs(got[j] - want[j])));
    }
    CHECK(worst <= 1e-5 * largest);
  }
  k::utils::set_num_threads(threads_before);
}

TEST_CASE("an LSTM predicts on our own kernels as on oneDNN's RNN, on 1 to 3 threads", "[rnn]") {
  // Inference multiplies by packed copies of the weights (kernels::lstm_inference). Three sizes take its three
  // paths: one sequence (the threads split the units), 5 sequences (every step's input projection made first),
  // and 25 sequences of 90 steps (past 2 MiB of projections: runs of sequences, each step one product of
  // [x h] by the stacked weights, in runs the threads take in turn: 25 rows make 5 runs of 5 on one AVX2
  // thread and uneven shares for 2 and 3 threads). The reference is oneDNN's RNN (our kernels off).
  namespace kk = k::kernels;
  if (!kk::lstm_inference_fits({.batch = 1, .time = 1, .input = 16, .units = 64, .cell = kk::RnnCell::lstm})) {
    WARN("our LSTM inference kernels need AVX2 and our own kernels on");
    return;
  }
  const int threads_before = k::utils::get_num_threads();
  k::layers::LSTM lstm(64, {.return_sequences = true});
  lstm.ensure_built({-1, 90, 16});
  auto weights = lstm.get_weights();
  weights[2] = random_tensor({256}, -0.5, 0.5, 33);  // a bias that is not Keras's zeros and ones
  lstm.set_weights(weights);
  for (const std::int64_t batch : {1, 5, 25}) {
    const k::Tensor x = random_tensor({batch, 90, 16}, -1, 1, 31);
    kk::set_own_kernels(false);
    const k::Tensor want = lstm(x, false);
    kk::set_own_kernels(true);
    for (const int threads : {1, 2, 3}) {
      INFO(batch << " sequences, " << threads << " threads");
      k::utils::set_num_threads(threads);
      check_same(lstm(x, false), want);
    }
  }
  k::utils::set_num_threads(threads_before);
}

TEST_CASE("stacked cells equal the same layers chained", "[rnn]") {
  k::layers::RNN stacked(std::vector<k::layers::CellPtr>{std::make_shared<k::layers::LSTMCell>(4),
                                                         std::make_shared<k::layers::GRUCell>(3)},
                         {.return_sequences = true});
  k::layers::LSTM first(4, {.return_sequences = true});
  k::layers::GRU second(3, {.return_sequences = true});
  k::Tensor x = random_tensor({2, 5, 3});
  stacked.ensure_built(x.shape());
  first.ensure_built(x.shape());
  second.ensure_built({-1, 5, 4});
  auto w = stacked.get_weights();
  first.set_weights({w[0], w[1], w[2]});
  second.set_weights({w[3], w[4], w[5]});
  check_same(stacked(x), second(first(x)));
  // Step by step (an all-ones mask) the stack gives the same sequence.
  check_same(stacked.call_all({x}, {.masks = {k::Tensor::ones({2, 5})}})[0], second(first(x)));
  auto states = stacked.call_with_state(x);
  REQUIRE(states.size() == 4);  // output, lstm h, lstm c, gru h
  check_same(states[3], k::ops::time_step(states[0], 4));
}

TEST_CASE("Embedding(mask_zero) makes LSTM and GRU skip padding in Sequential and functional models", "[rnn][mask]") {
  k::utils::set_random_seed(3);
  for (bool gru : {false, true}) {
    k::Sequential model({k::layers::Embedding(10, 4, {.mask_zero = true}),
                         gru ? k::LayerRef(k::layers::GRU(5)) : k::LayerRef(k::layers::LSTM(5))});
    k::Tensor padded = k::Tensor::from_vector<float>({3, 1, 4, 0, 0, 2, 7, 5, 9, 1}, {2, 5});
    k::Tensor short_seq = k::Tensor::from_vector<float>({3, 1, 4}, {1, 3});
    k::Tensor full = model(padded);
    auto emb = model.layers()[0];
    auto rnn = model.layers()[1];
    check_same(full.slice(0, 1), (*rnn)((*emb)(short_seq)));
    k::KerasTensor in = k::Input({5});
    k::Model functional(in, (*rnn)((*emb)(in)));
    check_same(functional(padded), full);
  }
}

TEST_CASE("dropout and recurrent_dropout act only in training", "[rnn]") {
  k::utils::set_random_seed(5);
  k::layers::LSTM plain(6);
  k::layers::LSTM dropped(6, {.dropout = 0.5f, .recurrent_dropout = 0.5f});
  k::Tensor x = random_tensor({4, 5, 3});
  plain.ensure_built(x.shape());
  dropped.ensure_built(x.shape());
  dropped.set_weights(plain.get_weights());
  check_same(dropped(x, false), plain(x, false));
  k::Tensor y;
  {
    k::GradientTape tape;
    y = dropped(x, true);
    auto g = tape.gradient(k::ops::sum(y), dropped.trainable_weights());
    REQUIRE(g[0].defined());
  }
  auto a = y.to_vector<float>(), b = plain(x, false).to_vector<float>();
  double diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff += std::abs(a[i] - b[i]);
  CHECK(diff > 1e-3);
}

TEST_CASE("Embedding, LSTM, Dense save to HDF5 with tf.keras 2.x weight names and load back", "[rnn][saving]") {
  k::backend::clear_session();
  k::Sequential model({k::Input({6}), k::layers::Embedding(12, 4, {.mask_zero = true}),
                       k::layers::LSTM(5, {.return_sequences = true}), k::layers::GRU(3), k::layers::Dense(1)});
  model.compile({.optimizer = "adam", .loss = "mse"});
  k::Tensor x = k::Tensor::from_vector<float>({1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 9, 11}, {2, 6});
  model.fit(x, k::Tensor::ones({2, 1}), {.epochs = 1, .verbose = 0});
  const std::string path = "/tmp/kerascpp_rnn_" + std::to_string(::getpid()) + ".h5";
  model.save(path);
  k::backend::clear_session();  // a fresh session names the cells as the file does (optimizer slots match by name)
  auto loaded = k::models::load_model(path);
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  k::hdf5::File f = k::hdf5::File::open(path);
  auto mw = f.root().open_group("model_weights");
  CHECK(mw.open_group("lstm").string_list_attr("weight_names") ==
        std::vector<std::string>{"lstm/lstm_cell/kernel:0", "lstm/lstm_cell/recurrent_kernel:0", "lstm/lstm_cell/bias:0"});
  CHECK(mw.open_group("gru").string_list_attr("weight_names")[2] == "gru/gru_cell/bias:0");
  CHECK(mw.open_group("embedding").string_list_attr("weight_names") == std::vector<std::string>{"embedding/embeddings:0"});
  CHECK(mw.read_dataset("lstm/lstm/lstm_cell/kernel:0").shape() == k::Shape{4, 20});
  std::remove(path.c_str());
}
