#include "losses/ctc.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
  if (a == kNegInf) return b;
  if (b == kNegInf) return a;
  const double m = std::max(a, b);
  return m + std::log1p(std::exp(-std::abs(a - b)));
}

// One sample: -log p(label | logits) and, when `grad` is not null, its gradient with respect to the
// logits [T, C] (softmax - posterior of each class at each step), by the forward-backward recursions over
// the label with blanks between and around its symbols (Graves et al. 2006), in log space.
double sample_loss(const float* logits, std::int64_t T, std::int64_t C, const std::vector<std::int64_t>& label,
                   float* grad) {
  std::vector<double> logp(static_cast<std::size_t>(T * C));
  for (std::int64_t t = 0; t < T; ++t) {  // log_softmax of each step
    const float* z = logits + t * C;
    const double m = *std::max_element(z, z + C);
    double s = 0;
    for (std::int64_t c = 0; c < C; ++c) s += std::exp(z[c] - m);
    const double lse = m + std::log(s);
    for (std::int64_t c = 0; c < C; ++c) logp[static_cast<std::size_t>(t * C + c)] = z[c] - lse;
  }
  const std::int64_t L = static_cast<std::int64_t>(label.size()), S = 2 * L + 1;
  auto symbol = [&](std::int64_t s) { return s % 2 == 0 ? std::int64_t{0} : label[static_cast<std::size_t>(s / 2)]; };
  auto lp = [&](std::int64_t t, std::int64_t s) { return logp[static_cast<std::size_t>(t * C + symbol(s))]; };
  // A step may come from s, s - 1, or s - 2 when s is a symbol unlike the one two back.
  auto can_skip = [&](std::int64_t s) { return s >= 2 && s % 2 == 1 && symbol(s) != symbol(s - 2); };
  std::vector<double> alpha(static_cast<std::size_t>(T * S), kNegInf), beta(alpha.size(), kNegInf);
  auto at = [S](std::vector<double>& v, std::int64_t t, std::int64_t s) -> double& {
    return v[static_cast<std::size_t>(t * S + s)];
  };
  if (T == 0) return L == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  at(alpha, 0, 0) = lp(0, 0);
  if (S > 1) at(alpha, 0, 1) = lp(0, 1);
  for (std::int64_t t = 1; t < T; ++t)
    for (std::int64_t s = 0; s < S; ++s) {
      double a = at(alpha, t - 1, s);
      if (s >= 1) a = log_add(a, at(alpha, t - 1, s - 1));
      if (can_skip(s)) a = log_add(a, at(alpha, t - 1, s - 2));
      at(alpha, t, s) = a == kNegInf ? kNegInf : a + lp(t, s);
    }
  const double log_likelihood = S > 1 ? log_add(at(alpha, T - 1, S - 1), at(alpha, T - 1, S - 2)) : at(alpha, T - 1, 0);
  if (grad == nullptr) return -log_likelihood;
  std::fill(grad, grad + T * C, 0.f);
  if (log_likelihood == kNegInf) return std::numeric_limits<double>::infinity();
  at(beta, T - 1, S - 1) = lp(T - 1, S - 1);
  if (S > 1) at(beta, T - 1, S - 2) = lp(T - 1, S - 2);
  for (std::int64_t t = T - 1; t-- > 0;)
    for (std::int64_t s = S; s-- > 0;) {
      double b = at(beta, t + 1, s);
      if (s + 1 < S) b = log_add(b, at(beta, t + 1, s + 1));
      if (s + 2 < S && can_skip(s + 2)) b = log_add(b, at(beta, t + 1, s + 2));
      at(beta, t, s) = b == kNegInf ? kNegInf : b + lp(t, s);
    }
  std::vector<double> posterior(static_cast<std::size_t>(C));
  for (std::int64_t t = 0; t < T; ++t) {
    std::fill(posterior.begin(), posterior.end(), kNegInf);
    for (std::int64_t s = 0; s < S; ++s) {
      const double g = at(alpha, t, s) + at(beta, t, s) - lp(t, s);
      auto& slot = posterior[static_cast<std::size_t>(symbol(s))];
      slot = log_add(slot, g);
    }
    for (std::int64_t c = 0; c < C; ++c)
      grad[t * C + c] = static_cast<float>(std::exp(logp[static_cast<std::size_t>(t * C + c)]) -
                                           std::exp(posterior[static_cast<std::size_t>(c)] - log_likelihood));
  }
  return -log_likelihood;
}

}  // namespace

Tensor ctc(const Tensor& y_true, const Tensor& y_pred) {
  if (y_true.ndim() != 2)
    throw ValueError("ctc: y_true must be [batch, max_label_length] integer labels, got shape " +
                     shape_str(y_true.shape()));
  if (y_pred.ndim() != 3)
    throw ValueError("ctc: y_pred must be [batch, time, classes] logits, got shape " + shape_str(y_pred.shape()));
  if (y_true.dim(0) != y_pred.dim(0))
    throw ValueError("ctc: y_true of shape " + shape_str(y_true.shape()) + " and y_pred of shape " +
                     shape_str(y_pred.shape()) + " differ in batch size");
  const Tensor logits = y_pred.dtype() == DType::float32 ? y_pred : y_pred.astype(DType::float32);
  const Tensor labels = y_true.astype(DType::int64);
  const std::int64_t N = logits.dim(0), T = logits.dim(1), C = logits.dim(2), M = labels.dim(1);
  std::vector<std::vector<std::int64_t>> sequences(static_cast<std::size_t>(N));
  for (std::int64_t n = 0; n < N; ++n) {
    const auto* row = labels.data<std::int64_t>() + n * M;
    const auto length = std::count_if(row, row + M, [](std::int64_t v) { return v != 0; });
    for (std::int64_t i = 0; i < length; ++i) {
      if (row[i] < 0 || row[i] >= C)
        throw ValueError("ctc: label " + std::to_string(row[i]) + " is outside [0, " + std::to_string(C) +
                         ") for y_pred of shape " + shape_str(y_pred.shape()));
      sequences[static_cast<std::size_t>(n)].push_back(row[i]);
    }
  }
  const bool recording = autodiff::recording();
  Tensor loss = Tensor::empty({N});
  Tensor grad = recording ? Tensor::empty(logits.shape()) : Tensor();
  kernels::parallel_rows(N, T * C * (2 * M + 1), [&](std::int64_t n) {
    loss.data<float>()[n] = static_cast<float>(sample_loss(logits.data<float>() + n * T * C, T, C,
                                                           sequences[static_cast<std::size_t>(n)],
                                                           recording ? grad.data<float>() + n * T * C : nullptr));
  });
  if (recording)
    autodiff::record(loss, {logits}, [grad](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{ops::multiply(grad, g.reshape({g.size(), 1, 1}))};
    }, {.name = "ctc"});
  return loss;
}

KERAS_FIELDS(CTCOptions)

json CTC::get_config() const { return loss_config(*this, options_); }

std::shared_ptr<Loss> CTC::from_config(const json& config) { return loss_from_config<CTC, CTCOptions>(config); }

namespace {
const bool registered = register_class<Loss, CTC>("CTC", {"ctc"});
}

}  // namespace keras::losses
