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
#include "data/options.hpp"

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
  /// The nodes this one reads (for Dataset::options()); sources have none.
  virtual std::vector<const DatasetNode*> inputs() const { return {}; }
  /// Options attached here (with_options); null elsewhere.
  virtual const Options* attached_options() const { return nullptr; }
};

class Dataset;
class WindowDataset;
struct Options;
using MapFn = std::function<Element(const Element&)>;
using PredicateFn = std::function<bool(const Element&)>;
using DatasetFn = std::function<Dataset(const Element&)>;
using ReduceFn = std::function<Element(const Element& state, const Element& element)>;
/// An int64 key of an element (group_by_window's key_func, rejection_resample's class_func, ...).
using KeyFn = std::function<std::int64_t(const Element&)>;
/// group_by_window's reduce_func: one window of a key's elements (as a Dataset) into a Dataset.
using WindowReduceFn = std::function<Dataset(std::int64_t key, const Dataset& window)>;
/// scan's function: (state, element) -> (new state, output element).
using ScanFn = std::function<std::pair<Element, Element>(const Element& state, const Element& element)>;
/// One pass of a generator: returns the next element, or nullopt when done.
using Generator = std::function<std::optional<Element>()>;

struct MapOptions {
  /// 0 (or 1): run on the calling thread; n > 1: n worker threads; AUTOTUNE: one per core.
  std::int64_t num_parallel_calls = 0;
  /// With false, a parallel map may yield results out of input order (as they finish).
  std::optional<bool> deterministic{};  // unset: Options().deterministic, else true
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
  std::optional<bool> deterministic{};  // unset: Options().deterministic, else true
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

struct BucketBySequenceLengthOptions {
  /// Passed to padded_batch; default: every unknown (-1) dim pads to the longest in the batch.
  std::optional<Nest<Shape>> padded_shapes{};
  std::optional<Nest<double>> padding_values{};
  /// Unknown dims pad to the bucket's boundary minus 1 (elements must be shorter than the last boundary).
  bool pad_to_bucket_boundary = false;
  /// Plain batch (elements of one shape) instead of padded_batch.
  bool no_padding = false;
  bool drop_remainder = false;
};

struct SampleFromDatasetsOptions {
  /// Probability of each dataset (normalized); default uniform.
  std::optional<std::vector<double>> weights{};
  std::optional<std::uint64_t> seed{};  // none: drawn from keras::utils::random_generator()
  /// True: the first time the chosen dataset is empty, the result ends. False: empty datasets are skipped.
  bool stop_on_empty_dataset = false;
  /// Each pass draws a new sequence of choices (tf's rerandomize_each_iteration).
  bool rerandomize_each_iteration = false;
};

struct RejectionResampleOptions {
  /// The class distribution of the input; default: estimated as elements go by.
  std::optional<std::vector<double>> initial_dist{};
  std::optional<std::uint64_t> seed{};
};

struct SnapshotOptions {
  /// "AUTO" (= "GZIP" here), "GZIP", "ZLIB" or "NONE"/"".
  std::string compression = "AUTO";
};

struct SaveOptions {
  /// "", "GZIP" or "ZLIB".
  std::string compression = "";
  /// Elements per shard file (0: one shard).
  std::int64_t elements_per_shard = 0;
};

struct LoadOptions {
  /// Checked against the saved spec when given.
  std::optional<ElementSpec> element_spec{};
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
  /// tf's window proper: a dataset of windows, each a Dataset of the window's elements (tf yields a
  /// structure of per-component datasets; zipped, they are this one). flat_map/interleave over it as in tf.
  WindowDataset window_datasets(std::int64_t size, WindowOptions options = {}) const;
  /// (index, element) tuples; the index is an int64 scalar.
  Dataset enumerate(std::int64_t start = 0) const;
  /// tf.data's group_by_window: elements go to the window of their key; a full window (window_size
  /// elements) becomes reduce_func(key, window) and its elements come out. At the end, the partial
  /// windows are reduced in ascending key order.
  Dataset group_by_window(KeyFn key_func, WindowReduceFn reduce_func, std::int64_t window_size) const;
  Dataset group_by_window(KeyFn key_func, WindowReduceFn reduce_func,
                          std::function<std::int64_t(std::int64_t key)> window_size_func) const;
  /// Buckets elements by element_length_func into [.., b0), [b0, b1), ..., [bn, ..) and padded-batches
  /// each bucket with its bucket_batch_sizes entry (one more than the boundaries).
  Dataset bucket_by_sequence_length(KeyFn element_length_func, std::vector<std::int64_t> bucket_boundaries,
                                    std::vector<std::int64_t> bucket_batch_sizes,
                                    BucketBySequenceLengthOptions options = {}) const;
  /// Elements of the datasets in random order, weights[i] the chance to draw from datasets[i].
  static Dataset sample_from_datasets(const std::vector<Dataset>& datasets, SampleFromDatasetsOptions options = {});
  /// For each int64 scalar c of choice_dataset, the next element of datasets[c].
  static Dataset choose_from_datasets(const std::vector<Dataset>& datasets, const Dataset& choice_dataset,
                                      bool stop_on_empty_dataset = true);
  /// Resamples to the class distribution target_dist (class_func gives each element's class in
  /// [0, target_dist.size())); yields (class, element) tuples as tf does.
  Dataset rejection_resample(KeyFn class_func, std::vector<double> target_dist, RejectionResampleOptions options = {}) const;
  /// A running state: each element e gives (state, out) = scan_func(state, e) and yields out.
  Dataset scan(const Element& initial_state, ScanFn scan_func) const;
  /// Re-batches batched elements into batches of batch_size (rows flow across input batches).
  Dataset rebatch(std::int64_t batch_size, bool drop_remainder = false) const;
  /// The batch sizes are cycled through in order.
  Dataset rebatch(std::vector<std::int64_t> batch_sizes, bool drop_remainder = false) const;
  /// Drops elements seen before (single int32, int64 or string component).
  Dataset unique() const;
  /// Elements while predicate holds; ends at the first for which it does not.
  Dataset take_while(PredicateFn predicate) const;
  /// Drops the elements whose computation throws (a keras:: or std:: exception) instead of failing.
  Dataset ignore_errors(bool log_warning = false) const;
  /// The first complete pass is written to the directory `path`; later passes (and later programs)
  /// read it instead of computing the input.
  Dataset snapshot(const std::string& path, SnapshotOptions options = {}) const;
  /// Writes every element to the directory `path` (tf.data.Dataset.save); read it with load.
  void save(const std::string& path, SaveOptions options = {}) const;
  static Dataset load(const std::string& path, LoadOptions options = {});
  /// Options for the pipeline up to here (merged with any set before: later ones win).
  Dataset with_options(const Options& options) const;
  /// The options in effect for this dataset (tf's Dataset.options()).
  Options options() const;
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

/// What Dataset::window_datasets returns: a dataset whose elements are datasets (one per window).
class WindowDataset {
 public:
  using WindowFn = std::function<Dataset(const Dataset& window)>;
  WindowDataset(Dataset gathered, ElementSpec spec) : gathered_(std::move(gathered)), spec_(std::move(spec)) {}
  /// tf's window(...).flat_map(fn): the elements of fn(window) for each window in turn.
  Dataset flat_map(WindowFn fn) const;
  Dataset interleave(WindowFn fn, InterleaveOptions options = {}) const;
  /// The windows, in order.
  std::vector<Dataset> windows() const;
  std::int64_t cardinality() const { return gathered_.cardinality(); }
  /// The spec of each window's elements (the input's).
  const ElementSpec& element_spec() const { return spec_; }
  /// Component `index` (or `name`) of a window's elements: tf's per-component window dataset.
  static Dataset component(const Dataset& window, std::size_t index);
  static Dataset component(const Dataset& window, const std::string& name);

 private:
  Dataset gathered_;
  ElementSpec spec_;
  Dataset window_of(const Element& gathered) const;
};

}  // namespace keras::data
