#pragma once
// keras::data::Dataset: tf.data in C++. A Dataset is a cheap handle to an immutable graph of nodes
// (sources and transformations); iterating it builds a fresh tree of iterators, one pass per epoch.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "data/element.hpp"
#include "data/iterator.hpp"

namespace keras::data {

/// num_parallel_calls / buffer_size value that lets the runtime choose (tf.data.AUTOTUNE).
constexpr std::int64_t AUTOTUNE = -1;
/// cardinality() of a dataset that never ends (tf.data.INFINITE_CARDINALITY).
constexpr std::int64_t INFINITE_CARDINALITY = -1;
/// cardinality() when it cannot be known without iterating (tf.data.UNKNOWN_CARDINALITY).
constexpr std::int64_t UNKNOWN_CARDINALITY = -2;

/// One node of a pipeline graph. Immutable; shared by the Datasets built on it.
class DatasetNode {
 public:
  virtual ~DatasetNode() = default;
  virtual IteratorPtr make_iterator() const = 0;
  virtual std::int64_t cardinality() const { return UNKNOWN_CARDINALITY; }
  virtual ElementSpec element_spec() const = 0;
};

class Dataset;
using MapFn = std::function<Element(const Element&)>;
using PredicateFn = std::function<bool(const Element&)>;
using DatasetFn = std::function<Dataset(const Element&)>;
using ReduceFn = std::function<Element(const Element& state, const Element& element)>;
/// One pass of a generator: returns the next element, or nullopt when done.
using Generator = std::function<std::optional<Element>()>;

struct MapOptions {
  /// 0 (or 1): run on the calling thread; n > 1: n worker threads; AUTOTUNE: one per core.
  std::int64_t num_parallel_calls = 0;
  /// With false, a parallel map may yield results out of input order (as they finish).
  bool deterministic = true;
};

struct ShuffleOptions {
  std::optional<std::uint64_t> seed{};  // none: drawn from keras::utils::random_generator()
  bool reshuffle_each_iteration = true;
};

struct BatchOptions {
  bool drop_remainder = false;
  /// 0 (or 1): batches are stacked on the calling thread; n > 1 or AUTOTUNE: elements are gathered in
  /// order and stacked on n worker threads, several batches at once.
  std::int64_t num_parallel_calls = 0;
  /// With false, parallel batches may come out of order (as they finish).
  bool deterministic = true;
};

struct PaddedBatchOptions {
  /// Per component; -1 dims pad to the longest in the batch. Default: every dim -1.
  std::optional<Nest<Shape>> padded_shapes{};
  /// Per component padding value (0 and "" by default).
  std::optional<Nest<double>> padding_values{};
  bool drop_remainder = false;
};

struct InterleaveOptions {
  std::int64_t cycle_length = AUTOTUNE;  // AUTOTUNE: the number of cores
  std::int64_t block_length = 1;
  /// 0 (or 1): the open datasets are read on the calling thread; n > 1 or AUTOTUNE: each open dataset
  /// is read ahead by its own background thread (so up to cycle_length threads), output order unchanged.
  std::int64_t num_parallel_calls = 0;
};

struct WindowOptions {
  std::optional<std::int64_t> shift{};  // default: size
  std::int64_t stride = 1;
  bool drop_remainder = false;
};

class Dataset {
 public:
  explicit Dataset(std::shared_ptr<const DatasetNode> node);

  // ---- sources ----
  /// Slices every component along its first axis (all must agree in length).
  static Dataset from_tensor_slices(const Element& components);
  static Dataset from_tensor_slices(const Tensor& x, const Tensor& y) { return from_tensor_slices(tuple({x, y})); }
  /// One element: the whole structure.
  static Dataset from_tensors(const Element& components);
  /// `make` is called at the start of every pass and returns that pass's generator. Without an
  /// output_signature, element_spec comes from the first element.
  static Dataset from_generator(std::function<Generator()> make, std::optional<ElementSpec> output_signature = {});
  /// Scalars start, start + step, ... up to stop (exclusive), int64.
  static Dataset range(std::int64_t stop);
  static Dataset range(std::int64_t start, std::int64_t stop, std::int64_t step = 1);
  /// Elements of the datasets side by side, as a tuple; ends with the shortest.
  static Dataset zip(const std::vector<Dataset>& datasets);
  /// File names matching a glob pattern (sorted; shuffled each pass when shuffle, as tf does by default).
  static Dataset list_files(const std::string& pattern, bool shuffle = true, std::optional<std::uint64_t> seed = {});

  // ---- transformations ----
  Dataset map(MapFn fn, MapOptions options = {}) const;
  Dataset filter(PredicateFn predicate) const;
  Dataset flat_map(DatasetFn fn) const;
  Dataset interleave(DatasetFn fn, InterleaveOptions options = {}) const;
  /// tf.data's buffer shuffle: fill a buffer of buffer_size, yield a uniformly chosen slot, refill it.
  Dataset shuffle(std::int64_t buffer_size, ShuffleOptions options = {}) const;
  Dataset batch(std::int64_t batch_size, BatchOptions options = {}) const;
  Dataset padded_batch(std::int64_t batch_size, PaddedBatchOptions options = {}) const;
  Dataset unbatch() const;
  /// count -1: forever.
  Dataset repeat(std::int64_t count = -1) const;
  Dataset take(std::int64_t count) const;
  Dataset skip(std::int64_t count) const;
  /// A background thread keeps up to buffer_size elements ready (AUTOTUNE: a few).
  Dataset prefetch(std::int64_t buffer_size = AUTOTUNE) const;
  /// The first complete pass is kept in memory (filename empty) or written to `filename`; later passes read it.
  Dataset cache(const std::string& filename = "") const;
  Dataset concatenate(const Dataset& other) const;
  /// Every num_shards-th element, starting at index.
  Dataset shard(std::int64_t num_shards, std::int64_t index) const;
  /// Windows of `size` elements, every `shift`, taking every `stride`-th. Each window comes already
  /// batched (components stacked), i.e. what tf's `window(...).flat_map(lambda w: w.batch(size))` gives.
  Dataset window(std::int64_t size, WindowOptions options = {}) const;
  /// (index, element) tuples; the index is an int64 scalar.
  Dataset enumerate(std::int64_t start = 0) const;
  Dataset apply(const std::function<Dataset(const Dataset&)>& fn) const { return fn(*this); }
  /// Folds every element into `initial` with fn.
  Element reduce(const Element& initial, const ReduceFn& fn) const;

  // ---- inspection and iteration ----
  /// Number of elements, INFINITE_CARDINALITY or UNKNOWN_CARDINALITY.
  std::int64_t cardinality() const { return node_->cardinality(); }
  ElementSpec element_spec() const { return node_->element_spec(); }
  /// A fresh pass (tf's iter(dataset)).
  Iterator make_iterator() const { return Iterator(node_->make_iterator(), node_); }
  ElementIterator begin() const { return ElementIterator(std::shared_ptr<IteratorBase>(node_->make_iterator()), node_); }
  ElementIterator end() const { return {}; }
  const std::shared_ptr<const DatasetNode>& node() const { return node_; }

 private:
  std::shared_ptr<const DatasetNode> node_;
};

}  // namespace keras::data
