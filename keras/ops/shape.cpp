#include "keras/ops/shape.hpp"

#include <cstring>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/kernels/parallel.hpp"

namespace keras::ops {

Tensor reshape(const Tensor& x, const Shape& shape) {
  Tensor out = x.reshape(shape);
  if (autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{reshape(g, in_shape)};
    }, {.name = "reshape", .differentiable_backward = true});
  }
  return out;
}

namespace {
// The adjoint of take_rows: row i of g added into row idx[i] of zeros shaped `shape`. Its own gradient
// is take_rows again, so gradients of gradients flow through an embedding lookup.
Tensor scatter_rows(const Tensor& g, const std::vector<std::int64_t>& idx, const Shape& shape) {
  Tensor dx = Tensor::zeros(shape);
  const std::size_t cols = idx.empty() ? 0 : static_cast<std::size_t>(g.size()) / idx.size();
  const float* pg = g.data<float>();
  float* pd = dx.data<float>();
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t c = 0; c < cols; ++c) pd[static_cast<std::size_t>(idx[i]) * cols + c] += pg[i * cols + c];
  if (autodiff::recording())
    autodiff::record(dx, {g}, [idx](const Tensor& u, const std::vector<bool>&) {
      return std::vector<Tensor>{take_rows(u, idx)};
    }, {.name = "take_rows gradient", .differentiable_backward = true});
  return dx;
}
}  // namespace

Tensor take_rows(const Tensor& x, const std::vector<std::int64_t>& idx) {
  if (x.ndim() == 0) throw ValueError("take_rows needs a tensor with at least one axis, got a scalar");
  const auto rows = x.dim(0);
  Shape shape = x.shape();
  shape[0] = static_cast<std::int64_t>(idx.size());
  Tensor out = Tensor::empty(shape, x.dtype());
  if (x.dtype() == DType::string) {  // strings are objects: copied one by one
    const std::int64_t per = rows ? x.size() / rows : 0;
    const std::string* src = x.data<std::string>();
    std::string* dst = out.data<std::string>();
    for (std::size_t i = 0; i < idx.size(); ++i) {
      if (idx[i] < 0 || idx[i] >= rows)
        throw ValueError("take_rows: index " + std::to_string(idx[i]) + " is out of range for " + std::to_string(rows) +
                         " rows");
      std::copy(src + idx[i] * per, src + (idx[i] + 1) * per, dst + static_cast<std::int64_t>(i) * per);
    }
    return out;
  }
  const std::size_t row_bytes = rows ? x.nbytes() / static_cast<std::size_t>(rows) : 0;
  const char* src = static_cast<const char*>(x.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (const std::int64_t i : idx)
    if (i < 0 || i >= rows)
      throw ValueError("take_rows: index " + std::to_string(i) + " is out of range for " + std::to_string(rows) +
                       " rows");
  // A shuffled batch's rows come from all over the data, mostly from memory: two threads keep twice the
  // loads in flight (fit's batches of Fashion-MNIST: 128 rows of 3 KB, about 100 us on one thread).
  const auto n = static_cast<std::int64_t>(idx.size());
  kernels::parallel_row_ranges(n, static_cast<std::int64_t>(row_bytes / sizeof(float)), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i)
      std::memcpy(dst + i * row_bytes, src + static_cast<std::size_t>(idx[i]) * row_bytes, row_bytes);
  });
  if (x.dtype() == DType::float32 && autodiff::recording()) {
    Shape in_shape = x.shape();
    autodiff::record(out, {x}, [in_shape, idx](const Tensor& g, const std::vector<bool>&) {
      return std::vector<Tensor>{scatter_rows(g, idx, in_shape)};
    }, {.name = "take_rows", .differentiable_backward = true});
  }
  return out;
}

Tensor take_rows(const Tensor& x, const Tensor& indices) {
  return take_rows(x, indices.astype(DType::int64).to_vector<std::int64_t>());
}

Tensor one_hot(const Tensor& labels, std::int64_t depth) {
  Tensor ids = labels.astype(DType::int64);
  Shape shape = ids.shape();
  shape.push_back(depth);
  Tensor out = Tensor::zeros(shape);
  const auto* p = ids.data<std::int64_t>();
  float* po = out.data<float>();
  for (std::int64_t i = 0; i < ids.size(); ++i) {
    if (p[i] < 0 || p[i] >= depth)
      throw ValueError("one_hot: label " + std::to_string(p[i]) + " is outside [0, " + std::to_string(depth) + ")");
    po[i * depth + p[i]] = 1.f;
  }
  return out;
}

}  // namespace keras::ops
