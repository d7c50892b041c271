#include "keras/ops/scatter.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <unordered_map>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/dtype_dispatch.hpp"
#include "keras/ops/flat_gather.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/math.hpp"

namespace keras::ops {
namespace {

// The flat offsets (into a tensor of `shape`) of each element of `values` placed at indices[i]; checks shapes.
detail::FlatIndex scatter_offsets(const Tensor& indices, const Tensor& values, const Shape& shape, const char* op) {
  if (!indices.defined() || !values.defined()) throw ValueError(fmt::format("{}: undefined indices or values", op));
  if (indices.ndim() == 0)
    throw ValueError(fmt::format("{}: the indices need at least one axis (the last one addresses the target)", op));
  const auto m = indices.dim(-1);
  if (m > static_cast<std::int64_t>(shape.size()))
    throw ValueError(fmt::format("{}: indices of shape {} address {} axes but the target shape {} has {}", op,
                                 shape_str(indices.shape()), m, shape_str(shape), shape.size()));
  Shape want(indices.shape().begin(), indices.shape().end() - 1);
  want.insert(want.end(), shape.begin() + m, shape.end());
  if (values.shape() != want)
    throw ValueError(fmt::format("{}: values of shape {} do not fit indices of shape {} into shape {}; they need "
                                 "shape {}", op, shape_str(values.shape()), shape_str(indices.shape()),
                                 shape_str(shape), shape_str(want)));
  const auto raw = indices.astype(DType::int64).to_vector<std::int64_t>();
  const Shape st = detail::strides_of(shape);
  std::int64_t inner = 1;
  for (auto d = static_cast<std::size_t>(m); d < shape.size(); ++d) inner *= shape[d];
  const std::int64_t rows = shape_size(want) / std::max<std::int64_t>(inner, 1);
  auto flat = std::make_shared<std::vector<std::int64_t>>(static_cast<std::size_t>(rows * inner));
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t base = 0;
    for (std::int64_t d = 0; d < m; ++d) {
      std::int64_t i = raw[static_cast<std::size_t>(r * m + d)];
      const auto dim = shape[static_cast<std::size_t>(d)];
      if (i < -dim || i >= dim)
        throw ValueError(fmt::format("{}: index {} is out of range for axis {} of shape {}", op, i, d, shape_str(shape)));
      if (i < 0) i += dim;
      base += i * st[static_cast<std::size_t>(d)];
    }
    for (std::int64_t i = 0; i < inner; ++i) (*flat)[static_cast<std::size_t>(r * inner + i)] = base + i;
  }
  return flat;
}

}  // namespace

Tensor scatter(const Tensor& indices, const Tensor& values, const Shape& shape) {
  return detail::scatter_add_flat(values, scatter_offsets(indices, values, shape, "scatter"), shape);
}

Tensor scatter_nd(const Tensor& indices, const Tensor& updates, const Shape& shape) {
  return scatter(indices, updates, shape);
}

Tensor scatter_update(const Tensor& inputs, const Tensor& indices, const Tensor& updates0) {
  if (!inputs.defined()) throw ValueError("scatter_update: the inputs are undefined");
  const Tensor updates = updates0.dtype() == inputs.dtype() ? updates0 : cast(updates0, inputs.dtype());
  const auto flat = scatter_offsets(indices, updates, inputs.shape(), "scatter_update");
  // The last write to each offset wins: keep only those elements of `updates`.
  std::unordered_map<std::int64_t, std::int64_t> last;
  for (std::size_t i = 0; i < flat->size(); ++i) last[(*flat)[i]] = static_cast<std::int64_t>(i);
  auto kept = std::make_shared<std::vector<std::int64_t>>(), kept_at = std::make_shared<std::vector<std::int64_t>>();
  for (std::size_t i = 0; i < flat->size(); ++i)
    if (last[(*flat)[i]] == static_cast<std::int64_t>(i)) {
      kept->push_back(static_cast<std::int64_t>(i));
      kept_at->push_back((*flat)[i]);
    }
  if (!detail::is_float(inputs.dtype())) {
    Tensor out = inputs.clone();
    detail::visit_dtype(inputs.dtype(), [&](auto tag) {
      using T = decltype(tag);
      for (std::size_t i = 0; i < kept->size(); ++i) out.data<T>()[(*kept_at)[i]] = updates.data<T>()[(*kept)[i]];
    });
    return out;
  }
  Tensor keep_mask = Tensor::ones(inputs.shape());
  for (auto o : *kept_at) keep_mask.data<float>()[o] = 0.f;
  const Shape kept_shape{static_cast<std::int64_t>(kept->size())};
  const Tensor written = detail::scatter_add_flat(detail::gather_flat(updates, kept, kept_shape), kept_at, inputs.shape());
  return add(multiply(inputs, keep_mask), written);
}

Tensor segment_sum(const Tensor& data, const Tensor& segment_ids, std::optional<std::int64_t> num_segments, bool) {
  if (!data.defined() || !segment_ids.defined()) throw ValueError("segment_sum: undefined data or segment_ids");
  if (data.ndim() == 0 || segment_ids.ndim() != 1 || segment_ids.dim(0) != data.dim(0))
    throw ValueError(fmt::format("segment_sum: segment_ids of shape {} need one id per row of data (shape {})",
                                 shape_str(segment_ids.shape()), shape_str(data.shape())));
  const auto ids = segment_ids.astype(DType::int64).to_vector<std::int64_t>();
  const std::int64_t n = num_segments ? *num_segments
                                      : (ids.empty() ? 0 : *std::max_element(ids.begin(), ids.end()) + 1);
  if (n < 0) throw ValueError(fmt::format("segment_sum: num_segments is {}; it must be at least 0", n));
  const std::int64_t inner = data.dim(0) ? data.size() / data.dim(0) : 0;
  auto src = std::make_shared<std::vector<std::int64_t>>(), dst = std::make_shared<std::vector<std::int64_t>>();
  for (std::size_t r = 0; r < ids.size(); ++r) {
    if (ids[r] < 0 || ids[r] >= n) continue;  // dropped, as unsorted_segment_sum
    for (std::int64_t i = 0; i < inner; ++i) {
      src->push_back(static_cast<std::int64_t>(r) * inner + i);
      dst->push_back(ids[r] * inner + i);
    }
  }
  Shape out_shape = data.shape();
  out_shape[0] = n;
  const Tensor picked = detail::gather_flat(data, src, {static_cast<std::int64_t>(src->size())});
  return detail::scatter_add_flat(picked, dst, out_shape);
}

Tensor segment_max(const Tensor& data, const Tensor& segment_ids, std::optional<std::int64_t> num_segments, bool) {
  if (!data.defined() || !segment_ids.defined()) throw ValueError("segment_max: undefined data or segment_ids");
  if (data.dtype() == DType::string) throw ValueError("segment_max needs numeric data, got a string tensor");
  if (data.ndim() == 0 || segment_ids.ndim() != 1 || segment_ids.dim(0) != data.dim(0))
    throw ValueError(fmt::format("segment_max: segment_ids of shape {} need one id per row of data (shape {})",
                                 shape_str(segment_ids.shape()), shape_str(data.shape())));
  const auto ids = segment_ids.astype(DType::int64).to_vector<std::int64_t>();
  const std::int64_t n = num_segments ? *num_segments
                                      : (ids.empty() ? 0 : *std::max_element(ids.begin(), ids.end()) + 1);
  if (n < 0) throw ValueError(fmt::format("segment_max: num_segments is {}; it must be at least 0", n));
  const std::int64_t inner = data.dim(0) ? data.size() / data.dim(0) : 0;
  Shape out_shape = data.shape();
  out_shape[0] = n;
  Tensor out = Tensor::empty(out_shape, data.dtype());
  // Each output element's winners (the rows holding its max): their flat offsets in data and in out.
  auto src = std::make_shared<std::vector<std::int64_t>>(), dst = std::make_shared<std::vector<std::int64_t>>();
  std::vector<float> share;  // 1 / (number of ties) per winner
  visit_dtype(
      data.dtype(),
      [&](auto zero) {
        using T = decltype(zero);
        const T* x = data.data<T>();
        T* y = out.data<T>();
        std::fill_n(y, out.size(), std::numeric_limits<T>::lowest());  // an empty segment, as TensorFlow
        for (std::size_t r = 0; r < ids.size(); ++r) {
          if (ids[r] < 0 || ids[r] >= n) continue;  // dropped, as unsorted_segment_max
          for (std::int64_t i = 0; i < inner; ++i) {
            T& m = y[ids[r] * inner + i];
            m = std::max(m, x[static_cast<std::int64_t>(r) * inner + i]);
          }
        }
        if (!detail::is_float(data.dtype()) || !autodiff::recording()) return;
        std::vector<std::int32_t> ties(static_cast<std::size_t>(out.size()), 0);
        for (std::size_t r = 0; r < ids.size(); ++r) {
          if (ids[r] < 0 || ids[r] >= n) continue;
          for (std::int64_t i = 0; i < inner; ++i) {
            const std::int64_t o = ids[r] * inner + i, at = static_cast<std::int64_t>(r) * inner + i;
            if (x[at] != y[o]) continue;
            src->push_back(at);
            dst->push_back(o);
            ++ties[static_cast<std::size_t>(o)];
          }
        }
        for (auto o : *dst) share.push_back(1.f / static_cast<float>(ties[static_cast<std::size_t>(o)]));
      },
      "segment_max");
  if (!src->empty()) {
    const Shape winners{static_cast<std::int64_t>(src->size())};
    const Tensor weights = Tensor::from_vector(share, winners).astype(data.dtype());
    const Shape data_shape = data.shape();
    autodiff::record(out, {data}, [src, dst, weights, data_shape](const Tensor& g, const std::vector<bool>&) {
      // Each winner receives its output's gradient over the number of ties (gather and scatter record).
      const Tensor picked = multiply(detail::gather_flat(g, dst, {weights.dim(0)}), weights);
      return std::vector<Tensor>{detail::scatter_add_flat(picked, src, data_shape)};
    }, {.name = "segment_max", .differentiable_backward = true});
  }
  return out;
}

}  // namespace keras::ops
