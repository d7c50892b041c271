#pragma once
// custom_objects for load_model / model_from_json: classes the registry does not know, given by
// name for one load (Keras's `custom_objects={...}` and `custom_object_scope`).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "keras/layer.hpp"
#include "keras/registry.hpp"
#include "losses/loss.hpp"
#include "metrics/metric.hpp"

namespace keras {

/// Factories by class name, per family. `custom_object<MyLayer>()` makes one from a class with a
/// static from_config(const json&).
struct CustomObjects {
  std::map<std::string, Registry<Layer>::Factory> layers{};
  std::map<std::string, Registry<losses::Loss>::Factory> losses{};
  std::map<std::string, Registry<metrics::Metric>::Factory> metrics{};
  bool empty() const { return layers.empty() && losses.empty() && metrics.empty(); }
};

template <class T>
auto custom_object() {
  return [](const json& config) { return T::from_config(config); };
}

/// Registers the custom objects while it lives, then restores what was registered before.
class CustomObjectScope {
 public:
  explicit CustomObjectScope(const CustomObjects& objects);
  ~CustomObjectScope();
  CustomObjectScope(const CustomObjectScope&) = delete;
  CustomObjectScope& operator=(const CustomObjectScope&) = delete;

 private:
  template <class Base>
  using Saved = std::vector<std::pair<std::string, std::optional<typename Registry<Base>::Factory>>>;

  template <class Base>
  static void push(const std::map<std::string, typename Registry<Base>::Factory>& objects, Saved<Base>& saved);
  template <class Base>
  static void pop(Saved<Base>& saved);

  Saved<Layer> layers_;
  Saved<losses::Loss> losses_;
  Saved<metrics::Metric> metrics_;
};

}  // namespace keras
