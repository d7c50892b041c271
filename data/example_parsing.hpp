#pragma once
// tf.io.parse_single_example / parse_example / parse_single_sequence_example: tf.train.Example and
// tf.train.SequenceExample protocol buffers (as TFRecordDataset yields them) decoded into named
// components, with a hand-written wire-format reader; and the encoders that write them.
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "data/element.hpp"
#include "data/sparse_tensor.hpp"

namespace keras::data {

/// A feature with a fixed number of values: dtype "float32", "int64" or "string".
struct FixedLenFeature {
  Shape shape{};
  std::string dtype = "float32";
  /// Used when an Example lacks the feature; without it the feature is required.
  std::optional<Component> default_value{};
};

/// A feature with any number of values, parsed (as tf) into a SparseTensor element: indices [n, 1],
/// values [n], dense_shape [n] for one Example; indices [nnz, 2] (row, position) and dense_shape
/// [batch, longest] for parse_example. With to_dense, a 1-D component instead (padded with 0 or "" in a
/// batch: the SparseTensor's to_dense).
struct VarLenFeature {
  std::string dtype = "float32";
  bool to_dense = false;
};

/// Any number of values, in groups of `shape`: parsed into [n, *shape] (tf.io.FixedLenSequenceFeature).
/// In parse_example, rows are padded to the longest with default_value (0 or ""); an Example lacking the
/// feature gives n = 0 when allow_missing (which Example parsing requires, as tf does).
struct FixedLenSequenceFeature {
  Shape shape{};
  std::string dtype = "float32";
  bool allow_missing = false;
  std::optional<double> default_value{};
};

using FeatureSpec = std::variant<FixedLenFeature, VarLenFeature, FixedLenSequenceFeature>;
using FeatureMap = std::map<std::string, FeatureSpec>;

/// One serialized Example into {name: component}.
Element parse_single_example(const std::string& serialized, const FeatureMap& features);
/// A 1-D string component of serialized Examples (a batch) into {name: [batch, ...] component}.
Element parse_example(const Component& serialized, const FeatureMap& features);
/// One serialized SequenceExample into (context, feature_lists) as tf.io.parse_single_sequence_example:
/// context features as in parse_single_example; sequence features are FixedLenSequenceFeature
/// ([steps, *shape], each step exactly shape's values) or VarLenFeature (sparse, indices (step, position)).
std::pair<Element, Element> parse_single_sequence_example(const std::string& serialized, const FeatureMap& context_features,
                                                          const FeatureMap& sequence_features);

/// The raw lists of one feature of an Example.
struct ExampleFeature {
  enum class Kind { none, bytes_list, float_list, int64_list } kind = Kind::none;
  std::vector<std::string> bytes;
  std::vector<float> floats;
  std::vector<std::int64_t> ints;
  static ExampleFeature bytes_list(std::vector<std::string> v);
  static ExampleFeature float_list(std::vector<float> v);
  static ExampleFeature int64_list(std::vector<std::int64_t> v);
};
/// Every feature of one serialized Example, by name. Throws keras::IOError on malformed bytes.
std::map<std::string, ExampleFeature> decode_example(const std::string& serialized);

struct SequenceExampleFeatures {
  std::map<std::string, ExampleFeature> context;
  std::map<std::string, std::vector<ExampleFeature>> feature_lists;
};
SequenceExampleFeatures decode_sequence_example(const std::string& serialized);

/// A serialized tf.train.Example (features in name order, numbers packed: what protobuf's deterministic
/// serialization writes).
std::string encode_example(const std::map<std::string, ExampleFeature>& features);
/// An Example from named components: floating → float_list, integer and bool → int64_list, strings →
/// bytes_list, values row-major (what tf.train.Feature of a flattened array holds).
std::string make_example(const Element& named_components);
std::string encode_sequence_example(const SequenceExampleFeatures& example);
/// The ExampleFeature of one component (as make_example converts it).
ExampleFeature to_example_feature(const Component& c);

}  // namespace keras::data
