#include "metrics/f_score.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/confusion_matrix.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {
FBetaScore::FBetaScore(FBetaScoreOptions options, const char* class_name)
    : Metric(options.name), options_(std::move(options)) {
  const std::string cls = class_name;
  const auto& avg = options_.average;
  if (avg && *avg != "micro" && *avg != "macro" && *avg != "weighted")
    throw ValueError(cls + ": invalid `average` argument value. Expected one of: {nullopt, \"micro\", "
                     "\"macro\", \"weighted\"}. Received: average=\"" + *avg + "\"");
  if (!(options_.beta > 0))
    throw ValueError(cls + ": invalid `beta` argument value. It should be > 0. Received: beta=" +
                     std::to_string(options_.beta));
  if (options_.threshold && !(*options_.threshold > 0 && *options_.threshold <= 1))
    throw ValueError(cls + ": invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                     "Received: threshold=" + std::to_string(*options_.threshold));
}

void FBetaScore::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  if (y_pred.ndim() != 2 || y_true.ndim() != 2 || y_true.shape() != y_pred.shape())
    throw ValueError(class_name() + " '" + name() + "' expects 2D inputs with shape (batch_size, output_dim). "
                     "Received input shapes: y_pred.shape=" + shape_str(y_pred.shape()) +
                     " and y_true.shape=" + shape_str(y_true.shape()));
  const auto rows = static_cast<std::size_t>(y_pred.dim(0)), classes = static_cast<std::size_t>(y_pred.dim(1));
  const bool micro = options_.average && *options_.average == "micro";
  if (!built_) {
    const std::size_t n = micro ? 1 : classes;
    tp_.assign(n, 0.0);
    fp_.assign(n, 0.0);
    fn_.assign(n, 0.0);
    support_.assign(n, 0.0);
    built_ = true;
  } else if (!micro && tp_.size() != classes) {
    throw ValueError(class_name() + " '" + name() + "': got " + std::to_string(classes) + " classes after " +
                     std::to_string(tp_.size()) + " in earlier batches");
  }
  const std::vector<float> t = detail::float_values(y_true), p = detail::float_values(y_pred);
  const std::vector<float> w = detail::broadcast_weights(sample_weight, y_pred.shape(), class_name() + " '" + name() + "'");
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = p.data() + r * classes;
    const float row_max = *std::max_element(row, row + classes);
    for (std::size_t c = 0; c < classes; ++c) {
      const std::size_t i = r * classes + c;
      const bool positive = options_.threshold ? row[c] > static_cast<float>(*options_.threshold)
                                               : (row[c] >= row_max && std::abs(row[c]) > 1e-9f);
      const double pred = positive ? 1.0 : 0.0, truth = t[i], wt = w[i];
      const std::size_t k = micro ? 0 : c;
      tp_[k] += pred * truth * wt;
      fp_[k] += pred * (1 - truth) * wt;
      fn_[k] += (1 - pred) * truth * wt;
      support_[k] += truth * wt;
    }
  }
}

std::vector<double> FBetaScore::scores() const {
  std::vector<double> out(tp_.size());
  const double b2 = options_.beta * options_.beta;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const double precision = divide_no_nan(tp_[k], tp_[k] + fp_[k]);
    const double recall = divide_no_nan(tp_[k], tp_[k] + fn_[k]);
    out[k] = divide_no_nan(precision * recall, b2 * precision + recall) * (1 + b2);
  }
  return out;
}

Tensor FBetaScore::result_tensor() const {
  if (!options_.average) {
    const auto s = scores();
    return Tensor::from_vector<float>(std::vector<float>(s.begin(), s.end()));
  }
  return Tensor::scalar(static_cast<float>(result()));
}

double FBetaScore::result() const {
  if (!built_) return 0.0;
  const auto s = scores();
  if (options_.average && *options_.average == "weighted") {
    double total = 0, out = 0;
    for (double v : support_) total += v;
    for (std::size_t k = 0; k < s.size(); ++k) out += s[k] * divide_no_nan(support_[k], total);
    return out;
  }
  double sum = 0;
  for (double v : s) sum += v;
  return sum / static_cast<double>(s.size());
}

void FBetaScore::reset_state() {
  for (auto* v : {&tp_, &fp_, &fn_, &support_}) std::fill(v->begin(), v->end(), 0.0);
}

KERAS_FIELDS(FBetaScoreOptions, average, beta, threshold)
KERAS_FIELDS(F1ScoreOptions, average, threshold)

json FBetaScore::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> FBetaScore::from_config(const json& config) {
  return metric_from_config<FBetaScore, FBetaScoreOptions>(config);
}

json F1Score::get_config() const {
  json config = FBetaScore::get_config();
  config.erase("beta");
  return config;
}

std::shared_ptr<Metric> F1Score::from_config(const json& config) {
  return metric_from_config<F1Score, F1ScoreOptions>(config);
}

std::vector<double> FBetaScore::state() const { return detail::concat_state({&tp_, &fp_, &fn_, &support_}); }

void FBetaScore::set_state(const std::vector<double>& state) {
  detail::split_state(state, {&tp_, &fp_, &fn_, &support_}, name());
}

namespace {
const bool registered_fbeta = register_class<Metric, FBetaScore>("FBetaScore", {"fbeta_score", "f_beta_score"});
const bool registered_f1 = register_class<Metric, F1Score>("F1Score", {"f1_score"});
}  // namespace

}  // namespace keras::metrics
