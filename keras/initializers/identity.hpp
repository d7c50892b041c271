#pragma once
// Identity initializer (keras.initializers.Identity).
#include "keras/initializers/initializer.hpp"

namespace keras::initializers {

struct IdentityOptions {
  double gain = 1.0;
};

/// gain * the identity matrix ("identity"); 2-D shapes only, rectangular allowed (ones on the diagonal).
class Identity : public Initializer {
 public:
  explicit Identity(IdentityOptions options = {}) : options_(options) {}
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "Identity"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  IdentityOptions options_;
};

}  // namespace keras::initializers
