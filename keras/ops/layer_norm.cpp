// layer_norm (keras/ops/normalization.hpp): each row normalized over the contiguous axes, scaled and shifted.
#include <algorithm>
#include <cmath>
#include <utility>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/normalization.hpp"
#include "keras/ops/normalization_detail.hpp"

namespace keras::ops {

using namespace normalization_detail;

namespace {

// gamma (or 1) and beta (or 0) as float32 vectors of the normalized size, into scale and shift.
void affine_params(const Tensor& gamma, const Tensor& beta, Tensor scale, Tensor shift) {
  const std::int64_t C = scale.size();
  const std::vector<float> g = values_or(gamma, C, 1.f), b = values_or(beta, C, 0.f);
  std::copy(g.begin(), g.end(), scale.data<float>());
  std::copy(b.begin(), b.end(), shift.data<float>());
}

// y = (x - mean) * inv * scale + shift over each row of the layout, keeping each row's mean and inv.
void layer_norm_forward(const Layout& l, float epsilon, const Tensor& x, const Tensor& scale, const Tensor& shift,
                        Tensor mean, Tensor inv, Tensor y) {
  const auto C = l.channels, I = l.inner, rows = l.outer * l.inner;
  // Row r = (o, i): its elements sit at (o * C + c) * I + i.
  auto at = [C, I](std::int64_t r, std::int64_t c) { return ((r / I) * C + c) * I + r % I; };
  const float* px = x.data<float>();
  float* pm = mean.data<float>();
  float* pi = inv.data<float>();
  float* py = y.data<float>();
  const float *__restrict pg = scale.data<float>(), *__restrict pb = shift.data<float>();
  if (I == 1) {  // the last axes: each row is contiguous; sums in double over vectorized loops
    kernels::parallel_row_ranges(rows, C, [&](std::int64_t r0, std::int64_t r1) {
      kernels::with_best_cpu([&] {  // cpu_dispatch.hpp
        for (std::int64_t r = r0; r < r1; ++r) {
          const float* __restrict xr = px + r * C;
          float* __restrict yr = py + r * C;
          double s = 0, q = 0;
#pragma omp simd reduction(+ : s)
          for (std::int64_t c = 0; c < C; ++c) s += xr[c];
          const float mu = static_cast<float>(s / double(C));
#pragma omp simd reduction(+ : q)
          for (std::int64_t c = 0; c < C; ++c) q += double(xr[c] - mu) * (xr[c] - mu);
          const float iv = static_cast<float>(1.0 / std::sqrt(q / double(C) + double(epsilon)));
          pm[r] = mu;
          pi[r] = iv;
#pragma omp simd
          for (std::int64_t c = 0; c < C; ++c) yr[c] = (xr[c] - mu) * iv * pg[c] + pb[c];
        }
      });
    });
    return;
  }
  kernels::parallel_rows(rows, C, [&](std::int64_t r) {
    double s = 0;
    for (std::int64_t c = 0; c < C; ++c) s += px[at(r, c)];
    const double mu = s / double(C);
    double q = 0;
    for (std::int64_t c = 0; c < C; ++c) {
      const double d = px[at(r, c)] - mu;
      q += d * d;
    }
    const double iv = 1.0 / std::sqrt(q / double(C) + double(epsilon));
    pm[r] = static_cast<float>(mu);
    pi[r] = static_cast<float>(iv);
    for (std::int64_t c = 0; c < C; ++c) {
      const std::int64_t k = at(r, c);
      py[k] = static_cast<float>((px[k] - mu) * iv * pg[c] + pb[c]);
    }
  });
}

// dx, dgamma and dbeta (each when defined) from the upstream gradient g of layer_norm_forward's y.
void layer_norm_backward(const Layout& l, const Tensor& x, const Tensor& grad, const Tensor& mean, const Tensor& inv,
                         const Tensor& scale, Tensor dx, Tensor dgamma, Tensor dbeta) {
  const auto C = l.channels, I = l.inner, rows = l.outer * l.inner;
  auto at = [C, I](std::int64_t r, std::int64_t c) { return ((r / I) * C + c) * I + r % I; };
  const float* px = x.data<float>();
  const float* pg = grad.data<float>();
  const float* pm = mean.data<float>();
  const float* pi = inv.data<float>();
  const float* __restrict gamma_c = scale.data<float>();
  if (dx.defined() && I == 1) {  // the last axes: contiguous rows, vectorized
    float* pd = dx.data<float>();
    kernels::parallel_row_ranges(rows, C, [&](std::int64_t r0, std::int64_t r1) {
      kernels::with_best_cpu([&] {
        for (std::int64_t r = r0; r < r1; ++r) {
          const float* __restrict xr = px + r * C;
          const float* __restrict gr = pg + r * C;
          float* __restrict dr = pd + r * C;
          const float mu = pm[r], iv = pi[r];
          double sa = 0, sb = 0;
#pragma omp simd reduction(+ : sa, sb)
          for (std::int64_t c = 0; c < C; ++c) {
            const float gy = gr[c] * gamma_c[c];
            sa += gy;
            sb += double(gy) * ((xr[c] - mu) * iv);
          }
          const float ma = static_cast<float>(sa / double(C)), mb = static_cast<float>(sb / double(C));
#pragma omp simd
          for (std::int64_t c = 0; c < C; ++c) dr[c] = iv * (gr[c] * gamma_c[c] - ma - (xr[c] - mu) * iv * mb);
        }
      });
    });
  } else if (dx.defined()) {
    float* pd = dx.data<float>();
    kernels::parallel_rows(rows, C, [&](std::int64_t r) {
      double sa = 0, sb = 0;
      for (std::int64_t c = 0; c < C; ++c) {
        const std::int64_t k = at(r, c);
        const double gy = double(pg[k]) * gamma_c[c];
        sa += gy;
        sb += gy * (px[k] - pm[r]) * pi[r];
      }
      const double ma = sa / double(C), mb = sb / double(C);
      for (std::int64_t c = 0; c < C; ++c) {
        const std::int64_t k = at(r, c);
        const double xhat = double(px[k] - pm[r]) * pi[r];
        pd[k] = static_cast<float>(pi[r] * (double(pg[k]) * gamma_c[c] - ma - xhat * mb));
      }
    });
  }
  if (!dgamma.defined() && !dbeta.defined()) return;
  std::vector<double> sum_g, sum_gx;
  if (I == 1) {
    row_sums(rows, C, sum_g, sum_gx, [&](std::int64_t r0, std::int64_t r1, float* __restrict a, float* __restrict b) {
      for (std::int64_t r = r0; r < r1; ++r) {
        const float* __restrict xr = px + r * C;
        const float* __restrict gr = pg + r * C;
        const float mu = pm[r], iv = pi[r];
#pragma omp simd
        for (std::int64_t c = 0; c < C; ++c) {
          a[c] += gr[c];
          b[c] += gr[c] * (xr[c] - mu) * iv;
        }
      }
    });
  } else {
    channel_sums(l, sum_g, sum_gx, [&](std::int64_t k, std::int64_t) {
      const std::int64_t r = (k / (C * I)) * I + k % I;
      return std::pair<double, double>(pg[k], double(pg[k]) * (px[k] - pm[r]) * pi[r]);
    });
  }
  auto store = [](const std::vector<double>& v, Tensor t) {
    if (t.defined()) std::transform(v.begin(), v.end(), t.data<float>(), [](double d) { return static_cast<float>(d); });
  };
  store(sum_gx, dgamma);
  store(sum_g, dbeta);
}

}  // namespace

Tensor layer_norm(const Tensor& x0, const Tensor& gamma, const Tensor& beta, std::vector<int> axes, float epsilon) {
  Tensor x = as_float(x0, "layer_norm");
  if (axes.empty()) throw ValueError("layer_norm: no axes to normalize over");
  for (int& ax : axes) ax = normalize_axis(ax, x.ndim(), "layer_norm", x.shape());
  std::sort(axes.begin(), axes.end());
  for (std::size_t k = 1; k < axes.size(); ++k)
    if (axes[k] != axes[k - 1] + 1)
      throw ValueError("layer_norm: the normalized axes must be contiguous, got a gap in the axes of input shape " +
                       shape_str(x.shape()));
  const Layout l = layout_of(x.shape(), axes.front(), axes.back());
  check_param(gamma, l.channels, "gamma", "layer_norm");
  check_param(beta, l.channels, "beta", "layer_norm");
  if (l.channels == 0) throw ValueError("layer_norm: cannot normalize over empty axes of " + shape_str(x.shape()));
  const auto C = l.channels, rows = l.outer * l.inner;
  // Everything a replay of a compiled function recomputes (gamma and beta are read at each call).
  Tensor mean = Tensor::empty({rows}), inv = Tensor::empty({rows}), y = Tensor::empty(x.shape());
  Tensor scale = Tensor::empty({C}), shift = Tensor::empty({C});
  auto forward = [l, epsilon](const Tensor& x, const Tensor& gamma, const Tensor& beta, Tensor scale, Tensor shift,
                              Tensor mean, Tensor inv, Tensor y) {
    affine_params(gamma, beta, scale, shift);
    layer_norm_forward(l, epsilon, x, scale, shift, mean, inv, y);
  };
  forward(x, gamma, beta, scale, shift, mean, inv, y);
  if (jit::tracing())
    jit::capture("layer_norm", {x, gamma, beta}, {y, mean, inv, scale, shift},
                 [=] { forward(x, gamma, beta, scale, shift, mean, inv, y); });
  if (autodiff::recording()) {
    Recorded rec = recorded_inputs(x, gamma, beta);
    autodiff::record(y, rec.inputs, [x, l, rec, scale, mean, inv](const Tensor& grad, const std::vector<bool>& needs) {
      auto wanted = [&](int at) { return at >= 0 && needs[at] ? Tensor::empty(rec.inputs[at].shape()) : Tensor(); };
      const Tensor dx = needs[0] ? Tensor::empty(x.shape()) : Tensor();
      const Tensor dgamma = wanted(rec.gamma_at), dbeta = wanted(rec.beta_at);
      const Tensor g = grad.dtype() == DType::float32 ? grad : grad.astype(DType::float32);
      layer_norm_backward(l, x, g, mean, inv, scale, dx, dgamma, dbeta);
      if (jit::tracing())
        jit::capture("layer_norm gradient", {x, g, mean, inv, scale}, {dx, dgamma, dbeta},
                     [=] { layer_norm_backward(l, x, g, mean, inv, scale, dx, dgamma, dbeta); });
      std::vector<Tensor> grads(needs.size());
      grads[0] = dx;
      if (dgamma.defined()) grads[rec.gamma_at] = dgamma;
      if (dbeta.defined()) grads[rec.beta_at] = dbeta;
      return grads;
    }, {.name = "layer_norm"});
  }
  return y;
}

}  // namespace keras::ops
