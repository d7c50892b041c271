#pragma once
// Finite-difference gradient check shared by the tests: compares GradientTape gradients of
// sum(f(inputs) * weights) with central differences, input by input, element by element.
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"

namespace keras::testing {

inline Tensor random_tensor(const Shape& shape, float lo = -1.f, float hi = 1.f, unsigned seed = 42) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  Tensor t = Tensor::empty(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

/// Checks d/d inputs of sum(f(inputs) * w) for a fixed random w. Evaluates in double-ish precision
/// via a relatively large step; tolerance is absolute+relative.
inline void check_gradients(const std::function<Tensor(const std::vector<Tensor>&)>& f, std::vector<Tensor> inputs,
                            float eps = 1e-2f, float tol = 2e-2f) {
  Tensor probe = f(inputs);
  Tensor w = random_tensor(probe.shape(), 0.5f, 1.5f, 7);
  auto objective = [&](const std::vector<Tensor>& in) {
    Tensor y = f(in);
    double s = 0;
    for (std::int64_t i = 0; i < y.size(); ++i) s += double(y.data<float>()[i]) * w.data<float>()[i];
    return s;
  };
  std::vector<Tensor> analytic;
  {
    GradientTape tape;
    for (auto& t : inputs) tape.watch(t);
    Tensor y = f(inputs);
    Tensor target = ops::sum(ops::multiply(y, w));
    analytic = tape.gradient(target, inputs);
  }
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    REQUIRE(analytic[k].defined());
    REQUIRE(analytic[k].shape() == inputs[k].shape());
    for (std::int64_t i = 0; i < inputs[k].size(); ++i) {
      float* p = inputs[k].data<float>() + i;
      const float saved = *p;
      *p = saved + eps;
      const double up = objective(inputs);
      *p = saved - eps;
      const double down = objective(inputs);
      *p = saved;
      const double numeric = (up - down) / (2.0 * eps);
      const double got = analytic[k].data<float>()[i];
      INFO("input " << k << " element " << i << ": tape " << got << " vs finite difference " << numeric);
      CHECK(std::abs(got - numeric) <= tol * (1.0 + std::abs(numeric)));
    }
  }
}

/// The largest |got - want| / (1 + |want|) over the elements of two tensors of one size.
inline double max_relative_error(const Tensor& got, const Tensor& want) {
  const auto g = got.to_vector<float>(), w = want.to_vector<float>();
  REQUIRE(g.size() == w.size());
  double worst = 0;
  for (std::size_t i = 0; i < g.size(); ++i) worst = std::max(worst, std::abs(double(g[i]) - w[i]) / (1.0 + std::abs(w[i])));
  return worst;
}

}  // namespace keras::testing
