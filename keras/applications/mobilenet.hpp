#pragma once
// keras.applications.mobilenet (MobileNet, Howard et al. 2017) and mobilenet_v2 (MobileNetV2, Sandler et al.
// 2018), layer for layer as Keras builds them. Keras's weights files: mobilenet_<alpha>_<rows>_tf.h5 /
// ..._tf_no_top.h5 (alpha 1_0, 7_5, 5_0, 2_5) and mobilenet_v2_weights_tf_dim_ordering_tf_kernels_<alpha>_<rows>.h5
// / ..._no_top.h5.
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

struct MobileNetOptions {
  KERAS_APPLICATION_OPTIONS
  double alpha = 1.0;                  ///< width multiplier: filters of each layer times alpha
  std::int64_t depth_multiplier = 1;   ///< of the depthwise convolutions
  double dropout = 1e-3;               ///< before the classifier
};

struct MobileNetV2Options {
  KERAS_APPLICATION_OPTIONS
  double alpha = 1.0;  ///< width multiplier
};

/// MobileNet: depthwise separable convolutions with ReLU6; the classifier is a 1x1 convolution. Default input
/// 224x224x3 (also 128, 160, 192; at least 32x32). Default name "mobilenet_<alpha:.2f>_<rows>".
std::shared_ptr<Model> MobileNet(const MobileNetOptions& options = {});
/// MobileNetV2: inverted residual blocks. Default name "mobilenetv2_<alpha:.2f>_<rows>".
std::shared_ptr<Model> MobileNetV2(const MobileNetV2Options& options = {});

namespace mobilenet {
/// "tf" mode: pixels scaled to [-1, 1].
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
using imagenet_utils::decode_predictions;
}  // namespace mobilenet

namespace mobilenet_v2 {
/// "tf" mode: pixels scaled to [-1, 1].
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
using imagenet_utils::decode_predictions;
}  // namespace mobilenet_v2

}  // namespace keras::applications
