#include "layers/reshaping/permute.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"

namespace keras::layers {

KERAS_FIELDS(PermuteOptions)  // the base fields only; dims is positional

Permute::Permute(std::vector<int> dims, PermuteOptions options)
    : Layer(options, "permute"), dims_(std::move(dims)) {
  std::vector<int> sorted = dims_;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int>(i) + 1)
      throw ValueError(fmt::format("Invalid permutation argument `dims` for Permute Layer. The set of indices in `dims` "
                                   "must be consecutive and start from 1. Received dims=[{}]",
                                   fmt::join(dims_, ", ")));
}

Shape Permute::compute_output_shape(const Shape& s) const {
  if (s.size() != dims_.size() + 1)
    throw ValueError(fmt::format("Permute \"{}\" with dims [{}] expects inputs of rank {}, got shape {}", name(),
                                 fmt::join(dims_, ", "), dims_.size() + 1, shape_str(s)));
  Shape out{s[0]};
  for (int d : dims_) out.push_back(s[d]);
  return out;
}

Tensor Permute::call(const Tensor& x, bool) {
  compute_output_shape(x.shape());
  std::vector<int> perm{0};
  perm.insert(perm.end(), dims_.begin(), dims_.end());
  return ops::transpose(x, perm);
}

json Permute::get_config() const {
  json c = Layer::get_config();
  c["dims"] = dims_;
  return c;
}

std::shared_ptr<Layer> Permute::from_config(const json& c) {
  return make_from_config<Permute, PermuteOptions>(c, config::required<std::vector<int>>(c, "dims"));
}

KERAS_REGISTER_LAYER(Permute)

}  // namespace keras::layers
