#pragma once
// Sum, max, min and mean over any set of axes of a row-major float32 tensor, on oneDNN's reduction primitive
// (cached per shape). Small inputs are better served by a plain loop: callers use it from kMinElements on.
#include <cstdint>
#include <vector>

namespace keras::kernels {

enum class Reduce { sum, max, min, mean };

/// The size from which ops hand a reduction to oneDNN (below it, the primitive's fixed cost dominates).
inline constexpr std::int64_t kReductionMinElements = 1 << 14;

/// dst (dims `out`, the same rank as `in` with 1 on each reduced axis) = the reduction of src (dims `in`).
/// False (nothing written) when oneDNN cannot take the shapes (rank above its limit, an empty axis).
bool reduce(Reduce kind, const float* src, const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& out,
            float* dst);

}  // namespace keras::kernels
