#pragma once
// TFOpLambda: a raw TensorFlow op that tf.keras 2.x recorded in a functional model (`tf.math.multiply(x,
// 2.0)`, `x + y`, `tf.concat([a, b], -1)`, `tf.nn.relu(x)` ...), config {"function": "math.multiply"},
// the call's other arguments in its inbound node (`["dense", 0, 0, {"y": 2.0, "name": null}]`). The
// common functions run on keras::ops (see tf_function_names()); any other is a ValueError naming it.
#include "layers/core/op_layer.hpp"

namespace keras::layers {

struct TFOpLambdaOptions {
  KERAS_LAYER_OPTIONS
};

class TFOpLambda : public OpLayer {
 public:
  /// `function` as tf.keras names it ("math.multiply"); the default layer name is "tf." + function.
  explicit TFOpLambda(const std::string& function, TFOpLambdaOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const std::string& function() const { return function_; }

 protected:
  Tensor evaluate(const std::vector<Tensor>& inputs) const override;
  std::string who() const override;

 private:
  std::string function_;

  KERAS_LAYER(TFOpLambda)
};

}  // namespace keras::layers
