#pragma once
// Tensor creation of keras.ops (numpy.py): arange, linspace, eye, identity, tri.
#include <optional>

#include "keras/tensor.hpp"

namespace keras::ops {

/// Values start, start + step, ... below stop (NumPy's arange); arange(n) is 0 .. n-1. Without a dtype the
/// result is int32 when start, stop and step are whole numbers, else float32 (Python infers it from the
/// literals' types, which C++ cannot see: pass DType::float32 for arange(0.0, 5.0)).
Tensor arange(double start, std::optional<double> stop = std::nullopt, double step = 1,
              std::optional<DType> dtype = std::nullopt);
/// `num` evenly spaced values from start to stop (stop included when `endpoint`), float32 unless `dtype`.
Tensor linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                DType dtype = DType::float32);
/// An n x m matrix (m = n by default) with ones on the k-th diagonal.
Tensor eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
           DType dtype = DType::float32);
/// The n x n identity matrix.
Tensor identity(std::int64_t n, DType dtype = DType::float32);
/// An n x m matrix with ones at and below the k-th diagonal.
Tensor tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
           DType dtype = DType::float32);

}  // namespace keras::ops
