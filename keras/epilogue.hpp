#pragma once
// Inference-time fusion: the element-wise layers that follow a convolution (a BatchNormalization in
// inference, a residual Add, an activation) run inside the convolution's epilogue, as ONNX Runtime fuses
// Conv + BatchNormalization + Add + Relu. FunctionalGraph finds such chains; each layer says what step it is
// (Layer::epilogue_step) and the convolution runs them (Layer::call_with_epilogue). Only when predicting:
// training and recorded calls run layer by layer.
#include <vector>

#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras {

/// What a layer does to its input, when it is one element-wise step a convolution can take over.
struct EpilogueStep {
  enum class Kind { none, affine, add, activation };
  Kind kind = Kind::none;
  std::vector<float> scale, shift;  // affine: y * scale[c] + shift[c] over the last axis
  kernels::Eltwise activation = kernels::Eltwise::linear;  // activation
};

/// The steps a convolution runs after its bias: affine (folded into its weights and bias), then + residual,
/// then the activation.
struct Epilogue {
  std::vector<float> scale, shift;  // empty: no affine step
  Tensor residual;                  // undefined: no residual
  kernels::Eltwise activation = kernels::Eltwise::linear;
};

}  // namespace keras
