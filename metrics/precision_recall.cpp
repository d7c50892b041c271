#include "metrics/precision_recall.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

PrecisionRecallBase::PrecisionRecallBase(std::string name, Thresholds thresholds, std::optional<int> top_k,
                                         std::optional<int> class_id, const std::string& class_name)
    : Metric(std::move(name)), init_thresholds_(std::move(thresholds)) {
  detail::check_thresholds(init_thresholds_, class_name);
  update_.thresholds = !init_thresholds_.empty() ? init_thresholds_
                       : top_k                   ? std::vector<double>{kNegInf}
                                                 : std::vector<double>{0.5};
  update_.evenly_distributed = is_evenly_distributed(update_.thresholds);
  update_.top_k = top_k;
  update_.class_id = class_id;
  counts_.resize(static_cast<std::int64_t>(update_.thresholds.size()));
}

void PrecisionRecallBase::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  update_confusion_counts(counts_, y_true, y_pred, sample_weight, update_, class_name() + " '" + name() + "'");
}

Tensor PrecisionRecallBase::result_tensor() const {
  std::vector<float> out(update_.thresholds.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(value(i));
  if (out.size() == 1) return Tensor::scalar(out[0]);
  return Tensor::from_vector<float>(out);
}

KERAS_FIELDS(PrecisionOptions, thresholds, top_k, class_id)
KERAS_FIELDS(RecallOptions, thresholds, top_k, class_id)

// Precision's and Recall's options hold the same fields: the base writes them as PrecisionOptions.
json PrecisionRecallBase::get_config() const {
  return metric_config(*this, PrecisionOptions{.thresholds = init_thresholds_, .top_k = update_.top_k,
                                               .class_id = update_.class_id});
}

Precision::Precision(PrecisionOptions options)
    : PrecisionRecallBase(options.name, options.thresholds, options.top_k, options.class_id, "Precision") {}

std::shared_ptr<Metric> Precision::from_config(const json& config) {
  return metric_from_config<Precision, PrecisionOptions>(config);
}

Recall::Recall(RecallOptions options)
    : PrecisionRecallBase(options.name, options.thresholds, options.top_k, options.class_id, "Recall") {}

std::shared_ptr<Metric> Recall::from_config(const json& config) {
  return metric_from_config<Recall, RecallOptions>(config);
}

namespace {
const bool registered_precision = register_class<Metric, Precision>("Precision", {"precision"});
const bool registered_recall = register_class<Metric, Recall>("Recall", {"recall"});
}  // namespace

}  // namespace keras::metrics
