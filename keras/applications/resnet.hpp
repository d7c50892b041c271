#pragma once
// keras.applications.resnet (ResNet50) and resnet_v2 (ResNet50V2), layer for layer as Keras builds them.
// Keras's weights files: resnet50_weights_tf_dim_ordering_tf_kernels.h5 / ..._notop.h5 and
// resnet50v2_weights_tf_dim_ordering_tf_kernels.h5 / ..._notop.h5.
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// ResNet50 (He et al., CVPR 2015): bottleneck blocks with post-activation. Default input 224x224x3.
std::shared_ptr<Model> ResNet50(const ApplicationOptions& options = {});
/// ResNet50V2 (He et al., 2016): pre-activation bottleneck blocks. Default input 224x224x3.
std::shared_ptr<Model> ResNet50V2(const ApplicationOptions& options = {});

namespace resnet50 {
/// "caffe" mode: RGB → BGR, minus the ImageNet channel means.
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "caffe"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "caffe"); }
using imagenet_utils::decode_predictions;
}  // namespace resnet50
namespace resnet = resnet50;

namespace resnet_v2 {
/// "tf" mode: pixels scaled to [-1, 1].
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
using imagenet_utils::decode_predictions;
}  // namespace resnet_v2

}  // namespace keras::applications
