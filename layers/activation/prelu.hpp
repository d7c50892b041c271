#pragma once
// PReLU: x for x > 0, alpha * x otherwise, with a learned alpha of shape input_shape[1:] (size 1 along
// `shared_axes`, axis 1 being the first axis after the batch).
#include "keras/layer.hpp"
#include "keras/regularizers/regularizer.hpp"

namespace keras::layers {

struct PReLUOptions {
  initializers::InitializerRef alpha_initializer = "zeros";
  regularizers::RegularizerRef alpha_regularizer{};
  constraints::ConstraintRef alpha_constraint{};
  std::vector<int> shared_axes{};
  KERAS_LAYER_OPTIONS
};

class PReLU : public Layer {
 public:
  explicit PReLU(PReLUOptions options = {});
  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const std::shared_ptr<Variable>& alpha() const { return alpha_; }

 private:
  PReLUOptions options_;
  std::shared_ptr<Variable> alpha_;

  KERAS_LAYER(PReLU)
};

}  // namespace keras::layers
