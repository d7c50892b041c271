#pragma once
// Merge: the base of the element-wise merging layers (Keras's _Merge). It takes a list of inputs with the
// same batch size; inputs of lower rank get axes of size 1 inserted after the batch axis, then the shapes
// broadcast (each dimension equal, or 1).
#include "keras/layer.hpp"

namespace keras::layers {

struct MergeOptions {
  KERAS_LAYER_OPTIONS
};

/// The product (logical and) of the defined 0/1 masks; undefined when none is, or when their shapes differ.
Tensor merged_masks(const std::vector<Tensor>& masks);

class Merge : public Layer {
 public:
  Merge(const MergeOptions& options, const std::string& default_prefix);
  void build(const std::vector<Shape>& input_shapes) override;
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  /// A position is masked out when it is masked out in any input (Keras's _Merge.compute_mask).
  std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const override;

 protected:
  /// Combines inputs of equal rank (already checked and expanded).
  virtual Tensor merge_function(const std::vector<Tensor>& inputs) const = 0;
  /// Extra checks of a subclass (Subtract wants exactly two inputs).
  virtual void check_inputs(const std::vector<Shape>& input_shapes) const;

 private:
  void check_shapes(const std::vector<Shape>& input_shapes) const;
};

}  // namespace keras::layers
