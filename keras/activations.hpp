#pragma once
// Activation functions by Keras name ("relu", "softmax", ...), built from keras::ops.
#include <concepts>
#include <optional>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "keras/json_fwd.hpp"

#include "keras/kernels/eltwise.hpp"
#include "keras/tensor.hpp"

namespace keras::activations {

Tensor linear(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor relu6(const Tensor& x);
Tensor leaky_relu(const Tensor& x, float negative_slope = 0.2f);
Tensor elu(const Tensor& x, float alpha = 1.f);
Tensor selu(const Tensor& x);
Tensor gelu(const Tensor& x, bool approximate = false);
Tensor sigmoid(const Tensor& x);
Tensor hard_sigmoid(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor softmax(const Tensor& x, int axis = -1);
Tensor softplus(const Tensor& x);
Tensor softsign(const Tensor& x);
Tensor swish(const Tensor& x);
Tensor exponential(const Tensor& x);

/// A named activation; `fusable` is set when a matrix product can apply it as a oneDNN post-op.
struct Activation {
  std::string name = "linear";
  std::function<Tensor(const Tensor&)> fn;
  kernels::Eltwise fused = kernels::Eltwise::linear;
  bool fusable = false;
  Tensor operator()(const Tensor& x) const { return fn(x); }
};

/// The activation called `name` ("silu" is "swish"; "" and "None" are "linear"), built-in, registered or
/// given as custom_objects; unknown names list the valid ones.
Activation get(const std::string& name);
/// Makes `fn` known as the activation `name` (call once, e.g. at static initialization): layers take it as
/// `.activation = "name"` and their configs write and read it by that name.
bool register_activation(const std::string& name, std::function<Tensor(const Tensor&)> fn);
std::vector<std::string> names();

/// What every `activation` option holds, as Keras's `activation=` takes a name or a function: a name
/// (`.activation = "relu"`, built-in or registered), a C++ callable
/// (`.activation = [](const Tensor& x) { return x * ops::sigmoid(x); }`), or an `Activation`. A callable's
/// config names it "<lambda>", as tf.keras writes a function it cannot name, and a model holding one cannot be
/// saved (check_savable says which layer). A built-in function (`activations::relu`) or a plain function
/// registered with register_activation stands for its name, so `.activation = my_fn` saves and loads once
/// `my_fn` is registered.
class ActivationRef {
 public:
  ActivationRef(const char* name) : name_(name) {}
  ActivationRef(std::string name) : name_(std::move(name)) {}
  ActivationRef(Activation activation) : name_(activation.name), activation_(std::move(activation)) {}
  template <class F>
    requires(std::is_invocable_r_v<Tensor, const F&, const Tensor&> && !std::is_convertible_v<F, std::string> &&
             !std::is_same_v<std::remove_cvref_t<F>, Activation>)
  ActivationRef(F fn) : name_(kLambda) {
    if constexpr (std::is_convertible_v<F, Tensor (*)(const Tensor&)>) {
      name_ = registered_name(fn);  // a built-in (activations::relu) or registered function: its name
      if (name_ != kLambda) return;
    }
    activation_ = Activation{name_, std::function<Tensor(const Tensor&)>(std::move(fn))};
  }

  /// The name a config writes ("<lambda>" for a callable that was not registered).
  const std::string& name() const { return name_; }
  /// True when the option holds a callable (or an Activation) rather than a name.
  bool holds_callable() const { return activation_.has_value(); }
  /// A name compares equal to its string; a callable to none.
  bool operator==(const std::string& name) const { return !activation_ && name_ == name; }
  bool operator==(const char* name) const { return *this == std::string(name); }

  /// What a config writes for a callable that has no registered name.
  static constexpr const char* kLambda = "<lambda>";

 private:
  friend Activation resolve(const ActivationRef& ref);
  static std::string registered_name(Tensor (*fn)(const Tensor&));
  std::string name_;
  std::optional<Activation> activation_;  // set for a callable or an Activation given as such
};

/// The activation an option names or holds (get(name) for a name).
Activation resolve(const ActivationRef& ref);
/// Config encoding (keras/config/codec.hpp finds these by argument-dependent lookup): the name; null
/// keeps the option's default.
json encode(const ActivationRef& ref);
void decode(const json& j, ActivationRef& ref);

/// Throws a ValueError naming the first layer of a model config (any nesting: wrappers, nested models) whose
/// "activation" or "recurrent_activation" is "<lambda>", a C++ callable that no file can hold; the message
/// gives the fix (register_activation). Saving (save, to_json, .keras, TF.js) calls it before writing.
void check_savable(const json& model_config);

}  // namespace keras::activations
