#pragma once
// keras.applications.xception: Xception (Chollet, CVPR 2017), layer for layer as Keras builds it. Keras's
// weights files: xception_weights_tf_dim_ordering_tf_kernels.h5 / ..._notop.h5 (loaded by position, as Keras
// does, since the residual convolutions' automatic names were numbered by an older Keras).
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// Default input 299x299x3 (at least 71x71).
std::shared_ptr<Model> Xception(const ApplicationOptions& options = {});

namespace xception {
/// "tf" mode: pixels scaled to [-1, 1].
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
using imagenet_utils::decode_predictions;
}  // namespace xception

}  // namespace keras::applications
