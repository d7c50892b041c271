#pragma once
// SlicingOpLambda: tf.keras 2.x's record of `x[...]` on a KerasTensor: function "__operators__.getitem", the
// key in the node's "slice_spec" (integers, {"start", "stop", "step"} slices, {"class_name": "__ellipsis__"},
// null for tf.newaxis).
#include "keras/ops/indexing.hpp"
#include "layers/core/tf_op_lambda.hpp"

namespace keras::layers {

class SlicingOpLambda : public TFOpLambda {
 public:
  explicit SlicingOpLambda(const std::string& function = "__operators__.getitem", TFOpLambdaOptions options = {});
  static std::shared_ptr<Layer> from_config(const json& config);
  /// The key of the call (its slice_spec).
  std::vector<Index> key() const;

  KERAS_LAYER(SlicingOpLambda)
};

}  // namespace keras::layers
