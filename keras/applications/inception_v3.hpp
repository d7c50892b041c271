#pragma once
// keras.applications.inception_v3: InceptionV3 (Szegedy et al., CVPR 2016), layer for layer as Keras builds it
// (its convolutions, batch norms and activations are named automatically: "conv2d_7", ...). Keras's weights
// files: inception_v3_weights_tf_dim_ordering_tf_kernels.h5 / ..._notop.h5 (loaded by position, as Keras does,
// since their automatic names were numbered by an older Keras).
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// Default input 299x299x3 (at least 75x75).
std::shared_ptr<Model> InceptionV3(const ApplicationOptions& options = {});

namespace inception_v3 {
/// "tf" mode: pixels scaled to [-1, 1].
inline Tensor preprocess_input(const Tensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
inline KerasTensor preprocess_input(const KerasTensor& x) { return imagenet_utils::preprocess_input(x, "tf"); }
using imagenet_utils::decode_predictions;
}  // namespace inception_v3

}  // namespace keras::applications
