#include "keras/saving/custom_objects.hpp"

#include "keras/activations.hpp"
#include "keras/layer.hpp"
#include "layers/core/lambda.hpp"
#include "losses/loss.hpp"
#include "metrics/metric.hpp"
#include "optimizers/optimizer.hpp"

namespace keras {

bool CustomObjects::empty() const {
  return layers.empty() && losses.empty() && metrics.empty() && optimizers.empty() && initializers.empty() &&
         regularizers.empty() && constraints.empty() && activations.empty() && lambdas.empty();
}

namespace {
auto same_factory = [](const std::string&, const auto& factory) { return factory; };
}  // namespace

CustomObjectScope::CustomObjectScope(const CustomObjects& objects) {
  push<Layer>(objects.layers, same_factory);
  push<losses::Loss>(objects.losses, same_factory);
  push<metrics::Metric>(objects.metrics, same_factory);
  push<optimizers::Optimizer>(objects.optimizers, same_factory);
  push<initializers::Initializer>(objects.initializers, same_factory);
  push<regularizers::Regularizer>(objects.regularizers, same_factory);
  push<constraints::Constraint>(objects.constraints, same_factory);
  push<activations::Activation>(objects.activations, [](const std::string& name, const auto& fn) {
    return Registry<activations::Activation>::Factory(
        [name, fn](const json&) { return std::make_shared<activations::Activation>(activations::Activation{name, fn}); });
  });
  push<layers::LambdaFunction>(objects.lambdas, [](const std::string&, const auto& fn) {
    return Registry<layers::LambdaFunction>::Factory(
        [fn](const json&) { return std::make_shared<layers::LambdaFunction>(fn); });
  });
}

CustomObjectScope::~CustomObjectScope() {
  for (auto it = pushed_.rbegin(); it != pushed_.rend(); ++it) (*it)->pop(&(*it)->factories);
}

template <class Base, class Map, class Convert>
void CustomObjectScope::push(const Map& objects, Convert convert) {
  if (objects.empty()) return;
  auto pushed = std::make_unique<Pushed>();
  for (const auto& [name, object] : objects)
    pushed->factories[name] = Registry<Base>::erase(typename Registry<Base>::Factory(convert(name, object)));
  auto& registry = Registry<Base>::instance();
  registry.push_scope(&pushed->factories);
  pushed->pop = [&registry](const registry_detail::Scope* scope) { registry.pop_scope(scope); };
  pushed_.push_back(std::move(pushed));
}

}  // namespace keras
