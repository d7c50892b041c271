#include "data/example_parsing.hpp"

#include <fmt/format.h>

#include "data/protobuf_wire.hpp"

namespace keras::data {
namespace {

using detail::kFixed32;
using detail::kLengthDelimited;
using detail::kVarint;
using Reader = detail::WireReader;
using K = ExampleFeature::Kind;

// Field numbers of tensorflow/core/example/{example,feature}.proto:
// Example.features = 1; SequenceExample.context = 1, feature_lists = 2; Features.feature = 1 and
// FeatureLists.feature_list = 1 (map entries: key = 1, value = 2); FeatureList.feature = 1;
// Feature.bytes_list = 1, float_list = 2, int64_list = 3; each list's value = 1 (numbers packed).
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
    else r.fail(fmt::format("list field with wire type {}", wire));
  }
}

ExampleFeature decode_feature(Reader r) {
  ExampleFeature f;
  while (!r.done()) {
    auto [field, wire] = r.tag();
    if (field >= 1 && field <= 3 && wire == kLengthDelimited) {
      f = ExampleFeature{};  // oneof: the last one wins
      f.kind = static_cast<K>(field);
      decode_list(r.sub(), f, static_cast<int>(field));
    } else {
      r.skip(wire);
    }
  }
  return f;
}

// The entries (key = 1, value = 2) of a map field numbered 1 in r, each value given to fn.
template <class Fn>
void decode_map(Reader r, Fn&& fn) {
  while (!r.done()) {
    auto [field, wire] = r.tag();
    if (field != 1 || wire != kLengthDelimited) {
      r.skip(wire);
      continue;
    }
    Reader entry = r.sub();
    std::string key;
    std::optional<Reader> value;
    while (!entry.done()) {
      auto [efield, ewire] = entry.tag();
      if (efield == 1 && ewire == kLengthDelimited) key = entry.bytes();
      else if (efield == 2 && ewire == kLengthDelimited) value = entry.sub();
      else entry.skip(ewire);
    }
    fn(key, value);
  }
}

std::map<std::string, ExampleFeature> decode_features(Reader r) {
  std::map<std::string, ExampleFeature> out;
  decode_map(r, [&](const std::string& key, std::optional<Reader>& v) { out[key] = v ? decode_feature(*v) : ExampleFeature{}; });
  return out;
}

K kind_of(const std::string& dtype, const std::string& name) {
  if (dtype == "float32") return K::float_list;
  if (dtype == "int64") return K::int64_list;
  if (dtype == "string") return K::bytes_list;
  throw ValueError("Feature '" + name + "': dtype must be float32, int64 or string, got " + dtype);
}
const char* list_name(K k) { return k == K::float_list ? "float_list" : k == K::int64_list ? "int64_list" : "bytes_list"; }

std::size_t count(const ExampleFeature& f) {
  return f.kind == K::float_list ? f.floats.size() : f.kind == K::int64_list ? f.ints.size() : f.bytes.size();
}

// The values of f (of `kind`, or none) as a component of `shape`.
Component values_component(const ExampleFeature* f, K kind, Shape shape) {
  if (kind == K::float_list) return Tensor::from_vector<float>(f ? f->floats : std::vector<float>{}, shape);
  if (kind == K::int64_list) return Tensor::from_vector<std::int64_t>(f ? f->ints : std::vector<std::int64_t>{}, shape);
  return Component::strings(f ? f->bytes : std::vector<std::string>{}, shape);
}

void check_kind(const std::string& name, const ExampleFeature& f, K want, const std::string& dtype) {
  if (f.kind != want)
    throw ValueError("Feature '" + name + "' is declared " + dtype + " (" + list_name(want) + ") but the data holds a " +
                     (f.kind == K::none ? std::string("feature with no list") : std::string(list_name(f.kind))));
}

Component fixed_component(const std::string& name, const ExampleFeature* f, const FixedLenFeature& spec) {
  const K kind = kind_of(spec.dtype, name);
  if (!f || f->kind == K::none) {
    if (!spec.default_value)
      throw ValueError("Feature '" + name + "' is required but could not be found in the Example; give it a default_value");
    return *spec.default_value;
  }
  check_kind(name, *f, kind, spec.dtype);
  const std::int64_t want = shape_size(spec.shape);
  if (static_cast<std::int64_t>(count(*f)) != want)
    throw ValueError(fmt::format("Feature '{}': FixedLenFeature of shape {} needs {} values, the Example has {}", name,
                                 shape_str(spec.shape), want, count(*f)));
  return values_component(f, kind, spec.shape);
}

// One Example's VarLen values as a 1-D component.
Component var_values(const std::string& name, const ExampleFeature* f, const VarLenFeature& spec) {
  const K kind = kind_of(spec.dtype, name);
  const bool missing = !f || f->kind == K::none;
  if (!missing) check_kind(name, *f, kind, spec.dtype);
  return values_component(missing ? nullptr : f, kind, {missing ? 0 : static_cast<std::int64_t>(count(*f))});
}

// A FixedLenSequenceFeature's values: [n, *shape].
Component sequence_values(const std::string& name, const ExampleFeature* f, const FixedLenSequenceFeature& spec) {
  const K kind = kind_of(spec.dtype, name);
  const bool missing = !f || f->kind == K::none;
  if (missing && !spec.allow_missing)
    throw ValueError("Feature '" + name + "' is missing; give FixedLenSequenceFeature allow_missing = true to accept that");
  if (!missing) check_kind(name, *f, kind, spec.dtype);
  const std::int64_t per = shape_size(spec.shape), n = missing ? 0 : static_cast<std::int64_t>(count(*f));
  if (per <= 0 || n % per != 0)
    throw ValueError(fmt::format("Feature '{}': {} values do not split into rows of shape {}", name, n, shape_str(spec.shape)));
  Shape shape = spec.shape;
  shape.insert(shape.begin(), n / per);
  return values_component(missing ? nullptr : f, kind, shape);
}

// Sparse from per-row 1-D values: indices (row, position) for a batch, or (position) for one row.
Element sparse_of_rows(const std::vector<Component>& rows, bool batched) {
  std::vector<std::int64_t> idx;
  std::vector<Component> parts;
  std::int64_t longest = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::int64_t n = rows[r].shape()[0];
    longest = std::max(longest, n);
    for (std::int64_t k = 0; k < n; ++k) {
      if (batched) idx.push_back(static_cast<std::int64_t>(r));
      idx.push_back(k);
    }
    if (n) parts.push_back(rows[r]);
  }
  const std::int64_t rank = batched ? 2 : 1, nnz = static_cast<std::int64_t>(idx.size()) / rank;
  Component values = parts.empty() ? rows[0].rows(0, 0) : parts.size() == 1 ? parts[0] : Component::concat(parts);
  const std::vector<std::int64_t> shape = batched ? std::vector<std::int64_t>{static_cast<std::int64_t>(rows.size()), longest}
                                                  : std::vector<std::int64_t>{longest};
  return SparseTensor{Tensor::from_vector<std::int64_t>(idx, {nnz, rank}), values, Tensor::from_vector<std::int64_t>(shape)}.to_element();
}

Element parse_features(const std::map<std::string, ExampleFeature>& decoded, const FeatureMap& features, bool sequence_allowed_missing_check) {
  std::vector<std::pair<std::string, Element>> out;
  for (const auto& [name, spec] : features) {
    auto it = decoded.find(name);
    const ExampleFeature* f = it == decoded.end() ? nullptr : &it->second;
    if (const auto* fixed = std::get_if<FixedLenFeature>(&spec)) out.emplace_back(name, fixed_component(name, f, *fixed));
    else if (const auto* var = std::get_if<VarLenFeature>(&spec)) {
      Component v = var_values(name, f, *var);
      out.emplace_back(name, var->to_dense ? Element(v) : sparse_of_rows({v}, false));
    } else {
      const auto& seq = std::get<FixedLenSequenceFeature>(spec);
      if (sequence_allowed_missing_check && !seq.allow_missing)
        throw ValueError("Feature '" + name + "': a FixedLenSequenceFeature in Example parsing needs allow_missing = true (as tf requires)");
      out.emplace_back(name, sequence_values(name, f, seq));
    }
  }
  return Element::dict(std::move(out));
}

}  // namespace

std::map<std::string, ExampleFeature> decode_example(const std::string& serialized) {
  std::map<std::string, ExampleFeature> out;
  Reader example(serialized.data(), serialized.size(), "Example");
  while (!example.done()) {
    auto [field, wire] = example.tag();
    if (field != 1 || wire != kLengthDelimited) {
      example.skip(wire);
      continue;
    }
    for (auto& [k, v] : decode_features(example.sub())) out[k] = std::move(v);  // repeated messages merge
  }
  return out;
}

SequenceExampleFeatures decode_sequence_example(const std::string& serialized) {
  SequenceExampleFeatures out;
  Reader ex(serialized.data(), serialized.size(), "SequenceExample");
  while (!ex.done()) {
    auto [field, wire] = ex.tag();
    if (field == 1 && wire == kLengthDelimited) {
      for (auto& [k, v] : decode_features(ex.sub())) out.context[k] = std::move(v);
    } else if (field == 2 && wire == kLengthDelimited) {
      decode_map(ex.sub(), [&](const std::string& key, std::optional<Reader>& v) {
        std::vector<ExampleFeature> steps;
        if (v)
          while (!v->done()) {
            auto [ffield, fwire] = v->tag();
            if (ffield == 1 && fwire == kLengthDelimited) steps.push_back(decode_feature(v->sub()));
            else v->skip(fwire);
          }
        out.feature_lists[key] = std::move(steps);
      });
    } else {
      ex.skip(wire);
    }
  }
  return out;
}

Element parse_single_example(const std::string& serialized, const FeatureMap& features) {
  return parse_features(decode_example(serialized), features, true);
}

Element parse_example(const Component& serialized, const FeatureMap& features) {
  if (!serialized.is_string() || serialized.shape().size() != 1)
    throw ValueError("parse_example needs a 1-D batch of serialized Examples (strings), got " +
                     shape_str(serialized.shape()) + " " + serialized.dtype_name() + "; use parse_single_example for one");
  std::vector<std::map<std::string, ExampleFeature>> rows;
  for (const auto& s : serialized.string_values()) rows.push_back(decode_example(s));
  std::vector<std::pair<std::string, Element>> out;
  for (const auto& [name, spec] : features) {
    std::vector<Component> col;
    for (const auto& r : rows) {
      auto it = r.find(name);
      const ExampleFeature* f = it == r.end() ? nullptr : &it->second;
      if (const auto* fixed = std::get_if<FixedLenFeature>(&spec)) col.push_back(fixed_component(name, f, *fixed));
      else if (const auto* var = std::get_if<VarLenFeature>(&spec)) col.push_back(var_values(name, f, *var));
      else {
        const auto& seq = std::get<FixedLenSequenceFeature>(spec);
        if (!seq.allow_missing)
          throw ValueError("Feature '" + name + "': a FixedLenSequenceFeature in Example parsing needs allow_missing = true (as tf requires)");
        col.push_back(sequence_values(name, f, seq));
      }
    }
    if (col.empty()) {
      out.emplace_back(name, Component());
      continue;
    }
    if (std::holds_alternative<FixedLenFeature>(spec)) out.emplace_back(name, Component::stack(col));
    else if (const auto* var = std::get_if<VarLenFeature>(&spec)) {
      out.emplace_back(name, var->to_dense ? Element(Component::pad_stack(col, {-1}, 0.0)) : sparse_of_rows(col, true));
    } else {
      const auto& seq = std::get<FixedLenSequenceFeature>(spec);
      Shape pad(seq.shape.size() + 1, -1);
      for (std::size_t d = 0; d < seq.shape.size(); ++d) pad[d + 1] = seq.shape[d];
      out.emplace_back(name, Component::pad_stack(col, pad, seq.default_value.value_or(0.0)));
    }
  }
  return Element::dict(std::move(out));
}

std::pair<Element, Element> parse_single_sequence_example(const std::string& serialized, const FeatureMap& context_features,
                                                          const FeatureMap& sequence_features) {
  const SequenceExampleFeatures ex = decode_sequence_example(serialized);
  Element context = parse_features(ex.context, context_features, true);
  std::vector<std::pair<std::string, Element>> seq;
  for (const auto& [name, spec] : sequence_features) {
    auto it = ex.feature_lists.find(name);
    const std::vector<ExampleFeature>* steps = it == ex.feature_lists.end() ? nullptr : &it->second;
    if (const auto* fixed = std::get_if<FixedLenSequenceFeature>(&spec)) {
      if (!steps && !fixed->allow_missing)
        throw ValueError("Sequence feature '" + name + "' is missing from the SequenceExample's feature_lists; give "
                         "FixedLenSequenceFeature allow_missing = true to accept that");
      const K kind = kind_of(fixed->dtype, name);
      const std::int64_t per = shape_size(fixed->shape);
      std::vector<Component> rows;
      for (std::size_t s = 0; steps && s < steps->size(); ++s) {
        const ExampleFeature& f = (*steps)[s];
        check_kind(name, f, kind, fixed->dtype);
        if (static_cast<std::int64_t>(count(f)) != per)
          throw ValueError(fmt::format("Sequence feature '{}' step {}: FixedLenSequenceFeature of shape {} needs {} values, the step "
                                       "has {}",
                                       name, s, shape_str(fixed->shape), per, count(f)));
        rows.push_back(values_component(&f, kind, fixed->shape));
      }
      if (rows.empty()) {
        Shape shape = fixed->shape;
        shape.insert(shape.begin(), 0);
        seq.emplace_back(name, values_component(nullptr, kind, shape));
      } else {
        seq.emplace_back(name, Component::stack(rows));
      }
    } else if (const auto* var = std::get_if<VarLenFeature>(&spec)) {
      std::vector<Component> rows;
      for (std::size_t s = 0; steps && s < steps->size(); ++s) rows.push_back(var_values(name, &(*steps)[s], *var));
      if (rows.empty()) rows.push_back(var_values(name, nullptr, *var)), rows.clear();
      if (var->to_dense) {
        if (rows.empty()) seq.emplace_back(name, values_component(nullptr, kind_of(var->dtype, name), {0, 0}));
        else seq.emplace_back(name, Component::pad_stack(rows, {-1}, 0.0));
      } else if (rows.empty()) {
        seq.emplace_back(name, SparseTensor{Tensor::from_vector<std::int64_t>({}, {0, 2}), values_component(nullptr, kind_of(var->dtype, name), {0}),
                                            Tensor::from_vector<std::int64_t>({0, 0})}.to_element());
      } else {
        seq.emplace_back(name, sparse_of_rows(rows, true));
      }
    } else {
      throw ValueError("Sequence feature '" + name + "' must be a FixedLenSequenceFeature or a VarLenFeature; FixedLenFeature "
                       "belongs in context_features");
    }
  }
  return {std::move(context), Element::dict(std::move(seq))};
}

}  // namespace keras::data
