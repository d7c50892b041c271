#pragma once
// keras.applications.efficientnet: EfficientNetB0 (Tan & Le, ICML 2019), layer for layer as Keras builds it.
// The model rescales its own input (Rescaling 1/255, then a Normalization layer whose mean and variance the
// weights file holds), so it takes pixels in [0, 255] and preprocess_input is the identity, as in Keras.
// Keras's weights files: efficientnetb0.h5 / efficientnetb0_notop.h5. (Keras 3 adds a further Rescaling by
// 1/sqrt(stddev) only for weights="imagenet", which kerascpp does not download; with a path it adds none, as
// Keras does.)
#include "keras/applications/imagenet_utils.hpp"

namespace keras::applications {

/// Default input 224x224x3 (at least 32x32).
std::shared_ptr<Model> EfficientNetB0(const ApplicationOptions& options = {});

namespace efficientnet {
/// The identity: EfficientNet preprocesses inside the model.
inline Tensor preprocess_input(const Tensor& x) { return x; }
inline KerasTensor preprocess_input(const KerasTensor& x) { return x; }
using imagenet_utils::decode_predictions;
}  // namespace efficientnet

}  // namespace keras::applications
