#include "data/example_parsing.hpp"

#include <cstring>

#include <fmt/format.h>

namespace keras::data {
namespace {

// Field numbers of tensorflow/core/example/{example,feature}.proto:
// Example.features = 1; Features.feature = 1 (map entries: key = 1, value = 2);
// Feature.bytes_list = 1, float_list = 2, int64_list = 3; each list's value = 1 (numbers packed).
enum WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class Reader {
 public:
  Reader(const char* p, std::size_t n) : p_(p), end_(p + n) {}
  bool done() const { return p_ >= end_; }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) fail("a varint runs past the end");
      const auto b = static_cast<unsigned char>(*p_++);
      v |= std::uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("a varint is longer than 10 bytes");
  }
  Reader sub() {
    const std::uint64_t n = varint();
    if (n > static_cast<std::uint64_t>(end_ - p_)) fail("a length-delimited field runs past the end");
    Reader r(p_, n);
    p_ += n;
    return r;
  }
  std::string bytes() {
    Reader r = sub();
    return {r.p_, r.end_};
  }
  float fixed32_float() {
    if (end_ - p_ < 4) fail("a 32-bit field runs past the end");
    float f;
    std::memcpy(&f, p_, 4);  // little-endian on every supported host
    p_ += 4;
    return f;
  }
  void skip(int wire) {
    switch (wire) {
      case kVarint: varint(); break;
      case kFixed64: advance(8); break;
      case kLengthDelimited: sub(); break;
      case kFixed32: advance(4); break;
      default: fail(fmt::format("unknown wire type {}", wire));
    }
  }
  /// The next field's number and wire type.
  std::pair<std::uint32_t, int> tag() {
    const std::uint64_t t = varint();
    return {static_cast<std::uint32_t>(t >> 3), static_cast<int>(t & 7)};
  }
  [[noreturn]] static void fail(const std::string& what) {
    throw IOError("Malformed tf.train.Example: " + what + " (is the record really a serialized Example?)");
  }

 private:
  const char* p_;
  const char* end_;
  void advance(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) fail("a fixed-size field runs past the end");
    p_ += n;
  }
};

void decode_list(Reader r, ExampleFeature& f, int which) {
  while (!r.done()) {
    auto [field, wire] = r.tag();
    if (field != 1) {
      r.skip(wire);
      continue;
    }
    if (which == 1 && wire == kLengthDelimited) f.bytes.push_back(r.bytes());
    else if (which == 2 && wire == kLengthDelimited) {
      Reader packed = r.sub();
      while (!packed.done()) f.floats.push_back(packed.fixed32_float());
    } else if (which == 2 && wire == kFixed32) f.floats.push_back(r.fixed32_float());
    else if (which == 3 && wire == kLengthDelimited) {
      Reader packed = r.sub();
      while (!packed.done()) f.ints.push_back(static_cast<std::int64_t>(packed.varint()));
    } else if (which == 3 && wire == kVarint) f.ints.push_back(static_cast<std::int64_t>(r.varint()));
    else Reader::fail(fmt::format("list field with wire type {}", wire));
  }
}

ExampleFeature decode_feature(Reader r) {
  ExampleFeature f;
  while (!r.done()) {
    auto [field, wire] = r.tag();
    if (field >= 1 && field <= 3 && wire == kLengthDelimited) {
      f = ExampleFeature{};  // oneof: the last one wins
      f.kind = static_cast<ExampleFeature::Kind>(field);
      decode_list(r.sub(), f, static_cast<int>(field));
    } else {
      r.skip(wire);
    }
  }
  return f;
}

Component fixed_component(const std::string& name, const ExampleFeature* f, const FixedLenFeature& spec) {
  if (!f || f->kind == ExampleFeature::Kind::none) {
    if (!spec.default_value)
      throw ValueError("Feature '" + name + "' is required but could not be found in the Example; give it a default_value");
    return *spec.default_value;
  }
  const std::int64_t want = shape_size(spec.shape);
  auto check_count = [&](std::size_t got) {
    if (static_cast<std::int64_t>(got) != want)
      throw ValueError(fmt::format("Feature '{}': FixedLenFeature of shape {} needs {} values, the Example has {}", name,
                                   shape_str(spec.shape), want, got));
  };
  using K = ExampleFeature::Kind;
  auto mismatch = [&] {
    return ValueError("Feature '" + name + "' is declared " + spec.dtype + " but the Example holds a different list type");
  };
  if (spec.dtype == "float32") {
    if (f->kind != K::float_list) throw mismatch();
    check_count(f->floats.size());
    return Tensor::from_vector<float>(f->floats, spec.shape);
  }
  if (spec.dtype == "int64") {
    if (f->kind != K::int64_list) throw mismatch();
    check_count(f->ints.size());
    return Tensor::from_vector<std::int64_t>(f->ints, spec.shape);
  }
  if (spec.dtype == "string") {
    if (f->kind != K::bytes_list) throw mismatch();
    check_count(f->bytes.size());
    return Component::strings(f->bytes, spec.shape);
  }
  throw ValueError("Feature '" + name + "': dtype must be float32, int64 or string, got " + spec.dtype);
}

Component var_component(const std::string& name, const ExampleFeature* f, const VarLenFeature& spec) {
  using K = ExampleFeature::Kind;
  const bool missing = !f || f->kind == K::none;
  if (spec.dtype == "float32") {
    if (!missing && f->kind != K::float_list) throw ValueError("Feature '" + name + "' is not a float_list");
    return missing ? Tensor::zeros({0}) : Tensor::from_vector<float>(f->floats);
  }
  if (spec.dtype == "int64") {
    if (!missing && f->kind != K::int64_list) throw ValueError("Feature '" + name + "' is not an int64_list");
    return missing ? Tensor::zeros({0}, DType::int64) : Tensor::from_vector<std::int64_t>(f->ints);
  }
  if (spec.dtype == "string") {
    if (!missing && f->kind != K::bytes_list) throw ValueError("Feature '" + name + "' is not a bytes_list");
    const auto v = missing ? std::vector<std::string>{} : f->bytes;
    return Component::strings(v, {static_cast<std::int64_t>(v.size())});
  }
  throw ValueError("Feature '" + name + "': dtype must be float32, int64 or string, got " + spec.dtype);
}

}  // namespace

std::map<std::string, ExampleFeature> decode_example(const std::string& serialized) {
  std::map<std::string, ExampleFeature> out;
  Reader example(serialized.data(), serialized.size());
  while (!example.done()) {
    auto [field, wire] = example.tag();
    if (field != 1 || wire != kLengthDelimited) {
      example.skip(wire);
      continue;
    }
    Reader features = example.sub();
    while (!features.done()) {
      auto [ffield, fwire] = features.tag();
      if (ffield != 1 || fwire != kLengthDelimited) {
        features.skip(fwire);
        continue;
      }
      Reader entry = features.sub();
      std::string key;
      ExampleFeature value;
      while (!entry.done()) {
        auto [efield, ewire] = entry.tag();
        if (efield == 1 && ewire == kLengthDelimited) key = entry.bytes();
        else if (efield == 2 && ewire == kLengthDelimited) value = decode_feature(entry.sub());
        else entry.skip(ewire);
      }
      out[key] = std::move(value);
    }
  }
  return out;
}

Element parse_single_example(const std::string& serialized, const FeatureMap& features) {
  const auto decoded = decode_example(serialized);
  std::vector<std::pair<std::string, Element>> out;
  for (const auto& [name, spec] : features) {
    auto it = decoded.find(name);
    const ExampleFeature* f = it == decoded.end() ? nullptr : &it->second;
    if (const auto* fixed = std::get_if<FixedLenFeature>(&spec)) out.emplace_back(name, fixed_component(name, f, *fixed));
    else out.emplace_back(name, var_component(name, f, std::get<VarLenFeature>(spec)));
  }
  return Element::dict(std::move(out));
}

Element parse_example(const Component& serialized, const FeatureMap& features) {
  if (!serialized.is_string() || serialized.shape().size() != 1)
    throw ValueError("parse_example needs a 1-D batch of serialized Examples (strings), got " +
                     shape_str(serialized.shape()) + " " + serialized.dtype_name() + "; use parse_single_example for one");
  std::vector<Element> rows;
  for (const auto& s : serialized.string_values()) rows.push_back(parse_single_example(s, features));
  std::vector<std::pair<std::string, Element>> out;
  std::size_t k = 0;
  for (const auto& [name, spec] : features) {
    std::vector<Component> col;
    for (const auto& r : rows) col.push_back(r.children()[k].leaf());
    ++k;
    if (col.empty()) {
      out.emplace_back(name, Component());
      continue;
    }
    if (std::holds_alternative<FixedLenFeature>(spec)) out.emplace_back(name, Component::stack(col, k - 1));
    else out.emplace_back(name, Component::pad_stack(col, {-1}, 0.0));
  }
  return Element::dict(std::move(out));
}

}  // namespace keras::data
