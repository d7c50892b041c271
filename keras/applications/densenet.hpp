#pragma once
// keras.applications.densenet: DenseNet121 (Huang et al., CVPR 2017), layer for layer as Keras builds it.
// Keras's weights files: densenet121_weights_tf_dim_ordering_tf_kernels.h5 / ..._notop.h5.
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// Dense blocks of 6, 12, 24 and 16 conv blocks (growth rate 32). Default input 224x224x3.
std::shared_ptr<Model> DenseNet121(const ApplicationOptions& options = {});

namespace densenet {
/// "torch" mode: pixels / 255, minus the ImageNet mean, over the ImageNet standard deviation of each channel.
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "torch"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "torch"); }
using imagenet_utils::decode_predictions;
}  // namespace densenet

}  // namespace keras::applications
