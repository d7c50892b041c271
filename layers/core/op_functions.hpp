#pragma once
// The raw operations op layers run, by the name Keras files give them: tf.keras 2.x's TFOpLambda
// "function" ("math.multiply", "__operators__.add", "nn.relu", "concat", ...) and Keras 3's keras.ops
// class names ("Add", "Mean", "GetItem", ...). Each binds its arguments by the op's own parameter names
// and computes with keras::ops, so the result differentiates.
#include <string>
#include <vector>

#include "keras/json.hpp"
#include "keras/ops/indexing.hpp"
#include "layers/core/op_layer.hpp"

namespace keras::layers {

/// The arguments of one op call with its tensors resolved, by parameter name (positional arguments bind to
/// the op's parameter list in order, as Python does).
class OpArguments {
 public:
  OpArguments(const std::vector<std::string>& params, const json& args, const json& kwargs,
              const std::vector<Tensor>& inputs, std::string who);
  /// Given and not null.
  bool has(const std::string& name) const;
  /// The raw JSON value (null when absent); tensors stay placeholders.
  const json& value(const std::string& name) const;
  /// A tensor argument: an input, or a constant (a number or nested list, Keras 3's __tensor__/__numpy__).
  Tensor tensor(const std::string& name) const;
  /// A list of tensors (tf.concat's `values`); a single tensor counts as a list of one.
  std::vector<Tensor> tensors(const std::string& name) const;
  int integer(const std::string& name, int fallback) const;
  /// An int or a list of ints; null or absent → empty.
  std::vector<int> integers(const std::string& name) const;
  bool flag(const std::string& name, bool fallback) const;
  /// "Layer 'tf.math.multiply' (TFOpLambda, function 'math.multiply')": the start of error messages.
  const std::string& who() const { return who_; }

 private:
  json bound_ = json::object();
  const std::vector<Tensor>& inputs_;
  std::string who_;
  Tensor resolve(const json& v, const std::string& name) const;
};

struct OpFunction {
  /// The positional parameters, in order (tf.math.multiply: x, y; tf.concat: values, axis).
  std::vector<std::string> params;
  Tensor (*run)(const OpArguments& args);
};

/// The TFOpLambda function of that name ("math.multiply"), or nullptr.
const OpFunction* find_tf_function(const std::string& function);
/// Every supported TFOpLambda function name, sorted.
std::vector<std::string> tf_function_names();
/// The Keras 3 op class of that name ("Multiply"), or nullptr; its init arguments come as keyword arguments.
const OpFunction* find_keras_op(const std::string& class_name);
std::vector<std::string> keras_op_names();

/// A slice spec as tf.keras's SlicingOpLambda ({"start", "stop", "step"}, {"class_name": "__ellipsis__"},
/// null for a new axis, integers; a list for several) or Keras 3's GetItem ({"class_name": "__slice__"}) writes it.
std::vector<Index> slice_spec_from_json(const json& spec, const std::string& who);
/// tf.keras's form: one index alone, several as a list.
json slice_spec_to_json(const std::vector<Index>& key);

}  // namespace keras::layers
