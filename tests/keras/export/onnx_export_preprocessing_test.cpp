// ONNX export of the preprocessing layers ONNX can express in inference: each model is exported, checked by
// onnx.checker (full check) and run in ONNX Runtime, whose outputs must match kerascpp's predict within 1e-5.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "onnx_runtime.hpp"
#include "onnx_test_models.hpp"

using namespace keras;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_indices;
using keras_test::onnx::random_tensor;

namespace {

// One layer after an input of `shape` (float32 in [low, high)), checked on a batch of 3.
void check_layer(const Shape& shape, LayerRef layer, float low = 0.f, float high = 1.f) {
  Sequential model({keras::Input(shape), std::move(layer)});
  Shape batch{3};
  batch.insert(batch.end(), shape.begin(), shape.end());
  expect_matches(model, {random_tensor(batch, 17, low, high)});
}

}  // namespace

TEST_CASE("ONNX export: Rescaling, of float and integer inputs", "[onnx][preprocessing]") {
  check_layer({4, 4, 3}, layers::Rescaling(1. / 255), 0.f, 255.f);
  check_layer({4, 4, 3}, layers::Rescaling(1. / 127.5, {.offset = -1.}), 0.f, 255.f);
  auto in = keras::Input({5}, {.dtype = DType::int32});
  Model ints(in, layers::Rescaling(0.5, {.offset = 2.})(in));
  expect_matches(ints, {random_indices({3, 5}, 4, 100)});
}

TEST_CASE("ONNX export: Normalization, given or adapted statistics, and its inverse", "[onnx][preprocessing]") {
  check_layer({4, 3}, layers::Normalization({.mean = std::vector<double>{1., 2., 3.},
                                             .variance = std::vector<double>{4., 0.25, 0.}}));
  check_layer({4, 3}, layers::Normalization({.axis = std::nullopt, .mean = std::vector<double>{5.},
                                             .variance = std::vector<double>{9.}}));
  check_layer({4, 3}, layers::Normalization({.mean = std::vector<double>{1., 2., 3.},
                                             .variance = std::vector<double>{4., 0.25, 2.}, .invert = true}),
              -2.f, 2.f);
  // Statistics learned by adapt() over the kept axes (1, 2) of [batch, 4, 3].
  layers::Normalization adapted({.axis = std::vector<int>{1, 2}});
  auto layer = std::make_shared<layers::Normalization>(std::move(adapted));
  Sequential model({keras::Input({4, 3}), LayerRef(layer)});
  layer->adapt(random_tensor({20, 4, 3}, 9, -3.f, 7.f));
  expect_matches(model, {random_tensor({3, 4, 3}, 10, -3.f, 7.f)});
}

TEST_CASE("ONNX export: Resizing with every interpolation matches kerascpp (tf.image.resize's half-pixel rules)",
          "[onnx][preprocessing]") {
  for (const std::string interpolation : {"bilinear", "nearest", "bicubic", "area"}) {
    INFO(interpolation);
    check_layer({7, 9, 2}, layers::Resizing(4, 5, {.interpolation = interpolation}));   // down
    check_layer({5, 4, 2}, layers::Resizing(11, 7, {.interpolation = interpolation}));  // up
    check_layer({6, 10, 3}, layers::Resizing(4, 4, {.interpolation = interpolation, .crop_to_aspect_ratio = true}));
  }
}

TEST_CASE("ONNX export: CenterCrop, and RandomCrop as in inference", "[onnx][preprocessing]") {
  check_layer({8, 7, 2}, layers::CenterCrop(4, 5));
  check_layer({8, 7, 2}, layers::CenterCrop(3, 9));  // wider than the image: cropped to the aspect ratio and resized
  check_layer({8, 7, 2}, layers::RandomCrop(5, 5));
}

TEST_CASE("ONNX export: the random augmentation layers are identities in inference", "[onnx][preprocessing]") {
  Sequential model({keras::Input({6, 6, 3}), layers::RandomFlip(), layers::RandomRotation(0.2), layers::RandomZoom(0.1),
                    layers::RandomTranslation(0.1, 0.1), layers::RandomContrast(0.3), layers::RandomBrightness(0.2),
                    layers::Conv2D(2, {3, 3})});
  keras_test::onnx::randomize_weights(model);
  expect_matches(model, {random_tensor({3, 6, 6, 3}, 3)});
}

TEST_CASE("ONNX export: CategoryEncoding one_hot, multi_hot and count", "[onnx][preprocessing]") {
  auto one = keras::Input({}, {.dtype = DType::int32});
  Model one_hot(one, layers::CategoryEncoding(6, {.output_mode = "one_hot"})(one));
  expect_matches(one_hot, {random_indices({5}, 1, 6)});
  auto column = keras::Input({1}, {.dtype = DType::int32});
  Model one_hot_column(column, layers::CategoryEncoding(6, {.output_mode = "one_hot"})(column));
  expect_matches(one_hot_column, {random_indices({5, 1}, 2, 6)});
  for (const std::string mode : {"multi_hot", "count"}) {
    INFO(mode);
    auto ids = keras::Input({7}, {.dtype = DType::int32});
    Model model(ids, layers::CategoryEncoding(5, {.output_mode = mode})(ids));
    expect_matches(model, {random_indices({4, 7}, 3, 5)});
  }
}

TEST_CASE("ONNX export: Discretization int and encoded outputs - a value on a boundary goes to the upper bin",
          "[onnx][preprocessing]") {
  const std::vector<double> bounds{-1., 0.1, 0.5, 2.};
  Tensor x = random_tensor({3, 6}, 5, -2.f, 3.f);
  for (int i = 0; i < 4; ++i) x.data<float>()[i] = static_cast<float>(bounds[static_cast<std::size_t>(i)]);
  x.data<float>()[4] = std::nextafter(0.1f, 0.f);  // just below 0.1 as a float: still below the boundary
  auto in = keras::Input({6});
  Model ids(in, layers::Discretization({.bin_boundaries = bounds})(in));
  expect_matches(ids, {x});
  for (const std::string mode : {"multi_hot", "count"}) {
    INFO(mode);
    Model encoded(in, layers::Discretization({.bin_boundaries = bounds, .output_mode = mode})(in));
    expect_matches(encoded, {x});
  }
  auto scalar = keras::Input({1});
  Model one_hot(scalar, layers::Discretization({.bin_boundaries = bounds, .output_mode = "one_hot"})(scalar));
  expect_matches(one_hot, {random_tensor({5, 1}, 6, -2.f, 3.f)});
}
