// ONNX export of the convolutions and poolings: channels-last Keras layers run as ONNX's channels-first Conv,
// ConvTranspose, MaxPool and AveragePool between Transposes; every padding mode and stride/dilation/group
// setting must give kerascpp's predictions in ONNX Runtime within 1e-5.
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "onnx_test_models.hpp"

using namespace keras;
using keras_test::onnx::expect_matches;
using keras_test::onnx::random_tensor;
using keras_test::onnx::randomize_weights;

namespace {

void check_layer(const Shape& shape, LayerRef layer) {
  Sequential model({keras::Input(shape), layer});
  randomize_weights(model);
  Shape batch{2};
  batch.insert(batch.end(), shape.begin(), shape.end());
  INFO(model.layers().back()->class_name() << " " << model.layers().back()->get_config().dump());
  expect_matches(model, {random_tensor(batch, 3, -2.f, 2.f)});
}

}  // namespace

TEST_CASE("ONNX export: Conv1D, Conv2D, Conv3D with strides, dilations, groups and every padding", "[onnx]") {
  check_layer({9, 4}, layers::Conv1D(3, 3));
  check_layer({9, 4}, layers::Conv1D(3, 3, {.strides = 2, .padding = "same", .activation = "relu"}));
  check_layer({9, 4}, layers::Conv1D(3, 3, {.padding = "causal", .dilation_rate = 2}));
  check_layer({9, 4}, layers::Conv1D(4, 2, {.groups = 2, .use_bias = false}));
  check_layer({8, 7, 3}, layers::Conv2D(4, {3, 3}));
  check_layer({8, 7, 3}, layers::Conv2D(4, {3, 2}, {.strides = {2, 2}, .padding = "same"}));
  check_layer({8, 7, 3}, layers::Conv2D(4, {4, 4}, {.strides = {3, 2}, .padding = "same"}));
  check_layer({9, 9, 2}, layers::Conv2D(3, {3, 3}, {.padding = "same", .dilation_rate = {2, 2}}));
  check_layer({6, 6, 4}, layers::Conv2D(6, {3, 3}, {.groups = 2, .activation = "sigmoid"}));
  check_layer({5, 6, 4, 2}, layers::Conv3D(3, {2, 3, 2}, {.strides = {1, 2, 1}, .padding = "same"}));
}

TEST_CASE("ONNX export: transposed convolutions", "[onnx]") {
  check_layer({5, 4, 3}, layers::Conv2DTranspose(2, {3, 3}));
  check_layer({5, 4, 3}, layers::Conv2DTranspose(2, {3, 3}, {.strides = {2, 2}, .padding = "same"}));
  check_layer({5, 4, 3}, layers::Conv2DTranspose(2, {2, 2}, {.strides = {3, 3}}));  // valid, stride > kernel
  check_layer({5, 4, 3}, layers::Conv2DTranspose(2, {3, 3}, {.strides = {2, 2}, .output_padding = Size2{1, 1}}));
  check_layer({7, 3}, layers::Conv1DTranspose(2, 3, {.strides = 2, .padding = "same"}));
  check_layer({3, 4, 3, 2}, layers::Conv3DTranspose(2, {2, 2, 2}, {.strides = {2, 2, 2}}));
}

TEST_CASE("ONNX export: depthwise and separable convolutions", "[onnx]") {
  check_layer({7, 6, 3}, layers::DepthwiseConv2D({3, 3}, {.padding = "same", .depth_multiplier = 2}));
  check_layer({7, 6, 3}, layers::DepthwiseConv2D({3, 3}, {.strides = {2, 2}}));
  check_layer({9, 3}, layers::DepthwiseConv1D(3, {.padding = "causal", .depth_multiplier = 2}));
  check_layer({7, 6, 3}, layers::SeparableConv2D(4, {3, 3}, {.padding = "same", .depth_multiplier = 2}));
  check_layer({9, 3}, layers::SeparableConv1D(4, 3, {.strides = 2}));
}

TEST_CASE("ONNX export: locally connected layers", "[onnx]") {
  check_layer({9, 3}, layers::LocallyConnected1D(4, 3, {.strides = 2, .activation = "relu"}));
  check_layer({7, 6, 2}, layers::LocallyConnected2D(3, {3, 2}, {.strides = {2, 1}}));
}

TEST_CASE("ONNX export: poolings", "[onnx]") {
  check_layer({9, 3}, layers::MaxPooling1D(2));
  check_layer({9, 3}, layers::AveragePooling1D(3, {.strides = 2, .padding = "same"}));
  check_layer({7, 6, 3}, layers::MaxPooling2D({2, 2}));
  check_layer({7, 6, 3}, layers::MaxPooling2D({3, 3}, {.strides = {2, 2}, .padding = "same"}));
  check_layer({7, 6, 3}, layers::AveragePooling2D({2, 2}, {.padding = "same"}));
  check_layer({7, 6, 3}, layers::AveragePooling2D({3, 2}, {.strides = {1, 2}}));
  check_layer({4, 5, 6, 2}, layers::MaxPooling3D({2, 2, 2}, {.padding = "same"}));
  check_layer({4, 5, 6, 2}, layers::AveragePooling3D({2, 2, 2}, {.padding = "same"}));
  check_layer({9, 3}, layers::GlobalMaxPooling1D());
  check_layer({9, 3}, layers::GlobalAveragePooling1D());
  check_layer({7, 6, 3}, layers::GlobalAveragePooling2D());
  check_layer({7, 6, 3}, layers::GlobalMaxPooling2D({.keepdims = true}));
  check_layer({4, 5, 6, 2}, layers::GlobalAveragePooling3D());
  check_layer({4, 5, 6, 2}, layers::GlobalMaxPooling3D());
}

TEST_CASE("ONNX export: channels_first layers (from configs) need no Transposes and match", "[onnx]") {
  auto layer = [](const std::string& class_name, const std::string& config) {
    return LayerRef(Layer::deserialize(json{{"class_name", class_name}, {"config", json::parse(config)}}));
  };
  Sequential model({keras::Input({3, 8, 7}),
                    layer("Conv2D", R"({"filters": 4, "kernel_size": [3, 3], "padding": "same", "data_format": "channels_first"})"),
                    layer("MaxPooling2D", R"({"pool_size": [2, 2], "data_format": "channels_first"})"),
                    layer("ZeroPadding2D", R"({"padding": [[1, 0], [0, 1]], "data_format": "channels_first"})"),
                    layer("Flatten", R"({"data_format": "channels_first"})"), layers::Dense(3)});
  randomize_weights(model);
  expect_matches(model, {random_tensor({2, 3, 8, 7}, 6)});
  Sequential pooled({keras::Input({3, 8, 7}),
                     layer("AveragePooling2D", R"({"pool_size": [2, 2], "padding": "same", "data_format": "channels_first"})"),
                     layer("GlobalMaxPooling2D", R"({"data_format": "channels_first"})")});
  expect_matches(pooled, {random_tensor({2, 3, 8, 7}, 7)});
}
