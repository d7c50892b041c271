#include "keras/ops/normalization.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/normalization_detail.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::ops {
namespace {

using namespace normalization_detail;

// Σ g and Σ g * (x - mean) * inv per channel: the sums behind the gradients of gamma and beta (and of x).
// With `relu_out` (the output of a fused ReLU), g is the incoming gradient where relu_out > 0, else 0, and
// is written to `masked` in the same pass.
void grad_sums(const Layout& l, const float* px, const float* pg, const std::vector<float>& mean,
               const std::vector<float>& inv, std::vector<double>& sum_g, std::vector<double>& sum_gx,
               const float* relu_out = nullptr, float* masked = nullptr) {
  if (l.inner != 1) {
    channel_sums(l, sum_g, sum_gx, [&](std::int64_t i, std::int64_t c) {
      const float g = relu_out ? (relu_out[i] > 0.f ? pg[i] : 0.f) : pg[i];
      if (relu_out) masked[i] = g;
      return std::pair<double, double>(g, double(g) * (px[i] - mean[c]) * inv[c]);
    });
    return;
  }
  const std::int64_t C = l.channels;
  const float* __restrict m = mean.data();
  const float* __restrict iv = inv.data();
  row_sums(l.outer, C, sum_g, sum_gx, [&](std::int64_t r0, std::int64_t r1, float* __restrict a, float* __restrict b) {
    for (std::int64_t r = r0; r < r1; ++r) {
      const float* __restrict x = px + r * C;
      const float* __restrict g = pg + r * C;
      if (relu_out) {
        const float* __restrict o = relu_out + r * C;
        float* __restrict gm = masked + r * C;
#pragma omp simd
        for (std::int64_t c = 0; c < C; ++c) {
          const float gc = g[c], v = o[c] > 0.f ? gc : 0.f;
          gm[c] = v;
          a[c] += v;
          b[c] += v * (x[c] - m[c]) * iv[c];
        }
        continue;
      }
#pragma omp simd
      for (std::int64_t c = 0; c < C; ++c) {
        a[c] += g[c];
        b[c] += g[c] * (x[c] - m[c]) * iv[c];
      }
    }
  });
}

// Per-channel mean and biased variance of x. Channels last: one pass, shifted by each channel's first
// value (a sample, so close to the mean: no cancellation); otherwise two passes in double.
void batch_moments(const Layout& l, const float* px, std::vector<double>& mean, std::vector<double>& var) {
  const std::int64_t C = l.channels;
  const double n = static_cast<double>(l.outer * l.inner);
  std::vector<double> s1, s2;
  if (l.inner == 1) {
    const std::vector<float> shift(px, px + C);
    const float* __restrict k = shift.data();
    row_sums(l.outer, C, s1, s2, [&](std::int64_t r0, std::int64_t r1, float* __restrict a, float* __restrict b) {
      for (std::int64_t r = r0; r < r1; ++r) {
        const float* __restrict x = px + r * C;
#pragma omp simd
        for (std::int64_t c = 0; c < C; ++c) {
          const float d = x[c] - k[c];
          a[c] += d;
          b[c] += d * d;
        }
      }
    });
    for (std::int64_t c = 0; c < C; ++c) {
      const double m = s1[c] / n;
      mean[c] = shift[c] + m;
      var[c] = std::max(s2[c] / n - m * m, 0.0);
    }
    return;
  }
  std::vector<double> unused;
  channel_sums(l, s1, unused, [&](std::int64_t i, std::int64_t) { return std::pair<double, double>(px[i], 0.0); });
  for (std::int64_t c = 0; c < C; ++c) mean[c] = s1[c] / n;
  channel_sums(l, s2, unused, [&](std::int64_t i, std::int64_t c) {
    const double d = px[i] - mean[c];
    return std::pair<double, double>(d * d, 0.0);
  });
  for (std::int64_t c = 0; c < C; ++c) var[c] = s2[c] / n;
}

// y = x * scale[c] + shift[c], + residual when kAdd, then max(., 0) when kRelu.
template <bool kAdd, bool kRelu>
void affine_into(const Layout& l, const float* x, const float* scale, const float* shift, const float* residual,
                 float* y) {
  auto step = [](float v, const float* __restrict res, std::int64_t i) {
    if constexpr (kAdd) v += res[i];
    if constexpr (kRelu) v = std::max(v, 0.f);  // keeps a NaN, as relu does
    return v;
  };
  const auto C = l.channels, I = l.inner;
  if (I == 1) {  // channels last: vectorize over the channels of each row
    kernels::parallel_ranges(l.outer * C, [&](std::int64_t begin, std::int64_t end) {
      kernels::with_best_cpu([&] {  // cpu_dispatch.hpp
        const float* __restrict px = x;
        const float* __restrict sc = scale;
        const float* __restrict sh = shift;
        float* __restrict py = y;
        for (std::int64_t r = begin / C; r * C < end; ++r) {
          const std::int64_t c0 = std::max(begin - r * C, std::int64_t{0}), c1 = std::min(end - r * C, C);
#pragma omp simd
          for (std::int64_t c = c0; c < c1; ++c)
            py[r * C + c] = step(px[r * C + c] * sc[c] + sh[c], residual, r * C + c);
        }
      });
    });
    return;
  }
  kernels::parallel_rows(l.outer, C * I, [&](std::int64_t o) {
    for (std::int64_t c = 0; c < C; ++c) {
      const float s = scale[c], h = shift[c];
      const std::int64_t base = (o * C + c) * I;
#pragma omp simd
      for (std::int64_t i = 0; i < I; ++i) y[base + i] = step(x[base + i] * s + h, residual, base + i);
    }
  });
}

void affine_per_channel(const Layout& l, const float* x, const std::vector<float>& scale,
                        const std::vector<float>& shift, float* y, const float* residual = nullptr, bool relu = false) {
  const float *sc = scale.data(), *sh = shift.data();
  if (residual) relu ? affine_into<true, true>(l, x, sc, sh, residual, y) : affine_into<true, false>(l, x, sc, sh, residual, y);
  else relu ? affine_into<false, true>(l, x, sc, sh, residual, y) : affine_into<false, false>(l, x, sc, sh, residual, y);
}

Tensor vector_tensor(const std::vector<double>& v, const Shape& shape) {
  Tensor t = Tensor::empty(shape);
  float* p = t.data<float>();
  for (std::size_t i = 0; i < v.size(); ++i) p[i] = static_cast<float>(v[i]);
  return t;
}

// Per-channel gradients of gamma (sum g * xhat) and beta (sum g) into their slots.
void param_grads(const Recorded& rec, const std::vector<bool>& needs, std::vector<Tensor>& grads,
                 const std::vector<double>& sum_gx, const std::vector<double>& sum_g) {
  if (rec.gamma_at >= 0 && needs[rec.gamma_at]) grads[rec.gamma_at] = vector_tensor(sum_gx, rec.inputs[rec.gamma_at].shape());
  if (rec.beta_at >= 0 && needs[rec.beta_at]) grads[rec.beta_at] = vector_tensor(sum_g, rec.inputs[rec.beta_at].shape());
}

}  // namespace

BatchNormTrainResult batch_norm_train(const Tensor& x0, const Tensor& gamma, const Tensor& beta, int axis,
                                      float epsilon, const BatchNormEpilogue& epilogue) {
  Tensor x = as_float(x0, "batch_norm");
  const int a = normalize_axis(axis, x.ndim(), "batch_norm", x.shape());
  const Layout l = layout_of(x.shape(), a, a);
  check_param(gamma, l.channels, "gamma", "batch_norm");
  check_param(beta, l.channels, "beta", "batch_norm");
  const Tensor residual = epilogue.residual.defined() ? as_float(epilogue.residual, "batch_norm") : Tensor();
  if (residual.defined() && residual.shape() != x.shape())
    throw ValueError("batch_norm: the residual added after normalizing has shape " + shape_str(residual.shape()) +
                     ", but the input has shape " + shape_str(x.shape()) + "; they must be equal");
  const std::int64_t n = l.outer * l.inner;
  if (n == 0) throw ValueError("batch_norm: cannot compute batch statistics of an empty input " + shape_str(x.shape()));
  // The per-channel values the backward pass reads, shared with it: a compiled step's replay of the
  // forward pass (keras::function) recomputes them for the new batch and the new gamma.
  struct State {
    std::vector<float> g, inv, meanf;
  };
  const auto state = std::make_shared<State>();
  BatchNormTrainResult result;
  result.output = Tensor::empty(x.shape());
  result.mean = Tensor::empty({l.channels});
  result.variance = Tensor::empty({l.channels});
  result.count = n;
  auto forward = [x, gamma, beta, residual, l, epsilon, relu = epilogue.relu, state, out = result.output,
                  mean_out = result.mean, var_out = result.variance]() mutable {
    const float* px = x.data<float>();
    std::vector<double> mean(l.channels), var(l.channels);
    batch_moments(l, px, mean, var);
    State& st = *state;
    st.g = values_or(gamma, l.channels, 1.f);
    const std::vector<float> b = values_or(beta, l.channels, 0.f);
    st.inv.resize(l.channels);
    st.meanf.resize(l.channels);
    std::vector<float> scale(l.channels), shift(l.channels);
    for (std::int64_t c = 0; c < l.channels; ++c) {
      const double iv = 1.0 / std::sqrt(var[c] + double(epsilon));
      st.inv[c] = static_cast<float>(iv);
      st.meanf[c] = static_cast<float>(mean[c]);
      scale[c] = static_cast<float>(st.g[c] * iv);
      shift[c] = static_cast<float>(b[c] - mean[c] * st.g[c] * iv);
    }
    affine_per_channel(l, px, scale, shift, out.data<float>(), residual.defined() ? residual.data<float>() : nullptr,
                       relu);
    float* pm = mean_out.data<float>();
    float* pv = var_out.data<float>();
    for (std::int64_t c = 0; c < l.channels; ++c) {
      pm[c] = static_cast<float>(mean[c]);
      pv[c] = static_cast<float>(var[c]);
    }
  };
  forward();
  if (jit::tracing())
    jit::capture("batch_norm", {x, gamma, beta, residual}, {result.output, result.mean, result.variance}, forward);

  if (autodiff::recording()) {
    Recorded rec = recorded_inputs(x, gamma, beta);
    const int residual_at = residual.defined() ? static_cast<int>(rec.inputs.size()) : -1;
    if (residual.defined()) rec.inputs.push_back(residual);
    // A fused ReLU's gradient is masked by the output (> 0 exactly where its input is).
    const Tensor relu_out = epilogue.relu ? result.output : Tensor();
    autodiff::record(result.output, rec.inputs, [x, l, n, rec, state, residual_at, relu_out](
                                                    const Tensor& grad, const std::vector<bool>& needs) {
      const std::vector<float>&g = state->g, &inv = state->inv, &meanf = state->meanf;
      std::vector<Tensor> grads(needs.size());
      const float* px = x.data<float>();
      Tensor dy = grad;  // the gradient of the normalized output: grad, masked by a fused ReLU
      if (relu_out.defined()) dy = Tensor::empty(x.shape());
      const float* pg = dy.data<float>();
      std::vector<double> sum_g, sum_gx;
      grad_sums(l, px, grad.data<float>(), meanf, inv, sum_g, sum_gx,
                relu_out.defined() ? relu_out.data<float>() : nullptr, relu_out.defined() ? dy.data<float>() : nullptr);
      if (residual_at >= 0 && needs[residual_at]) grads[residual_at] = dy;
      param_grads(rec, needs, grads, sum_gx, sum_g);
      if (!needs[0]) return grads;
      grads[0] = Tensor::empty(x.shape());
      float* pd = grads[0].data<float>();
      const auto C = l.channels, I = l.inner;
      if (I == 1) {  // channels last: dx = k * (g - mean(g) - xhat * mean(g * xhat)) per channel
        std::vector<float> k(C), mg(C), mgx(C);
        for (std::int64_t c = 0; c < C; ++c) {
          k[c] = g[c] * inv[c];
          mg[c] = static_cast<float>(sum_g[c] / double(n));
          mgx[c] = static_cast<float>(sum_gx[c] / double(n));
        }
        const float *__restrict pk = k.data(), *__restrict pmg = mg.data(), *__restrict pmgx = mgx.data(),
                    *__restrict pm = meanf.data(), *__restrict piv = inv.data();
        kernels::parallel_row_ranges(l.outer, C, [&](std::int64_t r0, std::int64_t r1) {
          kernels::with_best_cpu([&] {
            for (std::int64_t r = r0; r < r1; ++r) {
              const float* __restrict xr = px + r * C;
              const float* __restrict gr = pg + r * C;
              float* __restrict dr = pd + r * C;
#pragma omp simd
              for (std::int64_t c = 0; c < C; ++c)
                dr[c] = pk[c] * (gr[c] - pmg[c] - (xr[c] - pm[c]) * piv[c] * pmgx[c]);
            }
          });
        });
        return grads;
      }
      kernels::parallel_rows(l.outer, C * I, [&](std::int64_t o) {
        for (std::int64_t c = 0; c < C; ++c) {
          const float k = g[c] * inv[c], mg = static_cast<float>(sum_g[c] / double(n)),
                      mgx = static_cast<float>(sum_gx[c] / double(n)), m = meanf[c], iv = inv[c];
          const std::int64_t base = (o * C + c) * I;
#pragma omp simd
          for (std::int64_t i = 0; i < I; ++i) {
            const float xhat = (px[base + i] - m) * iv;
            pd[base + i] = k * (pg[base + i] - mg - xhat * mgx);
          }
        }
      });
      return grads;
    }, {.name = "batch_norm"});
  }
  return result;
}

Tensor batch_norm_inference(const Tensor& x0, const Tensor& mean, const Tensor& variance, const Tensor& gamma,
                            const Tensor& beta, int axis, float epsilon) {
  Tensor x = as_float(x0, "batch_norm");
  const int a = normalize_axis(axis, x.ndim(), "batch_norm", x.shape());
  const Layout l = layout_of(x.shape(), a, a);
  check_param(gamma, l.channels, "gamma", "batch_norm");
  check_param(beta, l.channels, "beta", "batch_norm");
  check_param(mean, l.channels, "moving_mean", "batch_norm");
  check_param(variance, l.channels, "moving_variance", "batch_norm");
  std::vector<float> m = values_or(mean, l.channels, 0.f), v = values_or(variance, l.channels, 1.f);
  std::vector<float> inv(l.channels), scale, shift;
  for (std::int64_t c = 0; c < l.channels; ++c) inv[c] = static_cast<float>(1.0 / std::sqrt(double(v[c]) + double(epsilon)));
  batch_norm_scale_shift(mean, variance, gamma, beta, epsilon, scale, shift);
  Tensor y = Tensor::empty(x.shape());
  affine_per_channel(l, x.data<float>(), scale, shift, y.data<float>());
  if (autodiff::recording()) {
    Recorded rec = recorded_inputs(x, gamma, beta);
    autodiff::record(y, rec.inputs, [x, l, rec, m, inv, scale](const Tensor& grad, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(needs.size());
      const float* px = x.data<float>();
      const float* pg = grad.data<float>();
      if (needs[0]) {
        grads[0] = Tensor::empty(x.shape());
        affine_per_channel(l, pg, scale, std::vector<float>(l.channels, 0.f), grads[0].data<float>());
      }
      const bool want_params = (rec.gamma_at >= 0 && needs[rec.gamma_at]) || (rec.beta_at >= 0 && needs[rec.beta_at]);
      if (want_params) {
        std::vector<double> sum_g, sum_gx;
        grad_sums(l, px, pg, m, inv, sum_g, sum_gx);
        param_grads(rec, needs, grads, sum_gx, sum_g);
      }
      return grads;
    }, {.name = "batch_norm_inference"});
  }
  return y;
}

void batch_norm_scale_shift(const Tensor& mean, const Tensor& variance, const Tensor& gamma, const Tensor& beta,
                            float epsilon, std::vector<float>& scale, std::vector<float>& shift) {
  const std::int64_t channels = mean.size();
  check_param(variance, channels, "moving_variance", "batch_norm");
  check_param(gamma, channels, "gamma", "batch_norm");
  check_param(beta, channels, "beta", "batch_norm");
  std::vector<float> g = values_or(gamma, channels, 1.f), b = values_or(beta, channels, 0.f);
  std::vector<float> m = values_or(mean, channels, 0.f), v = values_or(variance, channels, 1.f);
  scale.resize(channels);
  shift.resize(channels);
  for (std::int64_t c = 0; c < channels; ++c) {
    const double iv = 1.0 / std::sqrt(double(v[c]) + double(epsilon));
    scale[c] = static_cast<float>(g[c] * iv);
    shift[c] = static_cast<float>(b[c] - m[c] * g[c] * iv);
  }
}

}  // namespace keras::ops
