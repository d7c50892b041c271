#include "keras/utils/timeseries_dataset.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/utils/random.hpp"

namespace keras::utils {
namespace {

void check_arguments(std::int64_t n, std::int64_t sequence_length, const TimeseriesDatasetOptions& o) {
  auto fail = [](const std::string& what) { throw ValueError("timeseries_dataset_from_array: " + what); };
  if (o.start_index && *o.start_index != 0) {
    if (*o.start_index < 0) fail(fmt::format("start_index must be 0 or greater, got {}", *o.start_index));
    if (*o.start_index >= n)
      fail(fmt::format("start_index must be lower than the length of the data, got {} for data of length {}", *o.start_index, n));
  }
  if (o.end_index && *o.end_index != 0) {
    if (o.start_index && *o.start_index != 0 && *o.end_index <= *o.start_index)
      fail(fmt::format("end_index must be higher than start_index, got start_index={} and end_index={}", *o.start_index,
                       *o.end_index));
    if (*o.end_index >= n)
      fail(fmt::format("end_index must be lower than the length of the data, got {} for data of length {}", *o.end_index, n));
    if (*o.end_index <= 0) fail(fmt::format("end_index must be higher than 0, got {}", *o.end_index));
  }
  if (o.sampling_rate <= 0) fail(fmt::format("sampling_rate must be higher than 0, got {}", o.sampling_rate));
  if (o.sampling_rate >= n)
    fail(fmt::format("sampling_rate must be lower than the length of the data, got {} for data of length {}", o.sampling_rate, n));
  if (o.sequence_stride <= 0) fail(fmt::format("sequence_stride must be higher than 0, got {}", o.sequence_stride));
  if (o.sequence_stride >= n)
    fail(fmt::format("sequence_stride must be lower than the length of the data, got {} for data of length {}",
                     o.sequence_stride, n));
  if (sequence_length <= 0) fail(fmt::format("sequence_length must be higher than 0, got {}", sequence_length));
  if (o.batch_size < 0) fail(fmt::format("batch_size must be >= 0 (0: unbatched), got {}", o.batch_size));
}

}  // namespace

data::Dataset timeseries_dataset_from_array(const Tensor& data, const std::optional<Tensor>& targets,
                                            std::int64_t sequence_length, TimeseriesDatasetOptions o) {
  if (!data.defined() || data.ndim() == 0)
    throw ValueError("timeseries_dataset_from_array: data must be an array whose axis 0 is time");
  const std::int64_t n = data.dim(0);
  check_arguments(n, sequence_length, o);
  const std::int64_t start = o.start_index.value_or(0);
  const std::int64_t end = o.end_index && *o.end_index != 0 ? *o.end_index : n;

  std::int64_t num_seqs = end - start - (sequence_length - 1) * o.sampling_rate;
  if (targets) {
    if (!targets->defined() || targets->ndim() == 0)
      throw ValueError("timeseries_dataset_from_array: targets must be an array with one row per time step");
    num_seqs = std::min(num_seqs, targets->dim(0));
  }
  if (num_seqs <= 0)
    throw ValueError(fmt::format("timeseries_dataset_from_array: no window fits: a window spans {} steps "
                                 "((sequence_length - 1) * sampling_rate + 1) but steps [{}, {}) hold {}{}",
                                 (sequence_length - 1) * o.sampling_rate + 1, start, end, end - start,
                                 targets ? fmt::format(" and targets {} rows", targets->dim(0)) : ""));
  std::vector<std::int64_t> positions;
  for (std::int64_t p = 0; p < num_seqs; p += o.sequence_stride) positions.push_back(p);
  if (targets && start + positions.back() >= targets->dim(0))
    throw ValueError(fmt::format("timeseries_dataset_from_array: the window at step {} has no target: targets has {} rows",
                                 start + positions.back(), targets->dim(0)));
  const std::uint64_t seed = o.seed.value_or(random_generator()());
  if (o.shuffle) std::shuffle(positions.begin(), positions.end(), std::mt19937_64(seed));

  const auto count = static_cast<std::int64_t>(positions.size());
  auto window = [data, start, len = sequence_length, rate = o.sampling_rate](std::int64_t p) {
    const std::int64_t first = start + p;
    if (rate == 1) return data.slice(first, first + len);
    Shape shape = data.shape();
    shape[0] = len;
    Tensor w = Tensor::empty(shape, data.dtype());
    for (std::int64_t k = 0; k < len; ++k) w.slice(k, k + 1).assign(data.slice(first + k * rate, first + k * rate + 1));
    return w;
  };
  auto element = [window, y = data::Component(targets.value_or(Tensor())), start](const data::Element& e) {
    const std::int64_t p = static_cast<std::int64_t>(e.leaf().tensor().item());
    if (!y.defined()) return data::Element(window(p));
    return data::Element::tuple({window(p), y.row(start + p)});
  };
  data::Dataset ds = data::Dataset::from_tensor_slices(data::Element(Tensor::from_vector(positions, {count})))
                         .map(element, {.num_parallel_calls = data::AUTOTUNE});
  if (o.shuffle) ds = ds.shuffle(o.batch_size > 0 ? o.batch_size * 8 : 1024, {.seed = seed});
  if (o.batch_size > 0) ds = ds.batch(o.batch_size);
  return ds.prefetch(data::AUTOTUNE);
}

}  // namespace keras::utils
