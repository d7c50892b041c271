#include "metrics/probabilistic_metrics.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "losses/binary_crossentropy.hpp"
#include "losses/categorical_crossentropy.hpp"
#include "losses/kl_divergence.hpp"
#include "losses/poisson.hpp"
#include "losses/sparse_categorical_crossentropy.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

BinaryCrossentropy::BinaryCrossentropy(BinaryCrossentropyOptions options)
    : MeanMetricWrapper(
          [logits = options.from_logits, smoothing = static_cast<float>(options.label_smoothing)](
              const Tensor& t, const Tensor& p) { return losses::binary_crossentropy(t, p, logits, smoothing); },
          options.name, "BinaryCrossentropy"),
      options_(std::move(options)) {}

CategoricalCrossentropy::CategoricalCrossentropy(CategoricalCrossentropyOptions options)
    : MeanMetricWrapper(
          [logits = options.from_logits, smoothing = static_cast<float>(options.label_smoothing), axis = options.axis](
              const Tensor& t, const Tensor& p) {
            return losses::categorical_crossentropy(t, p, logits, smoothing, axis);
          },
          options.name, "CategoricalCrossentropy"),
      options_(std::move(options)) {}

SparseCategoricalCrossentropy::SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options)
    : MeanMetricWrapper([logits = options.from_logits](const Tensor& t, const Tensor& p) {
                          return losses::sparse_categorical_crossentropy(t, p, logits);
                        },
                        options.name, "SparseCategoricalCrossentropy"),
      options_(std::move(options)) {
  if (options_.axis != -1)
    throw ValueError("SparseCategoricalCrossentropy metric '" + options_.name + "': axis=" + std::to_string(options_.axis) +
                     " is not supported; put the classes on the last axis (axis=-1)");
}

KLDivergence::KLDivergence(KLDivergenceOptions options)
    : MeanMetricWrapper(losses::kl_divergence, options.name, "KLDivergence") {}

Poisson::Poisson(PoissonOptions options) : MeanMetricWrapper(losses::poisson, options.name, "Poisson") {}

KERAS_FIELDS(BinaryCrossentropyOptions, from_logits, label_smoothing)
KERAS_FIELDS(CategoricalCrossentropyOptions, from_logits, label_smoothing, axis)
KERAS_FIELDS(SparseCategoricalCrossentropyOptions, from_logits, axis)
KERAS_FIELDS(KLDivergenceOptions)
KERAS_FIELDS(PoissonOptions)

json BinaryCrossentropy::get_config() const { return metric_config(*this, options_); }
json CategoricalCrossentropy::get_config() const { return metric_config(*this, options_); }
json SparseCategoricalCrossentropy::get_config() const {
  json c = metric_config(*this, options_);
  c["ignore_class"] = nullptr;
  return c;
}

std::shared_ptr<Metric> BinaryCrossentropy::from_config(const json& c) {
  return metric_from_config<BinaryCrossentropy, BinaryCrossentropyOptions>(c);
}
std::shared_ptr<Metric> CategoricalCrossentropy::from_config(const json& c) {
  return metric_from_config<CategoricalCrossentropy, CategoricalCrossentropyOptions>(c);
}
std::shared_ptr<Metric> SparseCategoricalCrossentropy::from_config(const json& c) {
  if (c.contains("ignore_class") && !c["ignore_class"].is_null())
    throw ValueError("SparseCategoricalCrossentropy metric: ignore_class=" + c["ignore_class"].dump() +
                     " is not supported; drop the ignored samples or give them sample_weight 0 in weighted_metrics");
  return metric_from_config<SparseCategoricalCrossentropy, SparseCategoricalCrossentropyOptions>(c);
}
std::shared_ptr<Metric> KLDivergence::from_config(const json& c) {
  return metric_from_config<KLDivergence, KLDivergenceOptions>(c);
}
std::shared_ptr<Metric> Poisson::from_config(const json& c) { return metric_from_config<Poisson, PoissonOptions>(c); }

namespace {
const bool registered = [] {
  register_class<Metric, BinaryCrossentropy>("BinaryCrossentropy", {"binary_crossentropy"});
  register_class<Metric, CategoricalCrossentropy>("CategoricalCrossentropy", {"categorical_crossentropy"});
  register_class<Metric, SparseCategoricalCrossentropy>("SparseCategoricalCrossentropy",
                                                        {"sparse_categorical_crossentropy"});
  register_class<Metric, KLDivergence>("KLDivergence",
                                       {"kl_divergence", "kld", "KLD", "kullback_leibler_divergence"});
  register_class<Metric, Poisson>("Poisson", {"poisson"});
  return true;
}();
}  // namespace

}  // namespace keras::metrics
