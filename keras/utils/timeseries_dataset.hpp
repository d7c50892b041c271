#pragma once
// keras::utils::timeseries_dataset_from_array: a Dataset of sliding windows over a time series (axis 0 is
// time), batched, as keras.utils.timeseries_dataset_from_array.
#include <cstdint>
#include <optional>

#include "data/dataset.hpp"

namespace keras::utils {

struct TimeseriesDatasetOptions {
  std::int64_t sequence_stride = 1;  // windows start at start_index + 0, s, 2s, ...
  std::int64_t sampling_rate = 1;    // a window takes every r-th step: data[i], data[i + r], ...
  std::int64_t batch_size = 128;     // 0: unbatched windows (Keras's batch_size=None)
  /// Shuffles the window order once (with seed), and the windows in a buffer of 8 batches each epoch.
  bool shuffle = false;
  std::optional<std::uint64_t> seed{};
  std::optional<std::int64_t> start_index{};  // steps before it are not used
  std::optional<std::int64_t> end_index{};    // steps from it on are not used
};

/// Windows of sequence_length steps: element i is data[p_i + k * sampling_rate] for k < sequence_length,
/// with p_i = start_index + i * sequence_stride, paired with targets[p_i] when targets are given (else the
/// windows alone). Windows are [sequence_length, ...data's sample shape], batched along a new first axis.
/// Keras's argument checks apply (ValueError); so does one of kerascpp's own: a window longer than the
/// data between start_index and end_index is a ValueError (Keras returns an empty dataset).
data::Dataset timeseries_dataset_from_array(const Tensor& data, const std::optional<Tensor>& targets,
                                            std::int64_t sequence_length, TimeseriesDatasetOptions options = {});

}  // namespace keras::utils
