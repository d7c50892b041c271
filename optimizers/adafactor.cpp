#include "optimizers/adafactor.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adafactor>("Adafactor", {"adafactor"});

double rms(const float* x, std::int64_t n) {
  double s = 0;
  for (std::int64_t i = 0; i < n; ++i) s += double(x[i]) * x[i];
  return std::sqrt(s / double(n));
}
}  // namespace

KERAS_FIELDS(AdafactorOptions, beta_2_decay, epsilon_1, epsilon_2, clip_threshold, relative_step)

Adafactor::Adafactor(AdafactorOptions o) : Optimizer(o), options_(std::move(o)) {}

std::optional<Shape> Adafactor::slot_shape(const Variable& var, const std::string& slot_name) const {
  const Shape& s = var.shape();
  if (slot_name != "r" && slot_name != "c") return s;
  if (s.size() < 2) return std::nullopt;  // not factored
  Shape out(s.begin(), s.end() - 1);      // r: the last axis averaged out
  if (slot_name == "c") out.back() = s.back();  // c: the second-last averaged out
  return out;
}

void Adafactor::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  const Shape& shape = var.shape();
  const std::int64_t n = grad.size();
  const float* g = grad.data<float>();
  float* w = var.value().data<float>();
  float* v = slot(var, "velocity").value().data<float>();
  const double t = static_cast<double>(step);
  const double rho = std::min(lr, 1.0 / std::sqrt(t));
  const double alpha = std::max(options_.epsilon_2, rms(w, n)) * rho;
  const double beta = 1.0 - std::pow(t, options_.beta_2_decay);
  const double eps1 = options_.epsilon_1;
  if (shape.size() >= 2) {
    // [batch..., rows, cols]: r has batch x rows values, c batch x cols, each batch slice factored alone.
    const std::int64_t cols = shape.back(), rows = shape[shape.size() - 2], batches = n / std::max<std::int64_t>(rows * cols, 1);
    float* r = slot(var, "r").value().data<float>();
    float* c = slot(var, "c").value().data<float>();
    std::vector<double> col_sum(static_cast<std::size_t>(cols));
    for (std::int64_t b = 0; b < batches; ++b) {
      const float* gb = g + b * rows * cols;
      float* rb = r + b * rows;
      float* cb = c + b * cols;
      std::fill(col_sum.begin(), col_sum.end(), 0.0);
      for (std::int64_t i = 0; i < rows; ++i) {
        double row_sum = 0;
        for (std::int64_t j = 0; j < cols; ++j) {
          const double sq = double(gb[i * cols + j]) * gb[i * cols + j] + eps1;
          row_sum += sq;
          col_sum[static_cast<std::size_t>(j)] += sq;
        }
        rb[i] = static_cast<float>(beta * rb[i] + (1 - beta) * (row_sum / double(cols)));
      }
      for (std::int64_t j = 0; j < cols; ++j)
        cb[j] = static_cast<float>(beta * cb[j] + (1 - beta) * (col_sum[static_cast<std::size_t>(j)] / double(rows)));
      double r_mean = 0;
      for (std::int64_t i = 0; i < rows; ++i) r_mean += rb[i];
      r_mean /= double(rows);
      float* vb = v + b * rows * cols;
      for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) vb[i * cols + j] = static_cast<float>(rb[i] / r_mean * cb[j]);
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i)
      v[i] = static_cast<float>(beta * v[i] + (1 - beta) * (double(g[i]) * g[i] + eps1));
  }
  std::vector<float> u(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) u[static_cast<std::size_t>(i)] = static_cast<float>(g[i] / std::sqrt(double(v[i])));
  const double scale = alpha / std::max(1.0, rms(u.data(), n) / options_.clip_threshold);
  for (std::int64_t i = 0; i < n; ++i) w[i] = static_cast<float>(w[i] - scale * u[static_cast<std::size_t>(i)]);
}

json Adafactor::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Adafactor::from_config(const json& c) {
  return optimizer_from_config<Adafactor, AdafactorOptions>(c);
}

}  // namespace keras::optimizers
