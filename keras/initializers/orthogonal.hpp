#pragma once
// Orthogonal initializer (keras.initializers.Orthogonal).
#include <cstdint>
#include <optional>

#include "keras/initializers/initializer.hpp"

namespace keras::initializers {

struct OrthogonalOptions {
  double gain = 1.0;
  std::optional<std::uint64_t> seed = std::nullopt;
};

/// gain * an orthogonal matrix ("orthogonal"): the Q factor of a QR decomposition of a standard
/// normal matrix, with R's diagonal made positive. Shapes with more than 2 dimensions are treated
/// as [prod(shape[:-1]), shape[-1]]; for wide matrices the rows are orthonormal, else the columns.
class Orthogonal : public Initializer {
 public:
  explicit Orthogonal(OrthogonalOptions options = {});
  Tensor operator()(const Shape& shape) const override;
  std::string class_name() const override { return "Orthogonal"; }
  json get_config() const override;
  static std::shared_ptr<Initializer> from_config(const json& config);

 private:
  OrthogonalOptions options_;
};

}  // namespace keras::initializers
