#pragma once
// keras.applications.vgg16: VGG16 (Simonyan & Zisserman, ICLR 2015), layer for layer as Keras builds it.
// Keras's weights files: vgg16_weights_tf_dim_ordering_tf_kernels.h5 and ..._notop.h5.
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// 13 convolutions in five blocks, then (include_top) fc1, fc2 and predictions. Default input 224x224x3
/// (at least 32x32).
std::shared_ptr<Model> VGG16(const ApplicationOptions& options = {});

namespace vgg16 {
/// "caffe" mode: RGB → BGR, minus the ImageNet channel means.
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "caffe"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "caffe"); }
using imagenet_utils::decode_predictions;
}  // namespace vgg16

}  // namespace keras::applications
