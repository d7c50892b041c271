#include "metrics/auc.hpp"

#include <algorithm>
#include <cmath>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"
#include "metrics/thresholds.hpp"

namespace keras::metrics {
namespace {

constexpr double kEpsilon = 1e-7;  // Keras's backend.epsilon()

/// config[key] as null, one number or a list (absent: none).
std::vector<double> values_or_none(const json& config, const char* key) {
  Thresholds values;
  if (auto it = config.find(key); it != config.end()) decode(*it, values);
  return values;
}

std::string canonical_curve(const std::string& curve) {
  if (curve == "ROC" || curve == "roc") return "ROC";
  if (curve == "PR" || curve == "pr") return "PR";
  throw ValueError("AUC: invalid curve value \"" + curve + "\". Expected values are [\"PR\", \"ROC\"]");
}

std::string canonical_summation(const std::string& method) {
  if (method == "interpolation" || method == "Interpolation") return "interpolation";
  if (method == "majoring" || method == "Majoring") return "majoring";
  if (method == "minoring" || method == "Minoring") return "minoring";
  throw ValueError("AUC: invalid summation method value \"" + method +
                   "\". Expected values are [\"interpolation\", \"majoring\", \"minoring\"]");
}

}  // namespace

AUC::AUC(AUCOptions options) : Metric(options.name), options_(std::move(options)) {
  options_.curve = canonical_curve(options_.curve);
  options_.summation_method = canonical_summation(options_.summation_method);
  std::vector<double> inner;
  if (!options_.thresholds.empty()) {
    detail::check_thresholds(options_.thresholds, "AUC");
    inner = options_.thresholds;
    std::sort(inner.begin(), inner.end());
    options_.thresholds = inner;
    options_.num_thresholds = static_cast<int>(inner.size()) + 2;  // what Keras writes, with thresholds given
    std::vector<double> with_ends{0.0};
    with_ends.insert(with_ends.end(), inner.begin(), inner.end());
    with_ends.push_back(1.0);
    update_.evenly_distributed = is_evenly_distributed(with_ends);
  } else {
    if (options_.num_thresholds <= 1)
      throw ValueError("AUC: argument `num_thresholds` must be an integer > 1. Received: num_thresholds=" +
                       std::to_string(options_.num_thresholds));
    const int n = options_.num_thresholds;
    for (int i = 0; i < n - 2; ++i) inner.push_back((i + 1) * 1.0 / (n - 1));
    update_.evenly_distributed = true;
  }
  update_.thresholds.push_back(0.0 - kEpsilon);
  update_.thresholds.insert(update_.thresholds.end(), inner.begin(), inner.end());
  update_.thresholds.push_back(1.0 + kEpsilon);
  update_.multi_label = options_.multi_label;
  for (double w : options_.label_weights)
    if (!(w >= 0)) throw ValueError("AUC: all values of `label_weights` must be non-negative");
  if (!options_.multi_label) {
    if (options_.num_labels) throw ValueError("AUC: `num_labels` is needed only when `multi_label` is true");
    update_.label_weights = options_.label_weights;
    counts_.resize(options_.num_thresholds);
  } else if (options_.num_labels) {
    counts_.resize(options_.num_thresholds, *options_.num_labels);
  }
}

void AUC::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  if (counts_.empty()) {  // multi_label without num_labels: built from the first batch
    if (y_pred.ndim() != 2)
      throw ValueError("AUC '" + name() + "': y_pred must have rank 2 when multi_label is true. Found rank " +
                       std::to_string(y_pred.ndim()) + ", shape " + shape_str(y_pred.shape()));
    counts_.resize(options_.num_thresholds, y_pred.dim(1));
  }
  if (options_.multi_label && !options_.label_weights.empty() &&
      static_cast<std::int64_t>(options_.label_weights.size()) != counts_.num_labels)
    throw ValueError("AUC '" + name() + "': " + std::to_string(options_.label_weights.size()) +
                     " label_weights for " + std::to_string(counts_.num_labels) + " labels");
  Tensor p = y_pred;
  if (options_.from_logits) {  // sigmoid in double, rounded once to float32
    std::vector<float> v = detail::float_values(y_pred);
    for (float& x : v) x = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x))));
    p = Tensor::from_vector<float>(v, y_pred.shape());
  }
  update_confusion_counts(counts_, y_true, p, sample_weight, update_, "AUC '" + name() + "'");
}

double AUC::average_over_labels(const std::vector<double>& by_label) const {
  if (!options_.multi_label) return by_label[0];
  if (options_.label_weights.empty()) {
    double s = 0;
    for (double v : by_label) s += v;
    return s / static_cast<double>(by_label.size());
  }
  double s = 0, wsum = 0;
  for (std::size_t l = 0; l < by_label.size(); ++l) {
    s += by_label[l] * options_.label_weights[l];
    wsum += options_.label_weights[l];
  }
  return divide_no_nan(s, wsum);
}

double AUC::interpolate_pr_auc() const {
  const auto L = static_cast<std::size_t>(counts_.num_labels);
  const auto T = static_cast<std::size_t>(options_.num_thresholds);
  std::vector<double> by_label(L, 0.0);
  for (std::size_t l = 0; l < L; ++l) {
    for (std::size_t i = 0; i + 1 < T; ++i) {
      const std::size_t a = i * L + l, b = (i + 1) * L + l;
      const double dtp = counts_.tp[a] - counts_.tp[b];
      const double p_a = counts_.tp[a] + counts_.fp[a], p_b = counts_.tp[b] + counts_.fp[b];
      const double dp = p_a - p_b;
      const double slope = divide_no_nan(dtp, std::max(dp, 0.0));
      const double intercept = counts_.tp[b] - slope * p_b;
      const double ratio = (p_a > 0 && p_b > 0) ? divide_no_nan(p_a, std::max(p_b, 0.0)) : 1.0;
      by_label[l] += divide_no_nan(slope * (dtp + intercept * std::log(ratio)),
                                   std::max(counts_.tp[b] + counts_.fn[b], 0.0));
    }
  }
  return average_over_labels(by_label);
}

double AUC::result() const {
  if (counts_.empty()) return 0.0;
  if (options_.curve == "PR" && options_.summation_method == "interpolation") return interpolate_pr_auc();
  const auto L = static_cast<std::size_t>(counts_.num_labels);
  const auto T = static_cast<std::size_t>(options_.num_thresholds);
  const auto point = [&](std::size_t j, double& x, double& y) {
    const double recall = divide_no_nan(counts_.tp[j], counts_.tp[j] + counts_.fn[j]);
    if (options_.curve == "ROC") {
      x = divide_no_nan(counts_.fp[j], counts_.fp[j] + counts_.tn[j]);
      y = recall;
    } else {
      x = recall;
      y = divide_no_nan(counts_.tp[j], counts_.tp[j] + counts_.fp[j]);
    }
  };
  std::vector<double> by_label(L, 0.0);
  for (std::size_t l = 0; l < L; ++l) {
    for (std::size_t i = 0; i + 1 < T; ++i) {
      double x0, y0, x1, y1;
      point(i * L + l, x0, y0);
      point((i + 1) * L + l, x1, y1);
      double height;
      if (options_.summation_method == "interpolation") height = (y0 + y1) / 2.0;
      else if (options_.summation_method == "minoring") height = std::min(y0, y1);
      else height = std::max(y0, y1);
      by_label[l] += (x0 - x1) * height;
    }
  }
  return average_over_labels(by_label);
}

KERAS_FIELDS(AUCOptions, num_thresholds, curve, summation_method, multi_label, num_labels, from_logits)

// Keras writes its two lists its own way: thresholds (sorted, without the endpoints) only when they were
// given, label_weights as null when there are none. Either is read as null, one number or a list.
json AUC::get_config() const {
  json config = metric_config(*this, options_);
  config["label_weights"] = options_.label_weights.empty() ? json(nullptr) : json(options_.label_weights);
  if (!options_.thresholds.empty()) config["thresholds"] = options_.thresholds;
  return config;
}

std::shared_ptr<Metric> AUC::from_config(const json& config) {
  auto options = metric_options<AUCOptions>(config);
  options.thresholds = values_or_none(config, "thresholds");
  options.label_weights = values_or_none(config, "label_weights");
  return std::make_shared<AUC>(std::move(options));
}

namespace {
const bool registered = register_class<Metric, AUC>("AUC", {"auc"});
}

}  // namespace keras::metrics
