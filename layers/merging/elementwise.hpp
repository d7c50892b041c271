#pragma once
// The element-wise merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, and the functional
// shortcuts keras::layers::add({a, b}), ... that apply a new layer to symbolic or concrete inputs.
#include "layers/merging/merge.hpp"

namespace keras::layers {

#define KERAS_ELEMENTWISE_MERGE(Class, prefix)                                       \
  class Class : public Merge {                                                       \
   public:                                                                           \
    explicit Class(MergeOptions options = {}) : Merge(options, prefix) {}            \
    static std::shared_ptr<Layer> from_config(const json& config);                   \
                                                                                     \
   protected:                                                                        \
    Tensor merge_function(const std::vector<Tensor>& inputs) const override;         \
    KERAS_LAYER(Class)                                                               \
  };

/// Sum of the inputs.
class Add : public Merge {
 public:
  explicit Add(MergeOptions options = {}) : Merge(options, "add") {}
  static std::shared_ptr<Layer> from_config(const json& config);
  /// With two inputs of one shape, the residual step of a fused epilogue (keras/epilogue.hpp).
  EpilogueStep epilogue_step() const override { return {.kind = EpilogueStep::Kind::add}; }

 protected:
  Tensor merge_function(const std::vector<Tensor>& inputs) const override;
  KERAS_LAYER(Add)
};
/// inputs[0] - inputs[1] (exactly two inputs).
class Subtract : public Merge {
 public:
  explicit Subtract(MergeOptions options = {}) : Merge(options, "subtract") {}
  static std::shared_ptr<Layer> from_config(const json& config);

 protected:
  Tensor merge_function(const std::vector<Tensor>& inputs) const override;
  void check_inputs(const std::vector<Shape>& input_shapes) const override;

  KERAS_LAYER(Subtract)
};
/// Product of the inputs.
KERAS_ELEMENTWISE_MERGE(Multiply, "multiply")
/// Mean of the inputs.
KERAS_ELEMENTWISE_MERGE(Average, "average")
/// Element-wise maximum (ties send the gradient to the first input, as tf.maximum).
KERAS_ELEMENTWISE_MERGE(Maximum, "maximum")
/// Element-wise minimum.
KERAS_ELEMENTWISE_MERGE(Minimum, "minimum")

#undef KERAS_ELEMENTWISE_MERGE

Tensor add(const std::vector<Tensor>& inputs);
KerasTensor add(const std::vector<KerasTensor>& inputs);
Tensor subtract(const std::vector<Tensor>& inputs);
KerasTensor subtract(const std::vector<KerasTensor>& inputs);
Tensor multiply(const std::vector<Tensor>& inputs);
KerasTensor multiply(const std::vector<KerasTensor>& inputs);
Tensor average(const std::vector<Tensor>& inputs);
KerasTensor average(const std::vector<KerasTensor>& inputs);
Tensor maximum(const std::vector<Tensor>& inputs);
KerasTensor maximum(const std::vector<KerasTensor>& inputs);
Tensor minimum(const std::vector<Tensor>& inputs);
KerasTensor minimum(const std::vector<KerasTensor>& inputs);

}  // namespace keras::layers
