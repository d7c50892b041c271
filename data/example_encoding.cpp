// Writing tf.train.Example and SequenceExample protocol buffers (tf.train.Example(...).SerializeToString()).
#include <fmt/format.h>

#include "data/example_parsing.hpp"
#include "data/protobuf_wire.hpp"

namespace keras::data {
namespace {

using namespace detail;

// Feature: bytes_list = 1, float_list = 2, int64_list = 3; each list's value = 1 (numbers packed).
std::string encode_feature(const ExampleFeature& f) {
  std::string list;
  switch (f.kind) {
    case ExampleFeature::Kind::none: return {};
    case ExampleFeature::Kind::bytes_list:
      for (const auto& b : f.bytes) put_bytes(list, 1, b);
      break;
    case ExampleFeature::Kind::float_list:
      if (!f.floats.empty()) put_bytes(list, 1, std::string(reinterpret_cast<const char*>(f.floats.data()), 4 * f.floats.size()));
      break;
    case ExampleFeature::Kind::int64_list:
      if (!f.ints.empty()) {
        std::string packed;
        for (auto v : f.ints) put_varint(packed, static_cast<std::uint64_t>(v));  // negatives: 10 bytes, as protobuf
        put_bytes(list, 1, packed);
      }
      break;
  }
  std::string out;
  put_bytes(out, static_cast<std::uint32_t>(f.kind), list);
  return out;
}

// Features: map<string, Feature> feature = 1 (entries: key = 1, value = 2), in key order.
std::string encode_features(const std::map<std::string, ExampleFeature>& features) {
  std::string out;
  for (const auto& [name, f] : features) {
    std::string entry;
    put_bytes(entry, 1, name);
    put_bytes(entry, 2, encode_feature(f));
    put_bytes(out, 1, entry);
  }
  return out;
}

}  // namespace

ExampleFeature ExampleFeature::bytes_list(std::vector<std::string> v) {
  ExampleFeature f;
  f.kind = Kind::bytes_list;
  f.bytes = std::move(v);
  return f;
}
ExampleFeature ExampleFeature::float_list(std::vector<float> v) {
  ExampleFeature f;
  f.kind = Kind::float_list;
  f.floats = std::move(v);
  return f;
}
ExampleFeature ExampleFeature::int64_list(std::vector<std::int64_t> v) {
  ExampleFeature f;
  f.kind = Kind::int64_list;
  f.ints = std::move(v);
  return f;
}

ExampleFeature to_example_feature(const Component& c) {
  if (!c.defined()) throw ValueError("make_example: a component is empty (undefined)");
  if (c.is_string()) return ExampleFeature::bytes_list(c.string_values());
  const DType d = c.tensor().dtype();
  if (is_floating(d)) return ExampleFeature::float_list(c.tensor().astype(DType::float32).to_vector<float>());
  return ExampleFeature::int64_list(c.tensor().astype(DType::int64).to_vector<std::int64_t>());
}

std::string encode_example(const std::map<std::string, ExampleFeature>& features) {
  std::string out;
  put_bytes(out, 1, encode_features(features));  // Example.features = 1
  return out;
}

std::string make_example(const Element& e) {
  if (!e.is_dict())
    throw ValueError("make_example needs named components ({name: values}), got " + spec_str(spec_of(e)) +
                     "; use data::named({{\"feature\", tensor}, ...})");
  std::map<std::string, ExampleFeature> features;
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (!e.children()[i].is_leaf())
      throw ValueError("make_example: feature '" + e.keys()[i] + "' is a nested structure; an Example holds flat lists");
    features[e.keys()[i]] = to_example_feature(e.children()[i].leaf());
  }
  return encode_example(features);
}

std::string encode_sequence_example(const SequenceExampleFeatures& ex) {
  std::string out;
  put_bytes(out, 1, encode_features(ex.context));  // SequenceExample.context = 1
  std::string lists;                               // FeatureLists: map<string, FeatureList> feature_list = 1
  for (const auto& [name, steps] : ex.feature_lists) {
    std::string list;  // FeatureList: repeated Feature feature = 1
    for (const auto& f : steps) put_bytes(list, 1, encode_feature(f));
    std::string entry;
    put_bytes(entry, 1, name);
    put_bytes(entry, 2, list);
    put_bytes(lists, 1, entry);
  }
  put_bytes(out, 2, lists);  // SequenceExample.feature_lists = 2
  return out;
}

}  // namespace keras::data
