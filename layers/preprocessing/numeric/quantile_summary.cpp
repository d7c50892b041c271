#include "layers/preprocessing/numeric/quantile_summary.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace keras::layers::preprocessing {
namespace {

// np.interp(x, xp, fp) for increasing xp: fp[0] left of xp, fp.back() right of it, and at or between
// points the line through the last point <= x and the next one.
double interp(double x, const std::vector<double>& xp, const std::vector<double>& fp) {
  const auto n = xp.size();
  if (x > xp.back()) return fp.back();
  if (x < xp.front()) return fp.front();
  const auto j = static_cast<std::size_t>(std::upper_bound(xp.begin(), xp.end(), x) - xp.begin()) - 1;
  if (j == n - 1 || xp[j] == x) return fp[j];
  const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  double y = slope * (x - xp[j]) + fp[j];
  if (std::isnan(y)) {
    y = slope * (x - xp[j + 1]) + fp[j + 1];
    if (std::isnan(y) && fp[j] == fp[j + 1]) y = fp[j];
  }
  return y;
}

}  // namespace

QuantileSummary summarize(std::vector<float> values, double epsilon) {
  std::sort(values.begin(), values.end());
  const double increment = static_cast<double>(values.size()) / (1.0 / epsilon);
  const double step = std::max(increment, 1.0);
  const auto first = static_cast<std::size_t>(step - 1), stride = static_cast<std::size_t>(step);
  QuantileSummary s;
  for (std::size_t i = first; i < values.size(); i += stride) {
    s.values.push_back(values[i]);
    s.weights.push_back(static_cast<float>(step));
  }
  return s;
}

QuantileSummary merge_summaries(const QuantileSummary& a, const QuantileSummary& b, double epsilon) {
  std::vector<std::pair<float, float>> points;
  for (std::size_t i = 0; i < a.values.size(); ++i) points.emplace_back(a.values[i], a.weights[i]);
  for (std::size_t i = 0; i < b.values.size(); ++i) points.emplace_back(b.values[i], b.weights[i]);
  std::stable_sort(points.begin(), points.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  QuantileSummary merged;
  for (const auto& [v, w] : points) {
    merged.values.push_back(v);
    merged.weights.push_back(w);
  }
  return compress_summary(merged, epsilon);
}

QuantileSummary compress_summary(const QuantileSummary& s, double epsilon) {
  if (static_cast<double>(s.values.size()) * epsilon < 1) return s;
  // percents = epsilon + np.arange(0, 1, epsilon)
  const auto count = static_cast<std::size_t>(std::ceil(1.0 / epsilon));
  std::vector<float> cum(s.weights.size());
  std::partial_sum(s.weights.begin(), s.weights.end(), cum.begin());  // float32, in order, as cumsum
  std::vector<double> cum_percent(cum.size()), cum_d(cum.begin(), cum.end()), values(s.values.begin(), s.values.end());
  for (std::size_t i = 0; i < cum.size(); ++i) cum_percent[i] = static_cast<double>(cum[i] / cum.back());
  QuantileSummary out;
  double previous = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double percent = epsilon + static_cast<double>(i) * epsilon;
    const double weight = interp(percent, cum_percent, cum_d);
    out.values.push_back(static_cast<float>(interp(percent, cum_percent, values)));
    out.weights.push_back(static_cast<float>(weight - previous));
    previous = weight;
  }
  return out;
}

std::vector<double> bin_boundaries(const QuantileSummary& s, std::int64_t num_bins) {
  const QuantileSummary c = compress_summary(s, 1.0 / static_cast<double>(num_bins));
  if (c.values.empty()) return {};
  return {c.values.begin(), c.values.end() - 1};
}

}  // namespace keras::layers::preprocessing
