#include "layers/preprocessing/numeric/discretization.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "data/dataset.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/numeric/adapt_batches.hpp"
#include "layers/preprocessing/numeric/quantile_summary.hpp"

namespace keras::layers {

KERAS_FIELDS(DiscretizationOptions, bin_boundaries, num_bins, epsilon, output_mode, sparse)

Discretization::Discretization(DiscretizationOptions options)
    : Layer(options, "discretization"), options_(std::move(options)) {
  check_output_mode(options_.output_mode, true, "Discretization");
  if (options_.bin_boundaries && options_.num_bins)
    throw ValueError("Discretization: give `bin_boundaries` or `num_bins`, not both");
  if (options_.num_bins && *options_.num_bins < 0)
    throw ValueError(fmt::format("Discretization: `num_bins` must be greater than or equal to 0, got {}", *options_.num_bins));
  if (!(options_.epsilon > 0 && options_.epsilon < 1))
    throw ValueError(fmt::format("Discretization: `epsilon` must be in (0, 1), got {}", options_.epsilon));
  if (options_.sparse) throw ValueError("Discretization: sparse outputs are not supported by kerascpp; use sparse=false");
  if (options_.bin_boundaries && !std::is_sorted(options_.bin_boundaries->begin(), options_.bin_boundaries->end()))
    throw ValueError("Discretization: `bin_boundaries` must be sorted in increasing order");
}

Tensor Discretization::call(const Tensor& inputs, bool /*training*/) {
  if (!options_.bin_boundaries)
    throw ValueError(fmt::format("Discretization '{}': no `bin_boundaries`: pass them at construction, or give `num_bins` "
                                 "and call adapt(data) before using the layer",
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
  // An adapted layer's config has num_bins and the learned bin_boundaries, which the constructor refuses
  // together: build it from num_bins, then set the boundaries (what Keras 3's from_config does).
  const auto given = [&](const char* k) { return c.contains(k) && !c[k].is_null(); };
  if (!given("bin_boundaries") || !given("num_bins")) return make_from_config<Discretization, DiscretizationOptions>(c);
  json without = c;
  without.erase("bin_boundaries");
  auto layer = make_from_config<Discretization, DiscretizationOptions>(without);
  auto& d = dynamic_cast<Discretization&>(*layer);
  d.options_.bin_boundaries = c["bin_boundaries"].get<std::vector<double>>();
  if (!std::is_sorted(d.options_.bin_boundaries->begin(), d.options_.bin_boundaries->end()))
    throw ValueError("Discretization: `bin_boundaries` must be sorted in increasing order");
  return layer;
}

void Discretization::check_adaptable() const {
  if (!options_.num_bins)
    throw ValueError(fmt::format("Discretization '{}': cannot adapt a layer that was given `bin_boundaries`; give "
                                 "`num_bins` instead",
                                 name()));
  if (*options_.num_bins < 1)
    throw ValueError(fmt::format("Discretization '{}': adapt() needs num_bins >= 1, got {}", name(), *options_.num_bins));
}

namespace {

std::vector<float> float_values(const Tensor& batch, const std::string& layer) {
  if (!batch.defined()) throw ValueError(layer + ": adapt() received an undefined tensor");
  return batch.astype(DType::float32).to_vector<float>();
}

}  // namespace

void Discretization::adapt(const Tensor& data) {
  check_adaptable();
  const std::string layer = fmt::format("Discretization '{}'", name());
  const auto summary = preprocessing::merge_summaries(preprocessing::summarize(float_values(data, layer), options_.epsilon), {},
                                                      options_.epsilon);
  if (summary.values.empty()) throw ValueError(layer + ": adapt() received no data");
  options_.bin_boundaries = preprocessing::bin_boundaries(summary, *options_.num_bins);
}

void Discretization::adapt(const data::Dataset& dataset) {
  check_adaptable();
  const std::string layer = fmt::format("Discretization '{}'", name());
  preprocessing::QuantileSummary summary;
  preprocessing::for_each_adapt_batch(dataset, layer, [&](const Tensor& batch) {
    summary = preprocessing::merge_summaries(preprocessing::summarize(float_values(batch, layer), options_.epsilon), summary,
                                             options_.epsilon);
  });
  if (summary.values.empty()) throw ValueError(layer + ": adapt() received no data");
  options_.bin_boundaries = preprocessing::bin_boundaries(summary, *options_.num_bins);
}

KERAS_REGISTER_LAYER(Discretization)

}  // namespace keras::layers
