#pragma once
// Loss and accuracy computed by hand in double precision, the reference the multi-output training tests
// compare kerascpp's logs with.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "keras/keras.hpp"

namespace keras_test {

inline double mse(const keras::Tensor& y, const keras::Tensor& p) {
  auto a = y.to_vector<float>(), b = p.to_vector<float>();
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
  return s / double(a.size());
}

/// Sparse categorical cross-entropy of integer labels against logits [n, k].
inline double sparse_ce_from_logits(const keras::Tensor& labels, const keras::Tensor& logits) {
  auto z = logits.to_vector<float>();
  auto l = labels.astype(keras::DType::int32).to_vector<std::int32_t>();
  const std::size_t k = z.size() / l.size();
  double s = 0;
  for (std::size_t i = 0; i < l.size(); ++i) {
    double m = z[i * k], sum = 0;
    for (std::size_t j = 0; j < k; ++j) m = std::max(m, double(z[i * k + j]));
    for (std::size_t j = 0; j < k; ++j) sum += std::exp(double(z[i * k + j]) - m);
    s += std::log(sum) + m - double(z[i * k + std::size_t(l[i])]);
  }
  return s / double(l.size());
}

/// The fraction of rows whose largest logit is at the label.
inline double accuracy(const keras::Tensor& labels, const keras::Tensor& logits) {
  auto z = logits.to_vector<float>();
  auto l = labels.astype(keras::DType::int32).to_vector<std::int32_t>();
  const std::size_t k = z.size() / l.size();
  int right = 0;
  for (std::size_t i = 0; i < l.size(); ++i) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < k; ++j)
      if (z[i * k + j] > z[i * k + best]) best = j;
    right += int(best) == l[i];
  }
  return double(right) / double(l.size());
}

}  // namespace keras_test
