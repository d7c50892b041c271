#pragma once
// tf.io.parse_single_example / parse_example: tf.train.Example protocol buffers (as TFRecordDataset
// yields them) decoded into named components, with a hand-written wire-format reader.
#include <map>
#include <optional>
#include <string>
#include <variant>

#include "data/element.hpp"

namespace keras::data {

/// A feature with a fixed number of values: dtype "float32", "int64" or "string".
struct FixedLenFeature {
  Shape shape{};
  std::string dtype = "float32";
  /// Used when an Example lacks the feature; without it the feature is required.
  std::optional<Component> default_value{};
};

/// A feature with any number of values; parsed into a 1-D component (parse_example pads each batch
/// to its longest with 0 or ""; tf returns a SparseTensor, whose to_dense this equals).
struct VarLenFeature {
  std::string dtype = "float32";
};

using FeatureSpec = std::variant<FixedLenFeature, VarLenFeature>;
using FeatureMap = std::map<std::string, FeatureSpec>;

/// One serialized Example into {name: component}.
Element parse_single_example(const std::string& serialized, const FeatureMap& features);
/// A 1-D string component of serialized Examples (a batch) into {name: [batch, ...] component}.
Element parse_example(const Component& serialized, const FeatureMap& features);

/// The raw lists of one feature of an Example.
struct ExampleFeature {
  enum class Kind { none, bytes_list, float_list, int64_list } kind = Kind::none;
  std::vector<std::string> bytes;
  std::vector<float> floats;
  std::vector<std::int64_t> ints;
};
/// Every feature of one serialized Example, by name. Throws keras::IOError on malformed bytes.
std::map<std::string, ExampleFeature> decode_example(const std::string& serialized);

}  // namespace keras::data
