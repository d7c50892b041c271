#pragma once
// The benchmark workloads in kerascpp, each with a libtorch twin in bench_models_torch.hpp (same layers,
// same shapes): the model, the shape of one sample, and random training data of that shape.
//   mlp          Flatten → Dense(512, relu) → Dense(256, relu) → Dense(10)                 28x28
//   cnn          the seed's CNN (examples/seed_cnn.hpp)                                     28x28x1
//   resnet20     ResNet-20 for CIFAR-10 (3 stages x 3 basic blocks, 16/32/64 filters)     32x32x3
//   transformer  one encoder block: MultiHeadAttention(8 heads, d_model 256) + LayerNorm,  128x256
//                GELU feed-forward 1024 + LayerNorm, then mean over time → Dense(10)
//   textcnn      Embedding(20000, 128) → Conv1D(128, 5, relu) → GlobalMaxPooling1D → Dense(10)  200 ids
//   lstm         Embedding(10000, 128) → LSTM(128) → Dense(10)                             100 ids
// Every workload ends in 10 logits trained with sparse categorical cross-entropy and Adam(1e-3).
#include <cstdint>
#include <stdexcept>
#include <string>

#include <keras/keras.hpp>

#include "../examples/seed_cnn.hpp"

namespace bench {

struct Workload {
  keras::Model model;
  keras::Shape sample_shape;   // one sample, without the batch axis
  std::int64_t vocabulary = 0;  // > 0: samples are token ids in [1, vocabulary)
  std::int64_t samples = 0;     // training samples per epoch (mlp and cnn: Fashion-MNIST's 60,000)
};

namespace detail {

inline keras::KerasTensor basic_block(const keras::KerasTensor& x, std::int64_t filters, std::int64_t stride) {
  namespace L = keras::layers;
  auto y = L::Conv2D(filters, {3, 3}, {.strides = {stride, stride}, .padding = "same", .use_bias = false})(x);
  y = L::Activation("relu")(L::BatchNormalization()(y));
  y = L::BatchNormalization()(L::Conv2D(filters, {3, 3}, {.padding = "same", .use_bias = false})(y));
  auto shortcut = x;
  if (stride != 1 || x.shape().back() != filters)
    shortcut = L::Conv2D(filters, {1, 1}, {.strides = {stride, stride}})(x);
  return L::Activation("relu")(L::add({y, shortcut}));
}

inline keras::Model resnet20() {
  namespace L = keras::layers;
  auto in = keras::Input({32, 32, 3});
  auto x = L::Activation("relu")(
      L::BatchNormalization()(L::Conv2D(16, {3, 3}, {.padding = "same", .use_bias = false})(in)));
  for (std::int64_t stage = 0; stage < 3; ++stage)
    for (int block = 0; block < 3; ++block) x = basic_block(x, 16 << stage, stage > 0 && block == 0 ? 2 : 1);
  return keras::Model(in, L::Dense(10)(L::GlobalAveragePooling2D()(x)), "resnet20");
}

inline keras::Model transformer_block() {
  namespace L = keras::layers;
  auto in = keras::Input({128, 256});
  auto attended = L::MultiHeadAttention(8, 32)({in, in});
  auto x = L::LayerNormalization({.epsilon = 1e-5})(L::add({in, attended}));
  auto ff = L::Dense(256)(L::Dense(1024, {.activation = "gelu"})(x));
  x = L::LayerNormalization({.epsilon = 1e-5})(L::add({x, ff}));
  return keras::Model(in, L::Dense(10)(L::GlobalAveragePooling1D()(x)), "transformer");
}

}  // namespace detail

inline Workload make_workload(const std::string& name) {
  namespace L = keras::layers;
  if (name == "mlp")
    return {keras::Sequential({L::Input({28, 28}), L::Flatten(), L::Dense(512, {.activation = "relu"}),
                               L::Dense(256, {.activation = "relu"}), L::Dense(10)}),
            {28, 28}, 0, 60000};
  if (name == "cnn") return {seed_cnn(), {28, 28, 1}, 0, 60000};
  if (name == "resnet20") return {detail::resnet20(), {32, 32, 3}, 0, 2560};
  if (name == "transformer") return {detail::transformer_block(), {128, 256}, 0, 640};
  if (name == "textcnn")
    return {keras::Sequential({L::Input({200}), L::Embedding(20000, 128), L::Conv1D(128, 5, {.activation = "relu"}),
                               L::GlobalMaxPooling1D(), L::Dense(10)}),
            {200}, 20000, 4096};
  if (name == "lstm")
    return {keras::Sequential({L::Input({100}), L::Embedding(10000, 128), L::LSTM(128), L::Dense(10)}), {100}, 10000,
            2048};
  throw std::invalid_argument("unknown --model " + name + " (available: mlp, cnn, resnet20, transformer, textcnn, lstm)");
}

/// The shape of `n` samples.
inline keras::Shape batched(std::int64_t n, const keras::Shape& sample_shape) {
  keras::Shape shape{n};
  shape.insert(shape.end(), sample_shape.begin(), sample_shape.end());
  return shape;
}

/// `n` random samples of the workload's input: uniform [0, 1) values, or token ids as float32 (what
/// Embedding takes from Keras arrays).
inline keras::Tensor random_inputs(const Workload& w, std::int64_t n) {
  const keras::Shape shape = batched(n, w.sample_shape);
  if (w.vocabulary > 0) return keras::random::randint(shape, 1, w.vocabulary, keras::DType::float32, 1);
  return keras::random::uniform(shape, 0.0, 1.0, keras::DType::float32, 1);
}

}  // namespace bench
