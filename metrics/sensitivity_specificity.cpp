#include "metrics/sensitivity_specificity.hpp"

#include <algorithm>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"

namespace keras::metrics {

SensitivitySpecificityBase::SensitivitySpecificityBase(std::string name, double value, int num_thresholds,
                                                       std::optional<int> class_id, const char* value_key,
                                                       const std::string& class_name)
    : Metric(std::move(name)), value_(value), num_thresholds_(num_thresholds), value_key_(value_key) {
  if (!(value >= 0 && value <= 1))
    throw ValueError(class_name + ": argument `" + value_key + "` must be in the range [0, 1]. Received: " +
                     value_key + "=" + std::to_string(value));
  if (num_thresholds <= 0)
    throw ValueError(class_name + ": argument `num_thresholds` must be an integer > 0. Received: num_thresholds=" +
                     std::to_string(num_thresholds));
  if (num_thresholds == 1) {
    update_.thresholds = {0.5};
  } else {
    update_.thresholds.push_back(0.0);
    for (int i = 0; i < num_thresholds - 2; ++i) update_.thresholds.push_back((i + 1) * 1.0 / (num_thresholds - 1));
    update_.thresholds.push_back(1.0);
    update_.evenly_distributed = true;
  }
  update_.class_id = class_id;
  counts_.resize(static_cast<std::int64_t>(update_.thresholds.size()));
}

void SensitivitySpecificityBase::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  update_confusion_counts(counts_, y_true, y_pred, sample_weight, update_, class_name() + " '" + name() + "'");
}

double SensitivitySpecificityBase::rate(Rate r, std::size_t i) const {
  switch (r) {
    case Rate::sensitivity: return divide_no_nan(counts_.tp[i], counts_.tp[i] + counts_.fn[i]);
    case Rate::specificity: return divide_no_nan(counts_.tn[i], counts_.tn[i] + counts_.fp[i]);
    case Rate::precision: return divide_no_nan(counts_.tp[i], counts_.tp[i] + counts_.fp[i]);
  }
  return 0.0;
}

double SensitivitySpecificityBase::max_under_constraint(Rate constrained, Rate dependent) const {
  bool feasible = false;
  double best = 0.0;
  for (std::size_t i = 0; i < counts_.tp.size(); ++i) {
    if (rate(constrained, i) >= value_) {
      const double d = rate(dependent, i);
      best = feasible ? std::max(best, d) : d;
      feasible = true;
    }
  }
  return feasible ? best : 0.0;
}

KERAS_FIELDS(SensitivityAtSpecificityOptions, num_thresholds, class_id)
KERAS_FIELDS(SpecificityAtSensitivityOptions, num_thresholds, class_id)
KERAS_FIELDS(PrecisionAtRecallOptions, num_thresholds, class_id)
KERAS_FIELDS(RecallAtPrecisionOptions, num_thresholds, class_id)

// The four options structs hold the same fields: the base writes them as PrecisionAtRecallOptions, then
// the target value under its own key.
json SensitivitySpecificityBase::get_config() const {
  json config =
      metric_config(*this, PrecisionAtRecallOptions{.num_thresholds = num_thresholds_, .class_id = update_.class_id});
  config[value_key_] = value_;
  return config;
}

namespace {

// The target value, the constructors' positional argument, stored under `key`.
double required(const json& config, const char* key, const char* class_name) {
  if (!config.contains(key) || !config[key].is_number())
    throw ValueError(std::string(class_name) + " needs its target value: give {\"" + key + "\": 0.5} in the config");
  return config[key].get<double>();
}

}  // namespace

SensitivityAtSpecificity::SensitivityAtSpecificity(double specificity, SensitivityAtSpecificityOptions options)
    : SensitivitySpecificityBase(options.name, specificity, options.num_thresholds, options.class_id, "specificity",
                                 "SensitivityAtSpecificity") {}

std::shared_ptr<Metric> SensitivityAtSpecificity::from_config(const json& config) {
  return metric_from_config<SensitivityAtSpecificity, SensitivityAtSpecificityOptions>(
      config, required(config, "specificity", "SensitivityAtSpecificity"));
}

SpecificityAtSensitivity::SpecificityAtSensitivity(double sensitivity, SpecificityAtSensitivityOptions options)
    : SensitivitySpecificityBase(options.name, sensitivity, options.num_thresholds, options.class_id, "sensitivity",
                                 "SpecificityAtSensitivity") {}

std::shared_ptr<Metric> SpecificityAtSensitivity::from_config(const json& config) {
  return metric_from_config<SpecificityAtSensitivity, SpecificityAtSensitivityOptions>(
      config, required(config, "sensitivity", "SpecificityAtSensitivity"));
}

PrecisionAtRecall::PrecisionAtRecall(double recall, PrecisionAtRecallOptions options)
    : SensitivitySpecificityBase(options.name, recall, options.num_thresholds, options.class_id, "recall",
                                 "PrecisionAtRecall") {}

std::shared_ptr<Metric> PrecisionAtRecall::from_config(const json& config) {
  return metric_from_config<PrecisionAtRecall, PrecisionAtRecallOptions>(
      config, required(config, "recall", "PrecisionAtRecall"));
}

RecallAtPrecision::RecallAtPrecision(double precision, RecallAtPrecisionOptions options)
    : SensitivitySpecificityBase(options.name, precision, options.num_thresholds, options.class_id, "precision",
                                 "RecallAtPrecision") {}

std::shared_ptr<Metric> RecallAtPrecision::from_config(const json& config) {
  return metric_from_config<RecallAtPrecision, RecallAtPrecisionOptions>(
      config, required(config, "precision", "RecallAtPrecision"));
}

namespace {
const bool registered_ss = register_class<Metric, SensitivityAtSpecificity>("SensitivityAtSpecificity",
                                                                           {"sensitivity_at_specificity"});
const bool registered_sp = register_class<Metric, SpecificityAtSensitivity>("SpecificityAtSensitivity",
                                                                           {"specificity_at_sensitivity"});
const bool registered_pr = register_class<Metric, PrecisionAtRecall>("PrecisionAtRecall", {"precision_at_recall"});
const bool registered_rp = register_class<Metric, RecallAtPrecision>("RecallAtPrecision", {"recall_at_precision"});
}  // namespace

}  // namespace keras::metrics
