#include "keras/saving/custom_objects.hpp"

namespace keras {

CustomObjectScope::CustomObjectScope(const CustomObjects& objects) {
  push<Layer>(objects.layers, layers_);
  push<losses::Loss>(objects.losses, losses_);
  push<metrics::Metric>(objects.metrics, metrics_);
}

CustomObjectScope::~CustomObjectScope() {
  pop<Layer>(layers_);
  pop<losses::Loss>(losses_);
  pop<metrics::Metric>(metrics_);
}

template <class Base>
void CustomObjectScope::push(const std::map<std::string, typename Registry<Base>::Factory>& objects,
                             Saved<Base>& saved) {
  auto& registry = Registry<Base>::instance();
  for (const auto& [name, factory] : objects) {
    const auto* previous = registry.find(name);
    saved.emplace_back(name, previous ? std::optional(*previous) : std::nullopt);
    registry.add(name, factory);
  }
}

template <class Base>
void CustomObjectScope::pop(Saved<Base>& saved) {
  auto& registry = Registry<Base>::instance();
  for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
    if (it->second)
      registry.add(it->first, *it->second);
    else
      registry.remove(it->first);
  }
}

}  // namespace keras
