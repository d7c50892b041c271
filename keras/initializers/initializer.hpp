#pragma once
// Initializer base: a callable that makes a tensor of a given shape (keras.initializers).
#include <memory>
#include <string>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::initializers {

class Initializer {
 public:
  virtual ~Initializer() = default;
  virtual Tensor operator()(const Shape& shape) const = 0;
  /// Keras's class_name ("GlorotUniform").
  virtual std::string class_name() const = 0;
  virtual json get_config() const;

  /// By name ("glorot_uniform", "GlorotUniform") or from {"class_name", "config"}.
  static std::shared_ptr<Initializer> get(const std::string& identifier);
  static std::shared_ptr<Initializer> deserialize(const json& config);
};

using InitializerRef = Ref<Initializer>;

json serialize(const Initializer& initializer);

/// Keras's fan computation: (fan_in, fan_out) for a weight shape.
std::pair<double, double> compute_fans(const Shape& shape);

}  // namespace keras::initializers
