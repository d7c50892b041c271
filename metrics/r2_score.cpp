#include "metrics/r2_score.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

R2Score::R2Score(R2ScoreOptions options) : Metric(options.name), options_(std::move(options)) {
  const auto& agg = options_.class_aggregation;
  if (agg && *agg != "uniform_average" && *agg != "variance_weighted_average")
    throw ValueError("R2Score: invalid value for argument `class_aggregation`. Expected one of (nullopt, "
                     "\"uniform_average\", \"variance_weighted_average\"). Received: class_aggregation=\"" + *agg + "\"");
  if (options_.num_regressors < 0)
    throw ValueError("R2Score: invalid value for argument `num_regressors`. Expected a value >= 0. Received: "
                     "num_regressors=" + std::to_string(options_.num_regressors));
}

void R2Score::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  if (y_pred.ndim() != 2 || y_true.ndim() != 2 || y_true.shape() != y_pred.shape())
    throw ValueError("R2Score '" + name() + "' expects 2D inputs with shape (batch_size, output_dim). Received input "
                     "shapes: y_pred.shape=" + shape_str(y_pred.shape()) + " and y_true.shape=" + shape_str(y_true.shape()));
  const auto rows = static_cast<std::size_t>(y_pred.dim(0)), outputs = static_cast<std::size_t>(y_pred.dim(1));
  if (!built_) {
    for (auto* v : {&sum_, &squared_sum_, &residual_, &count_}) v->assign(outputs, 0.0);
    built_ = true;
  } else if (sum_.size() != outputs) {
    throw ValueError("R2Score '" + name() + "': got " + std::to_string(outputs) + " outputs after " +
                     std::to_string(sum_.size()) + " in earlier batches");
  }
  const std::vector<float> t = detail::float_values(y_true), p = detail::float_values(y_pred);
  const std::vector<float> w = detail::broadcast_weights(sample_weight, y_true.shape(), "R2Score '" + name() + "'");
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < outputs; ++c) {
      const std::size_t i = r * outputs + c;
      const double yt = t[i], wt = w[i], err = double(t[i]) - double(p[i]);
      sum_[c] += yt * wt;
      squared_sum_[c] += yt * yt * wt;
      residual_[c] += err * err * wt;
      count_[c] += wt;
    }
  }
  num_samples_ += static_cast<double>(y_true.size());
}

std::vector<double> R2Score::raw_scores() const {
  std::vector<double> out(sum_.size());
  for (std::size_t c = 0; c < out.size(); ++c) {
    const double mean = sum_[c] / count_[c];
    const double total = squared_sum_[c] - sum_[c] * mean;
    const double score = 1 - residual_[c] / total;
    out[c] = std::isinf(score) ? 0.0 : score;
  }
  return out;
}

double R2Score::adjust(double r2) const {
  const double n = num_samples_, p = options_.num_regressors;
  if (p == 0 || p >= n - 1) return r2;  // Keras warns and falls back to the plain score
  return 1 - (1 - r2) * (n - 1) / (n - p - 1);
}

Tensor R2Score::result_tensor() const {
  if (!options_.class_aggregation) {
    auto s = built_ ? raw_scores() : std::vector<double>{};
    std::vector<float> out(s.size());
    for (std::size_t c = 0; c < s.size(); ++c) out[c] = static_cast<float>(adjust(s[c]));
    return Tensor::from_vector<float>(out);
  }
  return Tensor::scalar(static_cast<float>(result()));
}

double R2Score::result() const {
  if (!built_) return 0.0;
  const auto s = raw_scores();
  double r2 = 0;
  if (options_.class_aggregation && *options_.class_aggregation == "variance_weighted_average") {
    double weighted = 0, weights = 0;
    for (std::size_t c = 0; c < s.size(); ++c) {
      const double total = squared_sum_[c] - sum_[c] * (sum_[c] / count_[c]);
      weighted += total * s[c];
      weights += total;
    }
    r2 = weighted / weights;
  } else {
    for (double v : s) r2 += v;
    r2 /= static_cast<double>(s.size());
  }
  return adjust(r2);
}

void R2Score::reset_state() {
  for (auto* v : {&sum_, &squared_sum_, &residual_, &count_}) std::fill(v->begin(), v->end(), 0.0);
  num_samples_ = 0;
  built_ = false;
}

KERAS_FIELDS(R2ScoreOptions, class_aggregation, num_regressors)

json R2Score::get_config() const { return metric_config(*this, options_); }

std::shared_ptr<Metric> R2Score::from_config(const json& config) {
  return metric_from_config<R2Score, R2ScoreOptions>(config);
}

namespace {
const bool registered = register_class<Metric, R2Score>("R2Score", {"r2_score"});
}

std::vector<double> R2Score::state() const {
  std::vector<double> out = detail::concat_state({&sum_, &squared_sum_, &residual_, &count_});
  out.push_back(num_samples_);
  return out;
}

void R2Score::set_state(const std::vector<double>& state) {
  std::vector<double> samples{0};
  detail::split_state(state, {&sum_, &squared_sum_, &residual_, &count_, &samples}, name());
  num_samples_ = samples[0];
}

}  // namespace keras::metrics
