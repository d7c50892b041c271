#include "metrics/hinge_metrics.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "losses/categorical_hinge.hpp"
#include "losses/hinge.hpp"
#include "losses/squared_hinge.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

Hinge::Hinge(HingeOptions options) : MeanMetricWrapper(losses::hinge, options.name, "Hinge") {}
SquaredHinge::SquaredHinge(SquaredHingeOptions options)
    : MeanMetricWrapper(losses::squared_hinge, options.name, "SquaredHinge") {}
CategoricalHinge::CategoricalHinge(CategoricalHingeOptions options)
    : MeanMetricWrapper(losses::categorical_hinge, options.name, "CategoricalHinge") {}

KERAS_FIELDS(HingeOptions)
KERAS_FIELDS(SquaredHingeOptions)
KERAS_FIELDS(CategoricalHingeOptions)

std::shared_ptr<Metric> Hinge::from_config(const json& c) { return metric_from_config<Hinge, HingeOptions>(c); }
std::shared_ptr<Metric> SquaredHinge::from_config(const json& c) {
  return metric_from_config<SquaredHinge, SquaredHingeOptions>(c);
}
std::shared_ptr<Metric> CategoricalHinge::from_config(const json& c) {
  return metric_from_config<CategoricalHinge, CategoricalHingeOptions>(c);
}

namespace {
const bool registered = [] {
  register_class<Metric, Hinge>("Hinge", {"hinge"});
  register_class<Metric, SquaredHinge>("SquaredHinge", {"squared_hinge"});
  register_class<Metric, CategoricalHinge>("CategoricalHinge", {"categorical_hinge"});
  return true;
}();
}  // namespace

}  // namespace keras::metrics
