#include "keras/ops/pooling.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/function/capture.hpp"
#include "keras/kernels/pooling.hpp"
#include "keras/ops/conv_checks.hpp"

namespace keras::ops {
namespace {

Tensor pool(kernels::Pooling kind, const Tensor& input, const Sizes& pool0, const Sizes& strides0,
            const std::string& padding0) {
  const char* op = kind == kernels::Pooling::max ? "max_pool" : "avg_pool";
  Tensor x = conv_checks::as_float(input, op);
  const auto rank = conv_checks::spatial_rank(x, op);
  const Sizes pool_size = conv_checks::per_axis(pool0, rank, "pool_size", op);
  const Sizes strides = conv_checks::per_axis(strides0.empty() ? pool_size : strides0, rank, "strides", op);
  const std::string padding = normalize_padding(padding0, op);
  kernels::PoolArgs a{.rank = rank, .n = x.dim(0), .c = x.dim(-1)};
  Shape out_shape{a.n};
  for (std::int64_t i = 0; i < rank; ++i) {
    a.in[i] = x.dim(i + 1);
    a.k[i] = pool_size[i];
    a.stride[i] = strides[i];
    const auto p = conv_padding(a.in[i], a.k[i], a.stride[i], padding);
    a.pad_l[i] = p.before;
    a.pad_r[i] = p.after;
    a.out[i] = conv_checks::output_length(a.in[i], a.k[i], a.stride[i], padding, 1, op, x.shape());
    out_shape.push_back(a.out[i]);
  }
  out_shape.push_back(a.c);
  Tensor y = Tensor::empty(out_shape);
  const bool record = autodiff::recording();
  Tensor workspace;  // bytes for max pooling's backward, held in a float tensor
  if (record && kind == kernels::Pooling::max) {
    const auto bytes = static_cast<std::int64_t>(kernels::pool_workspace_bytes(kind, a));
    workspace = Tensor::empty({(bytes + 3) / 4});
  }
  kernels::pool_forward(kind, x.data<float>(), y.data<float>(), workspace.defined() ? workspace.data<float>() : nullptr,
                        a);
  if (jit::tracing())  // the replay refreshes the workspace the backward reads too
    jit::capture(op, {x}, {y, workspace}, [=] {
      kernels::pool_forward(kind, x.data<float>(), y.data<float>(),
                            workspace.defined() ? workspace.data<float>() : nullptr, a);
    });
  if (record)
    autodiff::record(y, {x}, [kind, a, workspace, shape = x.shape()](const Tensor& g, const std::vector<bool>&) {
      Tensor dx = Tensor::empty(shape);
      kernels::pool_backward(kind, g.data<float>(), dx.data<float>(),
                             workspace.defined() ? workspace.data<float>() : nullptr, a);
      if (jit::tracing())  // a compiled function tracing the gradient pass
        jit::capture("pooling gradient", {g, workspace}, {dx}, [=] {
          kernels::pool_backward(kind, g.data<float>(), dx.data<float>(),
                                 workspace.defined() ? workspace.data<float>() : nullptr, a);
        });
      return std::vector<Tensor>{dx};
    }, {.name = "pooling"});
  return y;
}

Tensor pool2d(kernels::Pooling kind, const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding) {
  if (x.defined() && x.ndim() != 4)
    throw ValueError(std::string(kind == kernels::Pooling::max ? "max_pool2d" : "avg_pool2d") +
                     " expects a 4-D input (batch, height, width, channels), got shape " + shape_str(x.shape()));
  return pool(kind, x, {pool_size[0], pool_size[1]}, {strides[0], strides[1]}, padding);
}

}  // namespace

Tensor max_pool(const Tensor& x, const Sizes& pool_size, const Sizes& strides, const std::string& padding) {
  return pool(kernels::Pooling::max, x, pool_size, strides, padding);
}

Tensor avg_pool(const Tensor& x, const Sizes& pool_size, const Sizes& strides, const std::string& padding) {
  return pool(kernels::Pooling::avg, x, pool_size, strides, padding);
}

Tensor max_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding) {
  return pool2d(kernels::Pooling::max, x, pool_size, strides, padding);
}

Tensor avg_pool2d(const Tensor& x, Size2 pool_size, Size2 strides, const std::string& padding) {
  return pool2d(kernels::Pooling::avg, x, pool_size, strides, padding);
}

}  // namespace keras::ops
