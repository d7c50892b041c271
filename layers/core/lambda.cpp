#include "layers/core/lambda.hpp"

#include <atomic>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {
namespace {

Registry<LambdaFunction>& registry() { return Registry<LambdaFunction>::instance(); }

std::string anonymous_name() {
  static std::atomic<int> counter{0};
  return fmt::format("<lambda_{}>", counter++);
}

}  // namespace

// The base fields only: output_shape is written and read by hand, as Keras writes an unknown dimension as null.
KERAS_FIELDS(LambdaOptions)

bool register_lambda_function(const std::string& name, LambdaFunction fn) {
  if (name.empty() || !fn) throw ValueError("register_lambda_function needs a name and a callable");
  registry().add(name, [fn = std::move(fn)](const json&) { return std::make_shared<LambdaFunction>(fn); });
  return true;
}

LambdaFunction lambda_function(const std::string& name) {
  if (registry().contains(name)) return *registry().get(name, "Lambda function");
  std::string known;
  for (const auto& n : registry().names())
    if (n.front() != '<') known += (known.empty() ? "" : ", ") + n;
  throw ValueError(fmt::format("Lambda layer: unknown function '{}'. A Lambda layer can only be loaded when its "
                               "function is registered by name first: "
                               "keras::layers::register_lambda_function(\"{}\", fn), or given as custom_objects "
                               "(.lambdas). Registered functions: {}",
                               name, name, known.empty() ? "(none)" : known));
}

Lambda::Lambda(LambdaFunction function, LambdaOptions options)
    : Layer(options, "lambda"), function_(std::move(function)), options_(std::move(options)) {
  if (!function_) throw ValueError("Lambda: the function is empty");
  function_name_ = anonymous_name();
  register_lambda_function(function_name_, function_);
}

Lambda::Lambda(const std::string& function_name, LambdaOptions options)
    : Layer(options, "lambda"),
      function_name_(function_name),
      function_(lambda_function(function_name)),
      options_(std::move(options)) {}

Tensor Lambda::call(const Tensor& inputs, bool) { return function_(inputs); }

Shape Lambda::compute_output_shape(const Shape& input_shape) const {
  if (options_.output_shape) {
    Shape out{input_shape.empty() ? -1 : input_shape[0]};
    out.insert(out.end(), options_.output_shape->begin(), options_.output_shape->end());
    return out;
  }
  // As Keras: run the function on a placeholder (zeros, unknown dimensions as 1) and read the shape.
  Shape probe = input_shape;
  for (auto& d : probe)
    if (d < 0) d = 1;
  autodiff::NoGradScope no_grad;
  Shape out;
  try {
    out = function_(Tensor::zeros(probe)).shape();
  } catch (const std::exception& e) {
    throw ValueError(fmt::format("Lambda \"{}\" could not infer its output shape for input shape {} ({}). Give "
                                 "{{.output_shape = ...}}.",
                                 name(), shape_str(input_shape), e.what()));
  }
  if (!out.empty() && !input_shape.empty() && input_shape[0] < 0) out[0] = -1;
  return out;
}

json Lambda::get_config() const {
  json c = Layer::get_config();
  c["function"] = function_name_;
  c["function_type"] = "function";
  c["module"] = "kerascpp";
  if (options_.output_shape) c["output_shape"] = *options_.output_shape;
  else c["output_shape"] = nullptr;
  c["output_shape_type"] = "raw";
  c["output_shape_module"] = nullptr;
  c["arguments"] = json::object();
  if (python_function_) {  // the Python lambda as the file held it
    c.erase("function_type");
    c.erase("module");
    c.update(*python_function_);
  }
  return c;
}

namespace {

// A Python lambda: Keras 2's ["<base64 bytecode>", defaults, closure] with function_type "lambda", Keras 3's
// {"class_name": "__lambda__", "config": {"code": ...}}.
bool holds_bytecode(const json& c) {
  const json& f = c.contains("function") ? c["function"] : json();
  return c.value("function_type", json("function")) == "lambda" || f.is_array() ||
         (f.is_object() && f.value("class_name", "") == "__lambda__");
}

// A named function: Keras 2's "my_fn"; Keras 3's {"class_name": "function", "config": "my_fn", ...}.
std::string function_name_of(const json& c) {
  const json& f = c.contains("function") ? c["function"] : json();
  if (f.is_string()) return f.get<std::string>();
  if (f.is_object() && f.contains("config") && f["config"].is_string()) return f["config"].get<std::string>();
  return "";
}

}  // namespace

std::shared_ptr<Layer> Lambda::from_config(const json& c) {
  const std::string layer_name = c.value("name", std::string());
  std::string fn = function_name_of(c);
  const bool bytecode = holds_bytecode(c);
  if (bytecode) {
    fn = layer_name;  // a Python lambda runs as the C++ function registered under the layer's name
    if (fn.empty() || !registry().contains(fn))
      throw ValueError(fmt::format(
          "Lambda layer '{0}' holds a Python lambda (bytecode), which cannot run in C++. Give an equivalent C++ "
          "function (keras::Tensor -> keras::Tensor, built from keras::ops) under the layer's name before loading: "
          "keras::layers::register_lambda_function(\"{0}\", fn), or load_model's custom_objects with "
          ".lambdas = {{{{\"{0}\", fn}}}}. The bytecode is kept and written back on save.",
          layer_name));
  }
  if (fn.empty())
    throw ValueError("Lambda layer '" + layer_name + "' config has no function name. Register an equivalent C++ "
                     "function with keras::layers::register_lambda_function and name it in the config's "
                     "\"function\" field, or give it in load_model's custom_objects (.lambdas).");
  auto o = options_from_config<LambdaOptions>(c);
  if (c.contains("output_shape") && c["output_shape"].is_array()) {
    Shape s;
    for (const auto& d : c["output_shape"]) s.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
    o.output_shape = s;
  }
  auto layer = std::make_shared<Lambda>(fn, o);
  if (bytecode) {
    json python = {{"function", c["function"]}};
    for (const char* key : {"function_type", "module"})
      if (c.contains(key)) python[key] = c[key];
    layer->python_function_ = std::make_shared<const json>(std::move(python));
  }
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Lambda)

}  // namespace keras::layers
