#include "keras/initializers/identity.hpp"

#include <algorithm>

#include "keras/config/codec.hpp"
#include "keras/json.hpp"

namespace keras::initializers {
namespace {

const bool registered = register_class<Initializer, Identity>("Identity", {"identity", "IdentityInitializer"});

}  // namespace

Tensor Identity::operator()(const Shape& shape) const {
  if (shape.size() != 2)
    throw ValueError("Identity initializer can only be used for 2-D matrices, got shape " + shape_str(shape) +
                     ". Use it for a square or rectangular kernel, e.g. Dense's [input_dim, units].");
  Tensor out = Tensor::zeros(shape);
  float* p = out.data<float>();
  const std::int64_t diag = std::min(shape[0], shape[1]);
  for (std::int64_t i = 0; i < diag; ++i) p[i * shape[1] + i] = static_cast<float>(options_.gain);
  return out;
}

json Identity::get_config() const { return {{"gain", options_.gain}}; }

std::shared_ptr<Initializer> Identity::from_config(const json& c) {
  if (c.contains("gain") && !c["gain"].is_number())
    throw ValueError("Identity config: 'gain' must be a number, got " + c["gain"].dump());
  return std::make_shared<Identity>(IdentityOptions{.gain = config::value_or(c, "gain", 1.0)});
}

}  // namespace keras::initializers
