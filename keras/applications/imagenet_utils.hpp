#pragma once
// keras.applications.imagenet_utils: preprocess_input's three modes, decode_predictions, and what the
// application builders share (the input shape rules, correct_pad, the classifier-activation check, the
// model's inputs and its weights file).
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "keras/applications/application_options.hpp"
#include "keras/tensor.hpp"
#include "keras/initializers/initializer.hpp"
#include "layers/reshaping/spatial_arguments.hpp"

namespace keras::applications {

namespace imagenet_utils {

/// Keras's preprocess_input on a batch (or one image) of RGB pixels in [0, 255], channels_last:
/// "caffe": RGB → BGR, then minus the ImageNet mean of each channel (103.939, 116.779, 123.68), no scaling;
/// "tf": x / 127.5 - 1; "torch": x / 255, minus (0.485, 0.456, 0.406), divided by (0.229, 0.224, 0.225).
/// Returns float32 (integer pixels are converted first); the input is not modified.
Tensor preprocess_input(const Tensor& x, const std::string& mode = "caffe");
/// The same on a symbolic input, recorded as raw-op nodes (TFOpLambda, SlicingOpLambda) and a Concatenate, so that
/// the preprocessing is part of a model that takes raw pixels (Keras's usage example with `layers.Input`).
KerasTensor preprocess_input(const KerasTensor& x, const std::string& mode = "caffe");

/// One decoded prediction: ImageNet's WordNet id, the class name, the score.
struct Prediction {
  std::string wnid;
  std::string label;
  float score = 0.f;
};

/// The `top` best classes of each row of `preds` (batch, 1000), best first, named by Keras's
/// imagenet_class_index.json ({"0": ["n01440764", "tench"], ...}). Keras downloads that file; kerascpp does not,
/// so `class_index_path` is where it lies, or (empty) the file Keras's download left in
/// $KERAS_HOME/models/ or ~/.keras/models/.
std::vector<std::vector<Prediction>> decode_predictions(const Tensor& preds, int top = 5,
                                                        const std::string& class_index_path = "");

/// Keras's obtain_input_shape for weights other than "imagenet": the (rows, cols, channels) of the model's input
/// (-1 for None), checked against min_size; with require_flatten (include_top) the shape must be static.
Shape obtain_input_shape(const std::optional<Shape>& input_shape, std::int64_t default_size, std::int64_t min_size,
                         bool require_flatten, const std::string& model);

/// Keras's correct_pad: the ZeroPadding2D before a strided `kernel_size` convolution with "valid" padding.
layers::SpatialPairs correct_pad(const KerasTensor& inputs, std::int64_t kernel_size);

}  // namespace imagenet_utils

namespace detail {

/// The checks every application starts with (weights file exists; classes for a weights file with a top).
void check_common(const ApplicationOptions& o, const std::string& model);
/// The options every application shares, from a struct that has them (KERAS_APPLICATION_OPTIONS).
template <class O>
ApplicationOptions common(const O& o) {
  return {.include_top = o.include_top, .weights = o.weights, .input_tensor = o.input_tensor,
          .input_shape = o.input_shape, .pooling = o.pooling, .classes = o.classes,
          .classifier_activation = o.classifier_activation, .name = o.name};
}
/// The image input: input_tensor when given, else Input(shape).
KerasTensor image_input(const ApplicationOptions& o, const Shape& shape);
/// Keras's validate_activation: with a weights file only "softmax" and "linear"/"" are accepted.
void validate_activation(const ApplicationOptions& o);
/// The classifier activation as a layer option ("" → "linear").
std::string classifier_activation(const ApplicationOptions& o);
/// Keras's classifier: validate_activation, then Dense(classes) with the classifier activation, named
/// "predictions" (with this kernel initializer).
KerasTensor predictions(const KerasTensor& x, const ApplicationOptions& o,
                        initializers::InitializerRef kernel_initializer = "glorot_uniform");
/// The end of a model without its top: global average or max pooling for pooling "avg" / "max" (the
/// layers named "avg_pool" / "max_pool" when `named`, as some of Keras's models name them), else x.
KerasTensor pooled(const KerasTensor& x, const std::string& pooling, bool named);
/// The common ending: with the top, GlobalAveragePooling2D "avg_pool" then predictions; without, pooled.
KerasTensor average_pool_top(const KerasTensor& x, const ApplicationOptions& o, bool named_pooling);
/// The functional model from the image input (or input_tensor's source inputs) to x, named `name` unless the
/// options name it, with the weights file loaded when one is given.
std::shared_ptr<Model> finish(const ApplicationOptions& o, const KerasTensor& img_input, const KerasTensor& x,
                              const std::string& default_name);
/// Loads Keras's weights file: by layer name when every layer with weights is in the file, by position otherwise
/// (as Keras's load_weights, for files whose auto-named layers were numbered by older Keras, e.g. InceptionV3's).
void load_application_weights(Model& model, const std::string& path);

}  // namespace detail
}  // namespace keras::applications
