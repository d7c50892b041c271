// Dataset::bucket_by_sequence_length: group_by_window keyed by the length bucket, each window
// padded-batched (to the batch's longest, or to the bucket's boundary minus 1).
#include <fmt/format.h>

#include "data/dataset.hpp"

namespace keras::data {

Dataset Dataset::bucket_by_sequence_length(KeyFn length_func, std::vector<std::int64_t> boundaries,
                                           std::vector<std::int64_t> batch_sizes, BucketBySequenceLengthOptions o) const {
  if (!length_func) throw ValueError("bucket_by_sequence_length needs an element_length_func");
  if (batch_sizes.size() != boundaries.size() + 1)
    throw ValueError(fmt::format("bucket_by_sequence_length: len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1, "
                                 "got {} batch sizes for {} boundaries",
                                 batch_sizes.size(), boundaries.size()));
  for (std::size_t i = 0; i < boundaries.size(); ++i)
    if (i > 0 && boundaries[i] <= boundaries[i - 1])
      throw ValueError("bucket_by_sequence_length: bucket_boundaries must be strictly increasing, got " +
                       fmt::format("[{}]", fmt::join(boundaries, ", ")));
  for (auto b : batch_sizes)
    if (b <= 0) throw ValueError(fmt::format("bucket_by_sequence_length: every bucket batch size must be positive, got {}", b));
  if (o.pad_to_bucket_boundary && (boundaries.empty() || boundaries[0] < 1))
    throw ValueError("bucket_by_sequence_length: pad_to_bucket_boundary needs bucket boundaries of at least 1");

  // Bucket i holds lengths in [boundaries[i-1], boundaries[i]).
  auto bucket_of = [length_func, boundaries, pad = o.pad_to_bucket_boundary](const Element& e) -> std::int64_t {
    const std::int64_t len = length_func(e);
    std::size_t b = 0;
    while (b < boundaries.size() && len >= boundaries[b]) ++b;
    if (pad && b == boundaries.size())
      throw ValueError(fmt::format("bucket_by_sequence_length: an element has length {}; with pad_to_bucket_boundary, "
                                   "elements must be shorter than the last bucket boundary ({})",
                                   len, boundaries.back()));
    return static_cast<std::int64_t>(b);
  };
  const ElementSpec spec = element_spec();
  auto reduce = [o, boundaries, batch_sizes, spec](std::int64_t bucket, const Dataset& window) {
    const std::int64_t n = batch_sizes[static_cast<std::size_t>(bucket)];
    if (o.no_padding) return window.batch(n, {.drop_remainder = o.drop_remainder});
    Nest<Shape> shapes = o.padded_shapes ? *o.padded_shapes : spec.map([](const TensorSpec& t) { return t.shape; });
    if (o.pad_to_bucket_boundary) {
      const std::int64_t fill = boundaries[static_cast<std::size_t>(bucket)] - 1;
      shapes = shapes.map([fill](const Shape& s) {
        Shape r = s;
        for (auto& d : r)
          if (d < 0) d = fill;
        return r;
      });
    }
    return window.padded_batch(n, {.padded_shapes = shapes, .padding_values = o.padding_values, .drop_remainder = o.drop_remainder});
  };
  auto size = [batch_sizes](std::int64_t bucket) { return batch_sizes[static_cast<std::size_t>(bucket)]; };
  return group_by_window(bucket_of, reduce, std::function<std::int64_t(std::int64_t)>(size));
}

}  // namespace keras::data
