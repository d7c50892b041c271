#include "layers/core/keras_tensor_ops.hpp"

#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"
#include "layers/core/slicing_op_lambda.hpp"

namespace keras {
namespace {

using layers::input_placeholder;
using NodeForm = layers::OpLayer::NodeForm;

// One TFOpLambda call: `first` is the op's first argument, `kwargs` the others (tensors as placeholders).
KerasTensor record(std::shared_ptr<layers::TFOpLambda> layer, json first, json kwargs, const std::vector<KerasTensor>& inputs) {
  layer->set_call_arguments(json::array({std::move(first)}), std::move(kwargs), NodeForm::keras2);
  return layer->call_all(inputs).at(0);
}

// The TFOpLambda tf.keras 2.x records for `a op b`, which also knows Keras 3's keras.ops node (op_class).
std::shared_ptr<layers::TFOpLambda> op_layer(const std::string& function, const std::string& op_class, json keras3_args) {
  auto layer = std::make_shared<layers::TFOpLambda>(function);
  layer->set_keras3_call(op_class, std::move(keras3_args));
  return layer;
}

KerasTensor binary(const std::string& function, const std::string& op_class, const KerasTensor& a, const KerasTensor& b) {
  return record(op_layer(function, op_class, {input_placeholder(0), input_placeholder(1)}), input_placeholder(0),
                {{"y", input_placeholder(1)}, {"name", nullptr}}, {a, b});
}
KerasTensor binary(const std::string& function, const std::string& op_class, const KerasTensor& a, float b) {
  return record(op_layer(function, op_class, {input_placeholder(0), b}), input_placeholder(0),
                {{"y", b}, {"name", nullptr}}, {a});
}
// A constant first operand: tf.keras writes ["_CONSTANT_VALUE", -1, 2.0, {"y": [tensor], "name": null}].
KerasTensor binary(const std::string& function, const std::string& op_class, float a, const KerasTensor& b) {
  return record(op_layer(function, op_class, {a, input_placeholder(0)}), json{{"__constant__", a}},
                {{"y", input_placeholder(0)}, {"name", nullptr}}, {b});
}

// Keras 3 writes a getitem key with slices as {"class_name": "__slice__", "config": {start, stop, step}}.
json keras3_key(const json& spec) {
  if (spec.is_array()) {
    json out = json::array();
    for (const auto& e : spec) out.push_back(keras3_key(e));
    return out;
  }
  if (spec.is_object() && spec.value("class_name", "") == "__ellipsis__")
    return {{"class_name", "__ellipsis__"}, {"config", json::object()}};
  if (spec.is_object()) return {{"class_name", "__slice__"}, {"config", spec}};
  return spec;
}

}  // namespace

KerasTensor operator+(const KerasTensor& a, const KerasTensor& b) { return binary("__operators__.add", "Add", a, b); }
KerasTensor operator-(const KerasTensor& a, const KerasTensor& b) { return binary("math.subtract", "Subtract", a, b); }
KerasTensor operator*(const KerasTensor& a, const KerasTensor& b) { return binary("math.multiply", "Multiply", a, b); }
KerasTensor operator/(const KerasTensor& a, const KerasTensor& b) { return binary("math.truediv", "TrueDivide", a, b); }
KerasTensor operator+(const KerasTensor& a, float b) { return binary("__operators__.add", "Add", a, b); }
KerasTensor operator-(const KerasTensor& a, float b) { return binary("math.subtract", "Subtract", a, b); }
KerasTensor operator*(const KerasTensor& a, float b) { return binary("math.multiply", "Multiply", a, b); }
KerasTensor operator/(const KerasTensor& a, float b) { return binary("math.truediv", "TrueDivide", a, b); }
KerasTensor operator+(float a, const KerasTensor& b) { return binary("__operators__.add", "Add", a, b); }
KerasTensor operator-(float a, const KerasTensor& b) { return binary("math.subtract", "Subtract", a, b); }
KerasTensor operator*(float a, const KerasTensor& b) { return binary("math.multiply", "Multiply", a, b); }
KerasTensor operator/(float a, const KerasTensor& b) { return binary("math.truediv", "TrueDivide", a, b); }

KerasTensor operator-(const KerasTensor& a) {
  return record(op_layer("math.negative", "Negative", {input_placeholder(0)}), input_placeholder(0), {{"name", nullptr}}, {a});
}

KerasTensor getitem(const KerasTensor& x, const std::vector<Index>& key) {
  if (key.empty()) throw ValueError("getitem: the key is empty (x[()] is x itself)");
  const json spec = layers::slice_spec_to_json(key);
  auto layer = std::make_shared<layers::SlicingOpLambda>();
  layer->set_keras3_call("GetItem", {input_placeholder(0), keras3_key(spec)});
  return record(layer, input_placeholder(0), {{"slice_spec", spec}}, {x});
}

}  // namespace keras
