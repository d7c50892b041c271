#pragma once
// A metric's config from its options struct: metric_config() writes the base fields (name, dtype) and
// every field KERAS_FIELDS lists; metric_from_config() reads them back. A metric whose options hold only
// its name says so with `KERAS_FIELDS(SumOptions)`:
//
//   KERAS_FIELDS(CosineSimilarityOptions, axis)
//   json CosineSimilarity::get_config() const { return metric_config(*this, options_); }
//   std::shared_ptr<Metric> CosineSimilarity::from_config(const json& c) {
//     return metric_from_config<CosineSimilarity, CosineSimilarityOptions>(c);
//   }
#include <memory>
#include <utility>

#include "keras/config/codec.hpp"
#include "metrics/metric.hpp"

namespace keras::metrics {

/// The base metric's config plus the listed fields of `options`.
template <class Options>
json metric_config(const Metric& metric, const Options& options) {
  json c = metric.Metric::get_config();
  config::write_fields(c, options);
  return c;
}

/// Options with the name and the listed fields of `config` (absent keys keep the defaults).
template <class Options>
Options metric_options(const json& config) {
  return config::read_options<Options>(config);
}

/// A new M(positional..., options) from `config`.
template <class M, class Options, class... Positional>
std::shared_ptr<Metric> metric_from_config(const json& config, Positional&&... positional) {
  return std::make_shared<M>(std::forward<Positional>(positional)..., metric_options<Options>(config));
}

}  // namespace keras::metrics
