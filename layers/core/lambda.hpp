#pragma once
// Lambda: wraps a C++ callable Tensor → Tensor (built from keras::ops, so it differentiates). A callable
// registered by name (register_lambda_function) serializes as that name and loads back anywhere it is
// registered; an unnamed one gets a name that only the current process knows.
#include <functional>
#include <optional>

#include "keras/layer.hpp"

namespace keras::layers {

using LambdaFunction = std::function<Tensor(const Tensor&)>;

/// Makes `fn` known as `name` to Lambda layers and their configs (call once, e.g. at static init).
bool register_lambda_function(const std::string& name, LambdaFunction fn);
/// The registered function, or a ValueError naming the registered ones.
LambdaFunction lambda_function(const std::string& name);

struct LambdaOptions {
  std::optional<Shape> output_shape{};  // batch dimension excluded; inferred by running the function when unset
  KERAS_LAYER_OPTIONS
};

class Lambda : public Layer {
 public:
  /// An unnamed callable (usable in this process; not loadable from a saved file).
  explicit Lambda(LambdaFunction function, LambdaOptions options = {});
  /// A function registered with register_lambda_function. A file's Lambda holding a Python lambda (bytecode) loads
/// when a C++ function is registered (or given in custom_objects.lambdas) under the layer's name; the bytecode is
/// kept and written back on save.
  explicit Lambda(const std::string& function_name, LambdaOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  const std::string& function_name() const { return function_name_; }

 private:
  std::string function_name_;
  LambdaFunction function_;
  std::shared_ptr<const json> python_function_;  // a Python lambda's serialized bytecode, written back on save (run: function_name_)
  LambdaOptions options_;

  KERAS_LAYER(Lambda)
};

}  // namespace keras::layers
