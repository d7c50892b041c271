#pragma once
// custom_objects for load_model / model_from_json: classes and functions the registries do not know,
// given by name for one load (Keras's `custom_objects={...}` and `custom_object_scope`).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras {

class Layer;
namespace losses { class Loss; }
namespace metrics { class Metric; }
namespace optimizers { class Optimizer; }
namespace initializers { class Initializer; }
namespace regularizers { class Regularizer; }
namespace constraints { class Constraint; }

/// Factories by class name, per family; functions by name for activations and Lambda layers.
/// `custom_object<MyLayer>()` makes a factory from a class with a static from_config(const json&).
struct CustomObjects {
  std::map<std::string, Registry<Layer>::Factory> layers{};
  std::map<std::string, Registry<losses::Loss>::Factory> losses{};
  std::map<std::string, Registry<metrics::Metric>::Factory> metrics{};
  std::map<std::string, Registry<optimizers::Optimizer>::Factory> optimizers{};
  std::map<std::string, Registry<initializers::Initializer>::Factory> initializers{};
  std::map<std::string, Registry<regularizers::Regularizer>::Factory> regularizers{};
  std::map<std::string, Registry<constraints::Constraint>::Factory> constraints{};
  std::map<std::string, std::function<Tensor(const Tensor&)>> activations{};
  /// The functions of Lambda layers, by the name their config holds.
  std::map<std::string, std::function<Tensor(const Tensor&)>> lambdas{};
  bool empty() const;
};

template <class T>
auto custom_object() {
  return [](const json& config) { return T::from_config(config); };
}

/// Makes the custom objects visible to look-ups on this thread while it lives, ahead of the registered
/// names (Keras's custom_object_scope). Nothing global changes: other threads do not see them, and an
/// exception during the load leaves no trace. Create and destroy it on the same thread.
class CustomObjectScope {
 public:
  explicit CustomObjectScope(const CustomObjects& objects);
  ~CustomObjectScope();
  CustomObjectScope(const CustomObjectScope&) = delete;
  CustomObjectScope& operator=(const CustomObjectScope&) = delete;

 private:
  /// One family's scope and how to withdraw it.
  struct Pushed {
    registry_detail::Scope factories;
    std::function<void(const registry_detail::Scope*)> pop;
  };
  template <class Base, class Map, class Convert>
  void push(const Map& objects, Convert convert);

  std::vector<std::unique_ptr<Pushed>> pushed_;
};

}  // namespace keras
