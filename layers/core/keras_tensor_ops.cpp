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

KerasTensor binary(const std::string& function, const KerasTensor& a, const KerasTensor& b) {
  return record(std::make_shared<layers::TFOpLambda>(function), input_placeholder(0),
                {{"y", input_placeholder(1)}, {"name", nullptr}}, {a, b});
}
KerasTensor binary(const std::string& function, const KerasTensor& a, float b) {
  return record(std::make_shared<layers::TFOpLambda>(function), input_placeholder(0), {{"y", b}, {"name", nullptr}}, {a});
}
// A constant first operand: tf.keras writes ["_CONSTANT_VALUE", -1, 2.0, {"y": [tensor], "name": null}].
KerasTensor binary(const std::string& function, float a, const KerasTensor& b) {
  return record(std::make_shared<layers::TFOpLambda>(function), json{{"__constant__", a}},
                {{"y", input_placeholder(0)}, {"name", nullptr}}, {b});
}

}  // namespace

KerasTensor operator+(const KerasTensor& a, const KerasTensor& b) { return binary("__operators__.add", a, b); }
KerasTensor operator-(const KerasTensor& a, const KerasTensor& b) { return binary("math.subtract", a, b); }
KerasTensor operator*(const KerasTensor& a, const KerasTensor& b) { return binary("math.multiply", a, b); }
KerasTensor operator/(const KerasTensor& a, const KerasTensor& b) { return binary("math.truediv", a, b); }
KerasTensor operator+(const KerasTensor& a, float b) { return binary("__operators__.add", a, b); }
KerasTensor operator-(const KerasTensor& a, float b) { return binary("math.subtract", a, b); }
KerasTensor operator*(const KerasTensor& a, float b) { return binary("math.multiply", a, b); }
KerasTensor operator/(const KerasTensor& a, float b) { return binary("math.truediv", a, b); }
KerasTensor operator+(float a, const KerasTensor& b) { return binary("__operators__.add", a, b); }
KerasTensor operator-(float a, const KerasTensor& b) { return binary("math.subtract", a, b); }
KerasTensor operator*(float a, const KerasTensor& b) { return binary("math.multiply", a, b); }
KerasTensor operator/(float a, const KerasTensor& b) { return binary("math.truediv", a, b); }

KerasTensor operator-(const KerasTensor& a) {
  return record(std::make_shared<layers::TFOpLambda>("math.negative"), input_placeholder(0), {{"name", nullptr}}, {a});
}

KerasTensor getitem(const KerasTensor& x, const std::vector<Index>& key) {
  if (key.empty()) throw ValueError("getitem: the key is empty (x[()] is x itself)");
  return record(std::make_shared<layers::SlicingOpLambda>(), input_placeholder(0),
                {{"slice_spec", layers::slice_spec_to_json(key)}}, {x});
}

}  // namespace keras
