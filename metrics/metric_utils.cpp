#include "metrics/metric_utils.hpp"

#include <sstream>

#include "keras/errors.hpp"
#include "keras/json.hpp"

namespace keras::metrics::detail {

std::vector<float> float_values(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }

Tensor match_rank(const Tensor& y_true, const Tensor& y_pred) {
  if (y_pred.ndim() > 0 && y_true.ndim() + 1 == y_pred.ndim() && y_pred.dim(-1) == 1)
    return y_true.reshape(y_pred.shape());
  if (y_true.ndim() > 0 && y_true.ndim() == y_pred.ndim() + 1 && y_true.dim(-1) == 1)
    return y_true.reshape(y_pred.shape());
  return y_true;
}

std::vector<float> broadcast_weights(const Tensor& sample_weight, const Shape& shape, const std::string& metric_name) {
  const auto n = static_cast<std::size_t>(shape_size(shape));
  if (!sample_weight.defined()) return std::vector<float>(n, 1.f);
  const std::vector<float> w = float_values(sample_weight);
  Shape ws = sample_weight.shape();
  const auto fail = [&] {
    return ValueError(metric_name + ": sample_weight of shape " + shape_str(sample_weight.shape()) +
                      " cannot be broadcast to values of shape " + shape_str(shape) +
                      "; give one weight per sample, or a weight of the values' shape");
  };
  // squeeze_or_expand_dimensions on the weights.
  if (ws.size() + 1 == shape.size()) ws.push_back(1);
  else if (ws.size() == shape.size() + 1 && !ws.empty() && ws.back() == 1) ws.pop_back();
  if (ws.size() > shape.size()) throw fail();
  // Pad to the values' rank: on the right when the weight's dimensions lead the values' (one weight per
  // sample), else on the left as NumPy does.
  const std::size_t missing = shape.size() - ws.size();
  bool leading = missing > 0;
  for (std::size_t i = 0; i < ws.size() && leading; ++i) leading = ws[i] == shape[i];
  Shape padded;
  if (leading) {
    padded = ws;
    padded.insert(padded.end(), missing, 1);
  } else {
    padded.assign(missing, 1);
    padded.insert(padded.end(), ws.begin(), ws.end());
  }
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (padded[i] != 1 && padded[i] != shape[i]) throw fail();
  // Strides of the weight, zero along broadcast axes.
  std::vector<std::int64_t> stride(shape.size(), 0);
  std::int64_t s = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    stride[i] = padded[i] == 1 ? 0 : s;
    s *= padded[i];
  }
  std::vector<float> out(n);
  std::vector<std::int64_t> index(shape.size(), 0);
  for (std::size_t k = 0; k < n; ++k) {
    std::int64_t off = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) off += index[i] * stride[i];
    out[k] = w[static_cast<std::size_t>(off)];
    for (std::size_t i = shape.size(); i-- > 0;) {
      if (++index[i] < shape[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

void check_thresholds(const std::vector<double>& thresholds, const std::string& metric_name) {
  std::ostringstream bad;
  for (double t : thresholds)
    if (!(t >= 0 && t <= 1)) bad << (bad.tellp() > 0 ? ", " : "") << t;
  if (bad.tellp() > 0)
    throw ValueError(metric_name + ": threshold values must be in [0, 1]. Received: [" + bad.str() + "]");
}

std::vector<double> concat_state(std::initializer_list<const std::vector<double>*> parts) {
  std::vector<double> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

void split_state(const std::vector<double>& state, std::initializer_list<std::vector<double>*> parts,
                 const std::string& metric_name) {
  std::size_t size = 0;
  for (const auto* p : parts) size += p->size();
  if (size != state.size())
    throw ValueError("metric '" + metric_name + "': set_state() got " + std::to_string(state.size()) +
                     " values, its accumulators hold " + std::to_string(size) +
                     " (a state from the same metric built for the same shapes is needed)");
  auto at = state.begin();
  for (auto* p : parts) {
    std::copy(at, at + std::ptrdiff_t(p->size()), p->begin());
    at += std::ptrdiff_t(p->size());
  }
}

}  // namespace keras::metrics::detail
