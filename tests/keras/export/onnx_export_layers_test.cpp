// ONNX export of the core, activation, normalization, merging and reshaping layers: each model is exported,
// checked by onnx.checker (full check) and run in ONNX Runtime, whose outputs must match kerascpp's predict
// within 1e-5.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "onnx_runtime.hpp"
#include "onnx_test_models.hpp"

using namespace keras;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_indices;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;

namespace {

// A Sequential of `layers` after an input of `shape`, with random weights, checked on a batch of 3.
void check_stack(const Shape& shape, std::vector<LayerRef> layers, double tolerance = 1e-5) {
  layers.insert(layers.begin(), LayerRef(keras::Input(shape)));
  Sequential model(layers);
  randomize_weights(model);
  Shape batch{3};
  batch.insert(batch.end(), shape.begin(), shape.end());
  expect_matches(model, {random_tensor(batch, 11, -2.f, 2.f)}, tolerance);
}

}  // namespace

TEST_CASE("ONNX export: Dense with every built-in activation", "[onnx]") {
  for (const std::string a : {"linear", "relu", "sigmoid", "tanh", "softmax", "softplus", "softsign", "elu", "selu",
                              "exponential", "relu6", "leaky_relu", "hard_sigmoid", "swish", "gelu"}) {
    INFO("activation " << a);
    check_stack({6}, {layers::Dense(5, {.activation = a})});
  }
  check_stack({4, 6}, {layers::Dense(5, {.use_bias = false})});  // rank 3: Dense on the last axis
  check_stack({4, 6}, {layers::EinsumDense("abc,cde->abde", {4, 2, 3}, {.bias_axes = "de"})});
  check_stack({6}, {layers::EinsumDense("ab,bc->ac", {5}, {.activation = "relu", .bias_axes = "c"})});
}

TEST_CASE("ONNX export: activation layers", "[onnx]") {
  check_stack({4, 5}, {layers::ReLU()});
  check_stack({4, 5}, {layers::ReLU({.max_value = 1.5, .negative_slope = 0.1, .threshold = 0.25})});
  check_stack({4, 5}, {layers::LeakyReLU(0.2)});
  check_stack({4, 5}, {layers::PReLU()});
  check_stack({4, 5}, {layers::ELU(0.7)});
  check_stack({4, 5}, {layers::ThresholdedReLU(0.3)});
  check_stack({4, 5}, {layers::Softmax()});
  check_stack({4, 5}, {layers::Activation("tanh")});
}

TEST_CASE("ONNX export: Dropout and the noise layers are identities", "[onnx]") {
  check_stack({4, 6}, {layers::Dropout(0.5), layers::GaussianNoise(0.3), layers::GaussianDropout(0.3),
                       layers::AlphaDropout(0.3), layers::SpatialDropout1D(0.5), layers::ActivityRegularization(),
                       layers::Identity(), layers::Dense(3)});
}

TEST_CASE("ONNX export: normalization layers", "[onnx]") {
  check_stack({5, 6}, {layers::BatchNormalization()});
  check_stack({4, 4, 6}, {layers::BatchNormalization({.axis = 1})});
  check_stack({5, 6}, {layers::LayerNormalization()});
  check_stack({3, 4, 6}, {layers::LayerNormalization({.axis = {-2, -1}})});
  check_stack({3, 4, 6}, {layers::LayerNormalization({.axis = {1}, .center = false})});  // not trailing: decomposed
  check_stack({5, 6}, {layers::LayerNormalization({.rms_scaling = true})});
  check_stack({4, 4, 8}, {layers::GroupNormalization(4)});
  check_stack({5, 6}, {layers::RMSNormalization()});
  check_stack({5, 6}, {layers::UnitNormalization()});
  check_stack({6}, {layers::SpectralNormalization(layers::Dense(4))});
  check_stack({6, 5, 2}, {layers::SpectralNormalization(layers::Conv2D(3, {3, 3}))});
}

TEST_CASE("ONNX export: LayerNormalization decomposed below opset 17 matches too", "[onnx]") {
  Sequential model({keras::Input({5, 6}), layers::LayerNormalization()});
  randomize_weights(model);
  const double diff = keras_test::onnx::export_and_compare(model, {random_tensor({3, 5, 6}, 5)}, 13);
  CHECK(diff <= 1e-5);
}

TEST_CASE("ONNX export: reshaping layers", "[onnx]") {
  check_stack({3, 4, 2}, {layers::Flatten(), layers::Dense(3)});
  check_stack({3, 4, 2}, {layers::Reshape({4, -1})});
  check_stack({3, 4, 2}, {layers::Permute({3, 1, 2})});
  check_stack({5}, {layers::RepeatVector(3)});
  check_stack({4, 5, 2}, {layers::ZeroPadding2D({{1, 2}, {0, 1}})});
  check_stack({6, 2}, {layers::ZeroPadding1D(2)});
  check_stack({3, 4, 5, 2}, {layers::ZeroPadding3D()});
  check_stack({6, 7, 2}, {layers::Cropping2D({{1, 2}, {0, 3}})});
  check_stack({6, 2}, {layers::Cropping1D({2, 0})});
  check_stack({4, 4, 4, 2}, {layers::Cropping3D()});
  check_stack({3, 2}, {layers::UpSampling1D(3)});
  check_stack({3, 4, 2}, {layers::UpSampling2D({2, 3})});
  check_stack({2, 3, 2, 2}, {layers::UpSampling3D()});
}

TEST_CASE("ONNX export: Embedding takes integer indices - Masking zeroes the masked steps", "[onnx]") {
  auto in = keras::Input({5}, {.dtype = DType::int32});
  Model embed(in, layers::Dense(3)(layers::Embedding(10, 4)(in)));
  randomize_weights(embed);
  expect_matches(embed, {random_indices({3, 5}, 2, 10)});

  Sequential masking({keras::Input({4, 3}), layers::Masking(0.f), layers::Dense(2)});
  randomize_weights(masking);
  Tensor x = random_tensor({2, 4, 3}, 4);
  for (int f = 0; f < 3; ++f) x.data<float>()[1 * 3 + f] = 0.f;  // step 1 of sample 0 is masked
  expect_matches(masking, {x});
}

TEST_CASE("ONNX export: merging layers", "[onnx]") {
  auto a = keras::Input({4, 3}, {.name = "a"}), b = keras::Input({4, 3}, {.name = "b"});
  const std::vector<Tensor> xs{random_tensor({2, 4, 3}, 1), random_tensor({2, 4, 3}, 2)};
  for (const auto& out : {layers::add({a, b}), layers::subtract({a, b}), layers::multiply({a, b}), layers::average({a, b}),
                          layers::maximum({a, b}), layers::minimum({a, b}), layers::Concatenate()({a, b}),
                          layers::Concatenate(1)({a, b}), layers::Dot({2, 2})({a, b}), layers::Dot({1, 1})({a, b}),
                          layers::Dot({2, 2}, {.normalize = true})({a, b})}) {
    Model model({a, b}, out);
    INFO(model.layers().back()->get_config().dump());
    expect_matches(model, xs);
  }
  auto u = keras::Input({5}), v = keras::Input({5});
  Model dot2({u, v}, layers::Dot(1)({u, v}));
  expect_matches(dot2, {random_tensor({3, 5}, 3), random_tensor({3, 5}, 4)});
}
