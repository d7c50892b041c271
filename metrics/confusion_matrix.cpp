#include "metrics/confusion_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "metrics/metric_utils.hpp"

namespace keras::metrics {

void ConfusionCounts::resize(std::int64_t thresholds, std::int64_t labels) {
  num_thresholds = thresholds;
  num_labels = labels;
  const auto n = static_cast<std::size_t>(thresholds * labels);
  tp.assign(n, 0.0);
  fp.assign(n, 0.0);
  tn.assign(n, 0.0);
  fn.assign(n, 0.0);
}

void ConfusionCounts::reset() {
  for (auto* v : {&tp, &fp, &tn, &fn}) std::fill(v->begin(), v->end(), 0.0);
}

std::vector<double> ConfusionCounts::state() const { return detail::concat_state({&tp, &fp, &tn, &fn}); }

void ConfusionCounts::set_state(const std::vector<double>& state, const std::string& metric_name) {
  detail::split_state(state, {&tp, &fp, &tn, &fn}, metric_name);
}

bool is_evenly_distributed(const std::vector<double>& thresholds) {
  const auto n = thresholds.size();
  if (n < 3) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const double even = static_cast<double>(static_cast<float>(i) / static_cast<float>(n - 1));
    if (!(std::abs(thresholds[i] - even) <= 1e-7 + 1e-5 * std::abs(even))) return false;
  }
  return true;
}

void update_confusion_counts(ConfusionCounts& counts, const Tensor& y_true, const Tensor& y_pred,
                             const Tensor& sample_weight, const ConfusionUpdate& how, const std::string& metric_name) {
  const Tensor t_matched = detail::match_rank(y_true, y_pred);
  if (t_matched.shape() != y_pred.shape())
    throw ValueError(metric_name + ": y_true of shape " + shape_str(y_true.shape()) + " does not match y_pred of shape " +
                     shape_str(y_pred.shape()) + "; give one 0/1 target per prediction");
  Shape shape = y_pred.shape();
  std::vector<float> p = detail::float_values(y_pred);
  std::vector<float> t = detail::float_values(t_matched);
  std::vector<float> w = detail::broadcast_weights(sample_weight, shape, metric_name);
  const std::int64_t last = shape.empty() ? 1 : shape.back();
  const std::int64_t rows = last > 0 ? static_cast<std::int64_t>(p.size()) / last : 0;

  if (how.top_k) {
    const int k = *how.top_k;
    if (k <= 0) throw ValueError(metric_name + ": top_k must be a positive integer, got " + std::to_string(k));
    std::vector<std::int64_t> order(static_cast<std::size_t>(last));
    for (std::int64_t r = 0; r < rows; ++r) {
      float* row = p.data() + r * last;
      std::iota(order.begin(), order.end(), 0);
      // Largest first; ties keep the lower index first, as tf.math.top_k does.
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return row[a] > row[b]; });
      for (std::size_t j = static_cast<std::size_t>(std::min<std::int64_t>(k, last)); j < order.size(); ++j)
        row[order[j]] = static_cast<float>(kNegInf);
    }
  }
  if (how.class_id) {
    const int c = *how.class_id;
    if (c < 0 || c >= last)
      throw ValueError(metric_name + ": class_id " + std::to_string(c) + " is out of range for predictions of shape " +
                       shape_str(shape) + "; it must be in [0, " + std::to_string(last) + ")");
    std::vector<float> p1(static_cast<std::size_t>(rows)), t1(p1.size()), w1(p1.size());
    for (std::int64_t r = 0; r < rows; ++r) {
      const auto i = static_cast<std::size_t>(r * last + c);
      p1[static_cast<std::size_t>(r)] = p[i];
      t1[static_cast<std::size_t>(r)] = t[i];
      w1[static_cast<std::size_t>(r)] = w[i];
    }
    p.swap(p1);
    t.swap(t1);
    w.swap(w1);
    shape.back() = 1;
  }

  const std::int64_t labels = how.multi_label ? (shape.size() == 2 ? shape[1] : -1) : 1;
  if (labels < 0)
    throw ValueError(metric_name + ": y_pred must have rank 2 (samples, labels) when multi_label is true, got shape " +
                     shape_str(shape));
  const std::int64_t lw_period = shape.empty() ? 1 : shape.back();
  if (!how.label_weights.empty() && static_cast<std::int64_t>(how.label_weights.size()) != lw_period)
    throw ValueError(metric_name + ": " + std::to_string(how.label_weights.size()) +
                     " label_weights for predictions with " + std::to_string(lw_period) + " labels");
  const auto T = static_cast<std::int64_t>(how.thresholds.size());
  if (counts.num_thresholds != T || counts.num_labels != labels)
    throw ValueError(metric_name + ": the predictions have " + std::to_string(labels) + " labels but the metric was built for " +
                     std::to_string(counts.num_labels) + "; the number of labels must not change between batches");

  const auto weight_of = [&](std::size_t e) {
    double wt = w[e];
    if (!how.label_weights.empty()) wt *= how.label_weights[e % static_cast<std::size_t>(lw_period)];
    return wt;
  };
  const auto L = static_cast<std::size_t>(labels);

  if (how.evenly_distributed) {
    const bool with_epsilon = how.thresholds.front() < 0.0 || how.thresholds.back() > 1.0;
    std::vector<double> pos(static_cast<std::size_t>(T) * L, 0.0), neg(pos.size(), 0.0);
    std::vector<double> total_pos(L, 0.0), total_neg(L, 0.0);
    const float scale = static_cast<float>(T - 1);
    for (std::size_t e = 0; e < p.size(); ++e) {
      const std::size_t l = e % L;
      const double wt = weight_of(e);
      const bool positive = t[e] != 0.f;
      (positive ? total_pos : total_neg)[l] += wt;
      const float clipped = std::min(std::max(p[e], 0.f), 1.f);
      if (std::isnan(clipped)) continue;
      auto bucket = static_cast<std::int64_t>(std::ceil(clipped * scale)) - 1;
      if (with_epsilon) bucket = std::max<std::int64_t>(bucket, 0);
      if (bucket < 0) continue;
      (positive ? pos : neg)[static_cast<std::size_t>(bucket) * L + l] += wt;
    }
    // Reverse cumulative sums: a prediction in bucket b is positive at every threshold i <= b.
    std::vector<double> tp_acc(L, 0.0), fp_acc(L, 0.0);
    for (std::int64_t i = T; i-- > 0;) {
      for (std::size_t l = 0; l < L; ++l) {
        const std::size_t j = static_cast<std::size_t>(i) * L + l;
        tp_acc[l] += pos[j];
        fp_acc[l] += neg[j];
        counts.tp[j] += tp_acc[l];
        counts.fp[j] += fp_acc[l];
        counts.fn[j] += total_pos[l] - tp_acc[l];
        counts.tn[j] += total_neg[l] - fp_acc[l];
      }
    }
    return;
  }

  std::vector<float> thresholds(how.thresholds.begin(), how.thresholds.end());
  for (std::size_t e = 0; e < p.size(); ++e) {
    const std::size_t l = e % L;
    const double wt = weight_of(e);
    const bool positive = t[e] != 0.f;
    for (std::int64_t i = 0; i < T; ++i) {
      const std::size_t j = static_cast<std::size_t>(i) * L + l;
      const bool predicted = p[e] > thresholds[static_cast<std::size_t>(i)];
      if (positive) (predicted ? counts.tp : counts.fn)[j] += wt;
      else (predicted ? counts.fp : counts.tn)[j] += wt;
    }
  }
}

}  // namespace keras::metrics
