#pragma once
// keras::utils::split_dataset: a dataset (or arrays) into a left and a right Dataset, e.g. train and test,
// as keras.utils.split_dataset. It reads every element into memory, as Keras does: for small datasets.
#include <concepts>
#include <cstdint>
#include <optional>
#include <utility>

#include "data/dataset.hpp"

namespace keras::utils {

/// A split size as Keras takes it: an integer is a number of samples, a floating-point value a fraction
/// in (0, 1) of the total.
struct SplitSize {
  template <std::integral I>
  SplitSize(I n) : value(static_cast<double>(n)), fraction(false) {}  // NOLINT: 800 means 800 samples
  template <std::floating_point F>
  SplitSize(F f) : value(static_cast<double>(f)), fraction(true) {}  // NOLINT: 0.8 means 80%
  double value;
  bool fraction;
};

struct SplitDatasetOptions {
  std::optional<SplitSize> left_size{};   // none: what right_size leaves
  std::optional<SplitSize> right_size{};  // none: what left_size leaves
  bool shuffle = false;                   // shuffle the samples (with seed) before splitting
  std::optional<std::uint64_t> seed{};
  /// kerascpp's: when the dataset yields batches of this size, they are unbatched, the samples are split
  /// and both sides are batched again, which is what Keras does for a batched tf.data.Dataset (kerascpp's
  /// Dataset does not record its batch size). 0: the elements are the samples.
  std::int64_t batch_size = 0;
};

/// The first left_size samples and the last right_size samples (after the shuffle), each a Dataset of
/// the same element structure. Keras's checks on the sizes apply (ValueError): at least one given, each
/// an integer in (0, n) or a fraction in (0, 1), their sum at most n, neither side empty.
std::pair<data::Dataset, data::Dataset> split_dataset(const data::Dataset& dataset, SplitDatasetOptions options);
/// Arrays with the same first dimension (one tensor, or a tuple or named structure of them) split by rows.
std::pair<data::Dataset, data::Dataset> split_dataset(const data::Element& arrays, SplitDatasetOptions options);

}  // namespace keras::utils
