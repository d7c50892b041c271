#include "keras/ops/random.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <fmt/format.h>

#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::random {
namespace {

// The engine a Seed draws from: a fresh one for an integer seed, else the generator's or the global one.
class Engine {
 public:
  explicit Engine(const Seed& seed) {
    if (seed.value()) {
      own_.seed(*seed.value());
      engine_ = &own_;
    } else if (seed.generator()) {
      engine_ = &utils::engine(*seed.generator());
    } else {
      engine_ = &utils::random_generator();
    }
  }
  std::mt19937_64& operator*() { return *engine_; }

 private:
  std::mt19937_64 own_;
  std::mt19937_64* engine_ = nullptr;
};

template <class Draw>
Tensor fill(const Shape& shape, DType dtype, const char* op, Draw draw) {
  for (auto d : shape)
    if (d < 0) throw ValueError(fmt::format("random.{}: the shape {} has a negative dimension", op, shape_str(shape)));
  Tensor out = Tensor::empty(shape, dtype);
  ops::detail::visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = out.data<T>();
    for (std::int64_t i = 0; i < out.size(); ++i) p[i] = static_cast<T>(draw());
  });
  return out;
}

void check_float(DType dtype, const char* op) {
  if (!ops::detail::is_float(dtype))
    throw ValueError(fmt::format("random.{}: dtype {} is not a float dtype", op, dtype_name(dtype)));
}

}  // namespace

Tensor normal(const Shape& shape, double mean, double stddev, DType dtype, Seed seed) {
  check_float(dtype, "normal");
  Engine e(seed);
  std::normal_distribution<double> dist(mean, stddev);
  return fill(shape, dtype, "normal", [&] { return dist(*e); });
}

Tensor uniform(const Shape& shape, double minval, double maxval, DType dtype, Seed seed) {
  check_float(dtype, "uniform");
  if (!(maxval > minval))
    throw ValueError(fmt::format("random.uniform: maxval ({}) must be greater than minval ({})", maxval, minval));
  Engine e(seed);
  std::uniform_real_distribution<double> dist(minval, maxval);
  return fill(shape, dtype, "uniform", [&] {
    double v;
    do v = dist(*e);
    while (static_cast<float>(v) >= static_cast<float>(maxval));  // [minval, maxval) after rounding to float
    return v;
  });
}

Tensor truncated_normal(const Shape& shape, double mean, double stddev, DType dtype, Seed seed) {
  check_float(dtype, "truncated_normal");
  Engine e(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  return fill(shape, dtype, "truncated_normal", [&] {
    double z;
    do z = dist(*e);
    while (std::abs(z) > 2.0);
    return mean + stddev * z;
  });
}

Tensor randint(const Shape& shape, std::int64_t minval, std::int64_t maxval, DType dtype, Seed seed) {
  if (maxval <= minval)
    throw ValueError(fmt::format("random.randint: maxval ({}) must be greater than minval ({})", maxval, minval));
  Engine e(seed);
  std::uniform_int_distribution<std::int64_t> dist(minval, maxval - 1);
  return fill(shape, dtype, "randint", [&] { return dist(*e); });
}

Tensor shuffle(const Tensor& x, int axis, Seed seed) {
  if (!x.defined() || x.ndim() == 0) throw ValueError("random.shuffle needs a tensor with at least one axis");
  const int a = ops::detail::normalize_axis(axis, x.ndim(), "random.shuffle");
  std::vector<std::int64_t> order(static_cast<std::size_t>(x.dim(a)));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
  Engine e(seed);
  std::shuffle(order.begin(), order.end(), *e);
  return ops::take(x, Tensor::from_vector(order), a);
}

Tensor dropout(const Tensor& inputs, double rate, std::optional<Shape> noise_shape, Seed seed) {
  if (!inputs.defined()) throw ValueError("random.dropout received an undefined tensor");
  if (!(rate >= 0.0 && rate < 1.0)) throw ValueError(fmt::format("random.dropout: rate is {}; it must be in [0, 1)", rate));
  const Shape mask_shape = noise_shape.value_or(inputs.shape());
  Tensor mask = Tensor::empty(mask_shape);
  Engine e(seed);
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate, *e);
  return ops::multiply(inputs, mask);  // broadcasting a noise_shape; checks that it fits
}

Tensor categorical(const Tensor& logits0, std::int64_t num_samples, DType dtype, Seed seed) {
  if (!logits0.defined() || logits0.ndim() != 2)
    throw ValueError("random.categorical needs logits of shape [batch, classes], got " +
                     (logits0.defined() ? shape_str(logits0.shape()) : std::string("none")));
  if (num_samples < 0) throw ValueError("random.categorical: num_samples must be at least 0");
  const Tensor logits = logits0.astype(DType::float32);
  const std::int64_t rows = logits.dim(0), classes = logits.dim(1);
  if (classes == 0) throw ValueError("random.categorical: the logits have no classes");
  Engine e(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::int64_t> ids;
  std::vector<double> cdf(static_cast<std::size_t>(classes));
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* p = logits.data<float>() + r * classes;
    double m = -INFINITY, total = 0;
    for (std::int64_t c = 0; c < classes; ++c) m = std::max(m, double(p[c]));
    for (std::int64_t c = 0; c < classes; ++c) cdf[c] = total += std::exp(double(p[c]) - m);
    for (std::int64_t s = 0; s < num_samples; ++s) {
      const double v = u(*e) * total;
      ids.push_back(std::upper_bound(cdf.begin(), cdf.end(), v) - cdf.begin());
      if (ids.back() >= classes) ids.back() = classes - 1;
    }
  }
  return Tensor::from_vector(ids, {rows, num_samples}).astype(dtype);
}

}  // namespace keras::random
