#include "keras/initializers/initializer.hpp"

#include "keras/json.hpp"

namespace keras::initializers {

json Initializer::get_config() const { return json::object(); }

std::shared_ptr<Initializer> Initializer::get(const std::string& identifier) {
  return Registry<Initializer>::instance().get(identifier, "initializer");
}

std::shared_ptr<Initializer> Initializer::deserialize(const json& config) {
  return Registry<Initializer>::instance().deserialize(config, "initializer");
}

json serialize(const Initializer& initializer) {
  return serialize_object(initializer.class_name(), initializer.get_config());
}

std::pair<double, double> compute_fans(const Shape& shape) {
  if (shape.empty()) return {1, 1};
  if (shape.size() == 1) return {double(shape[0]), double(shape[0])};
  if (shape.size() == 2) return {double(shape[0]), double(shape[1])};
  double receptive = 1;
  for (std::size_t i = 0; i + 2 < shape.size(); ++i) receptive *= double(shape[i]);
  return {double(shape[shape.size() - 2]) * receptive, double(shape.back()) * receptive};
}

}  // namespace keras::initializers
