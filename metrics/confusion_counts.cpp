#include "metrics/confusion_counts.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {
namespace {

const char* default_name(ConfusionCount::Cell cell) {
  switch (cell) {
    case ConfusionCount::Cell::true_positives: return "true_positives";
    case ConfusionCount::Cell::true_negatives: return "true_negatives";
    case ConfusionCount::Cell::false_positives: return "false_positives";
    case ConfusionCount::Cell::false_negatives: return "false_negatives";
  }
  return "";
}

}  // namespace

ConfusionCount::ConfusionCount(Cell cell, ConfusionCountOptions options)
    : Metric(options.name.empty() ? default_name(cell) : options.name),
      cell_(cell),
      options_(std::move(options)) {
  detail::check_thresholds(options_.thresholds, class_name());
  update_.thresholds = options_.thresholds.empty() ? std::vector<double>{0.5} : options_.thresholds;
  update_.evenly_distributed = is_evenly_distributed(update_.thresholds);
  counts_.resize(static_cast<std::int64_t>(update_.thresholds.size()));
}

void ConfusionCount::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  update_confusion_counts(counts_, y_true, y_pred, sample_weight, update_, class_name() + " '" + name() + "'");
}

const std::vector<double>& ConfusionCount::cell() const {
  switch (cell_) {
    case Cell::true_positives: return counts_.tp;
    case Cell::true_negatives: return counts_.tn;
    case Cell::false_positives: return counts_.fp;
    case Cell::false_negatives: return counts_.fn;
  }
  return counts_.tp;
}

double ConfusionCount::result() const { return cell().front(); }

Tensor ConfusionCount::result_tensor() const {
  const auto& v = cell();
  std::vector<float> out(v.begin(), v.end());
  if (out.size() == 1) return Tensor::scalar(out[0]);
  return Tensor::from_vector<float>(out);
}

std::string ConfusionCount::class_name() const {
  switch (cell_) {
    case Cell::true_positives: return "TruePositives";
    case Cell::true_negatives: return "TrueNegatives";
    case Cell::false_positives: return "FalsePositives";
    case Cell::false_negatives: return "FalseNegatives";
  }
  return "";
}

KERAS_FIELDS(ConfusionCountOptions, thresholds)

json ConfusionCount::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> TruePositives::from_config(const json& config) {
  return metric_from_config<TruePositives, ConfusionCountOptions>(config);
}
std::shared_ptr<Metric> TrueNegatives::from_config(const json& config) {
  return metric_from_config<TrueNegatives, ConfusionCountOptions>(config);
}
std::shared_ptr<Metric> FalsePositives::from_config(const json& config) {
  return metric_from_config<FalsePositives, ConfusionCountOptions>(config);
}
std::shared_ptr<Metric> FalseNegatives::from_config(const json& config) {
  return metric_from_config<FalseNegatives, ConfusionCountOptions>(config);
}

namespace {
const bool registered_tp = register_class<Metric, TruePositives>("TruePositives", {"true_positives"});
const bool registered_tn = register_class<Metric, TrueNegatives>("TrueNegatives", {"true_negatives"});
const bool registered_fp = register_class<Metric, FalsePositives>("FalsePositives", {"false_positives"});
const bool registered_fn = register_class<Metric, FalseNegatives>("FalseNegatives", {"false_negatives"});
}  // namespace

}  // namespace keras::metrics
