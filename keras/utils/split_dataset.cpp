#include "keras/utils/split_dataset.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/utils/random.hpp"

namespace keras::utils {
namespace {

std::string size_str(const std::optional<SplitSize>& s) {
  if (!s) return "None";
  return s->fraction ? fmt::format("{}", s->value) : fmt::format("{}", static_cast<std::int64_t>(s->value));
}

// Keras's _rescale_dataset_split_sizes: the two sizes as sample counts.
std::pair<std::int64_t, std::int64_t> rescale(const std::optional<SplitSize>& l, const std::optional<SplitSize>& r,
                                              std::int64_t total) {
  auto fail = [](const std::string& what) { throw ValueError("split_dataset: " + what); };
  if (l && r && l->value == 0 && r->value == 0)
    fail("both left_size and right_size are zero; at least one of the split sizes must be non-zero");
  auto check = [&](const std::optional<SplitSize>& s, const char* side) {
    if (!s) return;
    if (s->fraction ? (s->value <= 0 || s->value >= 1) : (s->value <= 0 || s->value >= static_cast<double>(total)))
      fail(fmt::format("{}_size should be either a positive integer smaller than {} (the number of samples), or a "
                       "fraction in (0, 1); got {}",
                       side, total, size_str(s)));
  };
  check(l, "left");
  check(r, "right");
  if (l && r && l->fraction && r->fraction && l->value + r->value > 1)
    fail(fmt::format("the sum of left_size and right_size is greater than 1 ({} + {}); it must be at most 1", l->value, r->value));
  // Python's round(): halves go to the even neighbour, which is nearbyint under the default rounding mode.
  auto count = [&](const SplitSize& s) { return s.fraction ? std::nearbyint(s.value * static_cast<double>(total)) : s.value; };
  double left = l ? count(*l) : 0, right = r ? count(*r) : 0;
  if (!l) left = static_cast<double>(total) - right;
  if (!r) right = static_cast<double>(total) - left;
  if (left + right > static_cast<double>(total))
    fail(fmt::format("left_size + right_size = {} is more than the {} samples of the dataset", left + right, total));
  for (auto [split, side] : {std::pair{left, "left"}, std::pair{right, "right"}})
    if (split == 0)
      fail(fmt::format("with a dataset of {} samples, left_size={} and right_size={} leave the {} split empty; adjust "
                       "the sizes",
                       total, size_str(l), size_str(r), side));
  return {static_cast<std::int64_t>(left), static_cast<std::int64_t>(right)};
}

// The samples rows [begin, end) of `order`, restacked into arrays of the samples' structure.
data::Dataset restack(const std::vector<data::Element>& samples, const std::vector<std::size_t>& order, std::size_t begin,
                      std::size_t end, std::int64_t batch_size) {
  const auto flat0 = samples[order[begin]].flatten();
  std::vector<data::Component> columns;
  for (std::size_t leaf = 0; leaf < flat0.size(); ++leaf) {
    std::vector<data::Component> parts;
    for (std::size_t i = begin; i < end; ++i) parts.push_back(samples[order[i]].flatten()[leaf]);
    columns.push_back(data::Component::stack(parts, leaf));
  }
  data::Dataset ds = data::Dataset::from_tensor_slices(samples[order[begin]].pack(columns));
  if (batch_size > 0) ds = ds.batch(batch_size);
  return ds.prefetch(data::AUTOTUNE);
}

std::pair<data::Dataset, data::Dataset> split_samples(const std::vector<data::Element>& samples, const SplitDatasetOptions& o) {
  if (!o.left_size && !o.right_size)
    throw ValueError("split_dataset: at least one of left_size or right_size must be given; both are none");
  if (samples.empty()) throw ValueError("split_dataset: the dataset is empty; give it at least two samples");
  const data::ElementSpec first = data::spec_of(samples.front());
  for (std::size_t i = 1; i < samples.size(); ++i)
    if (const data::ElementSpec spec = data::spec_of(samples[i]); !spec.same_structure(first) || spec.flatten() != first.flatten())
      throw ValueError(fmt::format("split_dataset: every sample must have the same structure, shapes and dtypes; sample {} "
                                   "is {} but sample 0 is {}",
                                   i, data::spec_str(data::spec_of(samples[i])), data::spec_str(first)));
  const auto total = static_cast<std::int64_t>(samples.size());
  const auto [left, right] = rescale(o.left_size, o.right_size, total);
  std::vector<std::size_t> order(samples.size());
  std::iota(order.begin(), order.end(), 0);
  if (o.shuffle) std::shuffle(order.begin(), order.end(), std::mt19937_64(o.seed.value_or(random_generator()())));
  return {restack(samples, order, 0, static_cast<std::size_t>(left), o.batch_size),
          restack(samples, order, static_cast<std::size_t>(total - right), static_cast<std::size_t>(total), o.batch_size)};
}

}  // namespace

std::pair<data::Dataset, data::Dataset> split_dataset(const data::Dataset& dataset, SplitDatasetOptions o) {
  if (o.batch_size < 0) throw ValueError(fmt::format("split_dataset: batch_size must be >= 0, got {}", o.batch_size));
  if (!o.left_size && !o.right_size)
    throw ValueError("split_dataset: at least one of left_size or right_size must be given; both are none");
  if (dataset.cardinality() == data::INFINITE_CARDINALITY)
    throw ValueError("split_dataset: the dataset is infinite (repeat() without a count); split a finite dataset");
  std::vector<data::Element> samples;
  for (const data::Element& e : o.batch_size > 0 ? dataset.unbatch() : dataset) samples.push_back(e);
  return split_samples(samples, o);
}

std::pair<data::Dataset, data::Dataset> split_dataset(const data::Element& arrays, SplitDatasetOptions o) {
  return split_dataset(data::Dataset::from_tensor_slices(arrays), o);
}

}  // namespace keras::utils
