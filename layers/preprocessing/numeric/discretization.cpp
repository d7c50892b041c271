#include "layers/preprocessing/numeric/discretization.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"

namespace keras::layers {

KERAS_FIELDS(DiscretizationOptions, bin_boundaries, num_bins, epsilon, output_mode, sparse)

Discretization::Discretization(DiscretizationOptions options)
    : Layer(options, "discretization"), options_(std::move(options)) {
  check_output_mode(options_.output_mode, true, "Discretization");
  if (options_.bin_boundaries && options_.num_bins)
    throw ValueError("Discretization: give `bin_boundaries` or `num_bins`, not both");
  if (options_.sparse) throw ValueError("Discretization: sparse outputs are not supported by kerascpp; use sparse=false");
  if (options_.bin_boundaries && !std::is_sorted(options_.bin_boundaries->begin(), options_.bin_boundaries->end()))
    throw ValueError("Discretization: `bin_boundaries` must be sorted in increasing order");
}

Tensor Discretization::call(const Tensor& inputs, bool /*training*/) {
  if (!options_.bin_boundaries)
    throw ValueError(fmt::format("Discretization '{}': no `bin_boundaries`; kerascpp does not adapt num_bins yet, so give "
                                 "the boundaries",
                                 name()));
  const auto& b = *options_.bin_boundaries;
  const Tensor x = inputs.astype(DType::float32);
  Tensor ids = Tensor::empty(x.shape(), DType::int64);
  const float* p = x.data<float>();
  auto* o = ids.data<std::int64_t>();
  for (std::int64_t i = 0; i < x.size(); ++i)
    o[i] = std::upper_bound(b.begin(), b.end(), static_cast<double>(p[i])) - b.begin();
  if (options_.output_mode == "int") return ids;
  return encode_categories(ids, static_cast<std::int64_t>(b.size()) + 1, options_.output_mode,
                           fmt::format("Discretization '{}'", name()));
}

Shape Discretization::compute_output_shape(const Shape& s) const {
  const auto depth = options_.bin_boundaries ? static_cast<std::int64_t>(options_.bin_boundaries->size()) + 1
                                             : options_.num_bins.value_or(-1);
  return encoded_shape(s, options_.output_mode, depth);
}

json Discretization::get_config() const { return layer_config(*this, options_); }

std::shared_ptr<Layer> Discretization::from_config(const json& c) {
  return make_from_config<Discretization, DiscretizationOptions>(c);
}

KERAS_REGISTER_LAYER(Discretization)

}  // namespace keras::layers
