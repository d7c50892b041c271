#include "keras/ops/nn.hpp"

#include <cmath>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/matmul.hpp"
#include "keras/kernels/packed_weights.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/kernels/softmax.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/eltwise_derivative.hpp"
#include "keras/ops/float64_paths.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"
#include "keras/visit_dtype.hpp"

namespace keras::ops {
namespace {

using kernels::Eltwise;

Tensor as_float(const Tensor& t, const char* op) {
  if (!t.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  return t.dtype() == DType::float32 ? t : t.astype(DType::float32);
}

// Shape of a [.., k] tensor as a matrix [rows, k].
std::int64_t rows_of(const Tensor& x) { return x.ndim() == 0 || x.dim(-1) == 0 ? 0 : x.size() / x.dim(-1); }

void check_last_axis(const Tensor& x, int axis, const char* op) {
  if (x.ndim() == 0) throw ValueError(std::string(op) + " needs at least one axis, got a scalar");
  if (axis != -1 && axis != x.ndim() - 1)
    throw ValueError(std::string(op) + ": only the last axis is supported, got axis " + std::to_string(axis) +
                     " for shape " + shape_str(x.shape()));
}

// The gradients behind a dense layer's product, from g and the activation's output y: dz = g * act'(z) (g itself
// when linear) and, when `bias` is asked, db = the column sums of dz, in one pass.
// (Each raw-kernel helper below registers its replay when a compiled function traces a gradient pass.)
std::pair<Tensor, Tensor> activation_and_bias_grads(const Tensor& g, const Tensor& y, Eltwise act, bool bias) {
  if (act == Eltwise::linear && !bias) return {g, Tensor()};
  const Tensor dz = act == Eltwise::linear ? g : Tensor::empty(g.shape());
  if (!bias) {
    auto compute = [](const Tensor& g, const Tensor& y, const Tensor& dz, Eltwise act) {
      kernels::fused_activation_backward(act, y.data<float>(), g.data<float>(), dz.data<float>(), g.size());
    };
    compute(g, y, dz, act);
    if (jit::tracing()) jit::capture("activation gradient", {g, y}, {dz}, [=] { compute(g, y, dz, act); });
    return {dz, Tensor()};
  }
  const Tensor db = Tensor::empty({g.dim(-1)});
  auto compute = [](const Tensor& g, const Tensor& y, const Tensor& dz, const Tensor& db, Eltwise act) {
    kernels::fused_activation_backward_with_column_sums(act, y.data<float>(), g.data<float>(), dz.data<float>(),
                                                        db.data<float>(), rows_of(g), g.dim(-1));
  };
  compute(g, y, dz, db, act);
  if (jit::tracing()) {
    auto replay = [=] { compute(g, y, dz, db, act); };
    if (act == Eltwise::linear) jit::capture("bias gradient", {g}, {db}, replay);  // dz is g
    else jit::capture("activation and bias gradients", {g, y}, {dz, db}, replay);
  }
  return {dz, db};
}

// grads = a b (with the transposes asked), a new tensor of `shape` (the raw backward of dense).
Tensor matmul_into_new(const Tensor& a, const Tensor& b, const Shape& shape, kernels::MatmulArgs args) {
  Tensor out = Tensor::empty(shape);
  kernels::matmul(a.data<float>(), b.data<float>(), out.data<float>(), args);
  if (jit::tracing())
    jit::capture("matmul gradient", {a, b}, {out},
                 [=] { kernels::matmul(a.data<float>(), b.data<float>(), out.data<float>(), args); });
  return out;
}

}  // namespace

Tensor dense(const Tensor& x0, const Tensor& kernel, const Tensor& bias, Eltwise act) {
  if (detail::any_float64(x0, kernel) || detail::any_float64(bias)) {
    if (kernel.ndim() != 2 || x0.ndim() < 1 || x0.dim(-1) != kernel.dim(0))
      throw ValueError("matmul: incompatible shapes " + shape_str(x0.shape()) + " and " + shape_str(kernel.shape()) +
                       "; the last axis of the input must equal the first axis of the kernel");
    const Tensor y = detail::matmul_f64(x0, kernel, bias);
    if (autodiff::recording()) {
      const Tensor x = x0, w = kernel;
      std::vector<Tensor> inputs{x, w};
      if (bias.defined()) inputs.push_back(bias);
      autodiff::record(y, inputs, [x, w](const Tensor& g, const std::vector<bool>& needs) {
        // Recorded products over the rows: dx = g w^T, dw = x^T g, db = the column sums of g.
        const std::int64_t k = w.dim(0), n = w.dim(1);
        const Tensor x2 = reshape(x, {-1, k}), g2 = reshape(g, {-1, n});
        std::vector<Tensor> grads(needs.size());
        if (needs[0]) grads[0] = reshape(batch_matmul(g2, w, false, true), x.shape());
        if (needs[1]) grads[1] = batch_matmul(x2, g2, true, false);
        if (needs.size() > 2 && needs[2]) grads[2] = sum(g2, {0});
        return grads;
      }, {.name = "dense", .differentiable_backward = true});
    }
    return act == Eltwise::linear ? y : eltwise(y, act);
  }
  Tensor x = as_float(x0, "dense");
  if (kernel.ndim() != 2 || x.ndim() < 1 || x.dim(-1) != kernel.dim(0))
    throw ValueError("matmul: incompatible shapes " + shape_str(x.shape()) + " and " + shape_str(kernel.shape()) +
                     "; the last axis of the input must equal the first axis of the kernel");
  if (bias.defined() && (bias.ndim() != 1 || bias.dim(0) != kernel.dim(1)))
    throw ValueError("dense: bias of shape " + shape_str(bias.shape()) + " does not match kernel " +
                     shape_str(kernel.shape()));
  const auto m = rows_of(x), k = kernel.dim(0), n = kernel.dim(1);
  Shape out_shape = x.shape();
  out_shape.back() = n;
  Tensor y = Tensor::empty(out_shape);
  // The product's arguments, read from the tensors at every call (a compiled function replays it).
  auto args = [m, n, k, act](const Tensor& bias) {
    return kernels::MatmulArgs{.m = m, .n = n, .k = k, .bias = bias.defined() ? bias.data<float>() : nullptr,
                               .activation = act};
  };
  if (kernel.is_variable() && !autodiff::recording() && kernels::packed_matmul_fits(args(bias))) {
    // Inference against a layer's weights (no tape, no trace): their packed copy is kept from call to call.
    kernels::packed_matmul(x.data<float>(), kernel.data<float>(), kernel.version(), y.data<float>(), args(bias));
    return y;
  }
  auto compute = [args](const Tensor& x, const Tensor& kernel, const Tensor& bias, const Tensor& y) {
    kernels::matmul(x.data<float>(), kernel.data<float>(), y.data<float>(), args(bias));
  };
  compute(x, kernel, bias, y);
  if (jit::tracing()) jit::capture("dense", {x, kernel, bias}, {y}, [=] { compute(x, kernel, bias, y); });
  if (autodiff::recording()) {
    std::vector<Tensor> inputs{x, kernel};
    if (bias.defined()) inputs.push_back(bias);
    autodiff::record(y, inputs, [x, kernel, y, act, m, n, k](const Tensor& g, const std::vector<bool>& needs) {
      std::vector<Tensor> grads(needs.size());
      if (autodiff::recording()) {  // an outer tape differentiates this backward pass: recorded ops
        const Tensor dz = reshape(detail::fused_activation_grad(act, g, y), {m, n});
        if (needs[0]) grads[0] = reshape(matmul(dz, transpose(kernel, {1, 0})), x.shape());
        if (needs[1]) grads[1] = matmul(transpose(reshape(x, {m, k}), {1, 0}), dz);
        if (needs.size() > 2 && needs[2]) grads[2] = sum(dz, {0});
        return grads;
      }
      const bool bias = needs.size() > 2 && needs[2];
      auto [dz, db] = activation_and_bias_grads(g, y, act, bias);
      if (needs[0]) grads[0] = matmul_into_new(dz, kernel, x.shape(), {.m = m, .n = k, .k = n, .trans_b = true});
      if (needs[1]) grads[1] = matmul_into_new(x, dz, kernel.shape(), {.m = k, .n = n, .k = m, .trans_a = true});
      if (bias) grads[2] = db;
      return grads;
    }, {.name = "dense", .differentiable_backward = true});
  }
  return y;
}

Tensor matmul(const Tensor& a, const Tensor& b) { return dense(a, b, Tensor()); }

Tensor bias_add(const Tensor& x, const Tensor& bias) { return add(x, bias); }

Tensor eltwise(const Tensor& input, Eltwise f, float alpha, float beta) {
  if (detail::any_float64(input)) {  // double precision; the backward as recorded ops
    Tensor out = detail::eltwise_f64(input, f, alpha, beta);
    if (autodiff::recording())
      autodiff::record(out, {input}, [input, out, f, alpha, beta](const Tensor& g, const std::vector<bool>&) {
        return std::vector<Tensor>{multiply(g, detail::eltwise_derivative(f, alpha, beta, input, out))};
      }, {.name = "activation", .differentiable_backward = true});
    return out;
  }
  Tensor x = as_float(input, "activation");
  Tensor out = Tensor::empty(x.shape());
  kernels::eltwise_forward(f, alpha, beta, x.data<float>(), out.data<float>(), x.size());
  if (jit::tracing())
    jit::capture("activation", {x}, {out}, [=] {
      kernels::eltwise_forward(f, alpha, beta, x.data<float>(), out.data<float>(), x.size());
    });
  if (autodiff::recording())
    autodiff::record(out, {x}, [x, out, f, alpha, beta](const Tensor& g, const std::vector<bool>&) {
      if (autodiff::recording())  // an outer tape differentiates this backward pass
        return std::vector<Tensor>{multiply(g, detail::eltwise_derivative(f, alpha, beta, x, out))};
      Tensor dx = Tensor::empty(x.shape());
      kernels::eltwise_backward(f, alpha, beta, x.data<float>(), g.data<float>(), dx.data<float>(), x.size());
      if (jit::tracing())
        jit::capture("activation gradient", {x, g}, {dx}, [=] {
          kernels::eltwise_backward(f, alpha, beta, x.data<float>(), g.data<float>(), dx.data<float>(), x.size());
        });
      return std::vector<Tensor>{dx};
    }, {.name = "activation", .differentiable_backward = true});
  return out;
}

Tensor relu(const Tensor& x, float negative_slope) { return eltwise(x, Eltwise::relu, negative_slope); }
Tensor sigmoid(const Tensor& x) { return eltwise(x, Eltwise::logistic); }
Tensor tanh(const Tensor& x) { return eltwise(x, Eltwise::tanh); }
Tensor softplus(const Tensor& x) { return eltwise(x, Eltwise::soft_relu); }

namespace {
Tensor softmax_op(const Tensor& input, int axis, bool log) {
  Tensor x = as_float(input, log ? "log_softmax" : "softmax");
  check_last_axis(x, axis, log ? "log_softmax" : "softmax");
  const auto rows = rows_of(x), cols = x.dim(-1);
  Tensor y = Tensor::empty(x.shape());
  kernels::softmax_forward(x.data<float>(), y.data<float>(), rows, cols, log);
  if (jit::tracing())
    jit::capture(log ? "log_softmax" : "softmax", {x}, {y},
                 [=] { kernels::softmax_forward(x.data<float>(), y.data<float>(), rows, cols, log); });
  if (autodiff::recording())
    autodiff::record(y, {x}, [y, rows, cols, log](const Tensor& g, const std::vector<bool>&) {
      if (autodiff::recording()) {  // an outer tape differentiates this backward pass
        if (log) return std::vector<Tensor>{subtract(g, multiply(exp(y), sum(g, {-1}, true)))};
        return std::vector<Tensor>{multiply(y, subtract(g, sum(multiply(g, y), {-1}, true)))};
      }
      Tensor dx = Tensor::empty(y.shape());
      kernels::softmax_backward(y.data<float>(), g.data<float>(), dx.data<float>(), rows, cols, log);
      return std::vector<Tensor>{dx};
    }, {.name = log ? "log_softmax" : "softmax", .differentiable_backward = true});
  return y;
}
}  // namespace

// Over another axis than the last: that axis is swapped last, and back (the transposes carry the gradient).
Tensor softmax_any_axis(const Tensor& x, int axis, bool log) {
  const char* op = log ? "log_softmax" : "softmax";
  if (!x.defined()) throw ValueError(std::string(op) + " received an undefined tensor");
  const int rank = x.ndim();
  if (rank == 0 || axis == -1 || axis == rank - 1) return softmax_op(x, axis, log);
  if (axis < -rank || axis >= rank)
    throw ValueError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for shape " +
                     shape_str(x.shape()));
  std::vector<int> perm(static_cast<std::size_t>(rank));
  for (int i = 0; i < rank; ++i) perm[static_cast<std::size_t>(i)] = i;
  std::swap(perm[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)], perm.back());
  return transpose(softmax_op(transpose(x, perm), -1, log), perm);
}

Tensor softmax(const Tensor& x, int axis) { return softmax_any_axis(x, axis, false); }
Tensor log_softmax(const Tensor& x, int axis) { return softmax_any_axis(x, axis, true); }

Tensor sparse_softmax_cross_entropy(const Tensor& labels, const Tensor& logits0) {
  Tensor logits = as_float(logits0, "sparse_softmax_cross_entropy");
  check_last_axis(logits, -1, "sparse_softmax_cross_entropy");
  Shape row_shape(logits.shape().begin(), logits.shape().end() - 1);
  // ids, lsm and loss are filled by compute(), which a compiled function replays (the checks included).
  if (labels.dtype() == DType::string) labels.astype(DType::int64);  // throws the conversion's error
  Tensor ids = labels.dtype() == DType::int64 ? labels : Tensor::empty(labels.shape(), DType::int64);
  if (ids.size() != shape_size(row_shape))
    throw ValueError("sparse_categorical_crossentropy: labels of shape " + shape_str(labels.shape()) +
                     " do not match predictions of shape " + shape_str(logits.shape()) +
                     "; labels must hold one integer class id per prediction row");
  const auto rows = rows_of(logits), cols = logits.dim(-1);
  Tensor lsm = Tensor::empty(logits.shape());
  Tensor loss = Tensor::empty(row_shape);
  auto compute = [](const Tensor& labels, const Tensor& logits, const Tensor& ids, const Tensor& lsm,
                    const Tensor& loss, std::int64_t rows, std::int64_t cols) {
    if (ids.raw_data() != labels.raw_data())  // the conversion astype(int64) makes, into ids
      keras::visit_dtype(labels.dtype(), [&](auto zero) {
        using T = decltype(zero);
        const T* src = labels.data<T>();
        auto* dst = ids.data<std::int64_t>();
        for (std::int64_t i = 0; i < ids.size(); ++i) dst[i] = static_cast<std::int64_t>(src[i]);
      }, "sparse_categorical_crossentropy labels");
    const auto* pid = ids.data<std::int64_t>();
    for (std::int64_t r = 0; r < rows; ++r)
      if (pid[r] < 0 || pid[r] >= cols)
        throw ValueError("sparse_categorical_crossentropy: label " + std::to_string(pid[r]) + " is outside [0, " +
                         std::to_string(cols) + ") for predictions of shape " + shape_str(logits.shape()));
    kernels::softmax_forward(logits.data<float>(), lsm.data<float>(), rows, cols, true);
    const float* pl = lsm.data<float>();
    float* po = loss.data<float>();
    for (std::int64_t r = 0; r < rows; ++r) po[r] = -pl[r * cols + pid[r]];
  };
  compute(labels, logits, ids, lsm, loss, rows, cols);
  if (jit::tracing())
    jit::capture("sparse_softmax_cross_entropy", {labels, logits}, {ids, lsm, loss},
                 [=] { compute(labels, logits, ids, lsm, loss, rows, cols); });
  if (autodiff::recording())
    autodiff::record(loss, {logits}, [logits, lsm, ids, rows, cols](const Tensor& g, const std::vector<bool>&) {
      if (autodiff::recording())  // an outer tape differentiates this backward pass: g (softmax - one_hot)
        return std::vector<Tensor>{
            multiply(expand_dims(g, -1), subtract(softmax(logits), one_hot(ids, cols)))};
      Tensor d = Tensor::empty(lsm.shape());
      auto compute = [](const Tensor& lsm, const Tensor& g, const Tensor& ids, const Tensor& d, std::int64_t rows,
                        std::int64_t cols) {
        const float* pl = lsm.data<float>();
        const float* pg = g.data<float>();
        const auto* pid = ids.data<std::int64_t>();
        float* pd = d.data<float>();
        kernels::parallel_rows(rows, cols, [&](std::int64_t r) {
          for (std::int64_t c = 0; c < cols; ++c) pd[r * cols + c] = pg[r] * std::exp(pl[r * cols + c]);
          pd[r * cols + pid[r]] -= pg[r];
        });
      };
      compute(lsm, g, ids, d, rows, cols);
      if (jit::tracing())
        jit::capture("sparse_softmax_cross_entropy gradient", {lsm, g, ids}, {d},
                     [=] { compute(lsm, g, ids, d, rows, cols); });
      return std::vector<Tensor>{d};
    }, {.name = "sparse_softmax_cross_entropy", .differentiable_backward = true});
  return loss;
}

Tensor softmax_cross_entropy(const Tensor& target, const Tensor& logits) {
  if (target.shape() != logits.shape())
    throw ValueError("categorical_crossentropy: targets of shape " + shape_str(target.shape()) +
                     " do not match predictions of shape " + shape_str(logits.shape()) +
                     "; use sparse_categorical_crossentropy for integer labels");
  return negative(sum(multiply(target, log_softmax(logits)), {-1}));
}

}  // namespace keras::ops
