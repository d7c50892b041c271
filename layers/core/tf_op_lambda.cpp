#include "layers/core/tf_op_lambda.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/core/op_functions.hpp"

namespace keras::layers {

KERAS_FIELDS(TFOpLambdaOptions)

TFOpLambda::TFOpLambda(const std::string& function, TFOpLambdaOptions options)
    : OpLayer(options.name, "tf." + function, options.trainable), function_(function) {
  if (!find_tf_function(function_))
    throw ValueError(fmt::format(
        "Layer '{}' (TFOpLambda) calls the TensorFlow function tf.{} (\"function\": \"{}\"), which kerascpp cannot "
        "run. Supported functions: {}. Replace the op in the Python model with a Keras layer, or load the file with a "
        "C++ layer of your own for class \"TFOpLambda\" in custom_objects.",
        name(), function_, function_, fmt::join(tf_function_names(), ", ")));
}

json TFOpLambda::get_config() const {
  json c = Layer::get_config();
  c["function"] = function_;
  return c;
}

std::shared_ptr<Layer> TFOpLambda::from_config(const json& c) {
  if (!c.contains("function") || !c["function"].is_string())
    throw ValueError("TFOpLambda layer '" + c.value("name", std::string()) +
                     "' has no \"function\" string in its config (such as \"math.multiply\")");
  return make_from_config<TFOpLambda, TFOpLambdaOptions>(c, c["function"].get<std::string>());
}

Tensor TFOpLambda::evaluate(const std::vector<Tensor>& inputs) const {
  const OpFunction* f = find_tf_function(function_);
  return f->run(OpArguments(f->params, call_args(), call_kwargs(), inputs, who()));
}

std::string TFOpLambda::who() const {
  return fmt::format("Layer '{}' ({}, function '{}')", name(), class_name(), function_);
}

KERAS_REGISTER_LAYER(TFOpLambda)

}  // namespace keras::layers
