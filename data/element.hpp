#pragma once
// What a Dataset yields: a nested structure (a single component, a tuple, or named components) whose
// leaves are Components: Tensors, numeric or of strings (DType::string, tf.string).
#include <concepts>
#include <memory>
#include <type_traits>
#include <utility>
#include <string>
#include <utility>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::data {

/// A leaf of an element: a Tensor, numeric or of byte strings (DType::string).
class Component {
 public:
  Component() = default;
  Component(Tensor t) : tensor_(std::move(t)) {}  // NOLINT: implicit, elements are built from tensors
  Component(std::string s);  // NOLINT: a scalar string
  Component(const char* s) : Component(std::string(s)) {}  // NOLINT
  /// Strings of the given shape (row-major).
  static Component strings(std::vector<std::string> values, Shape shape);

  bool is_string() const { return tensor_.defined() && tensor_.dtype() == DType::string; }
  bool defined() const { return tensor_.defined(); }
  /// The tensor (of DType::string for strings).
  const Tensor& tensor() const { return tensor_; }
  /// A copy of the strings, row-major (throws for a numeric component).
  std::vector<std::string> string_values() const;
  /// The single string of a scalar (or one-element) string component.
  const std::string& str() const;
  Shape shape() const { return tensor_.defined() ? tensor_.shape() : Shape{}; }
  std::int64_t size() const { return shape_size(shape()); }
  /// "float32", "int64", ..., or "string".
  std::string dtype_name() const;

  /// Row i along the first axis (shares storage).
  Component row(std::int64_t i) const;
  /// Rows [begin, end) along the first axis.
  Component rows(std::int64_t begin, std::int64_t end) const;
  /// Stacks same-shaped components along a new first axis.
  static Component stack(const std::vector<Component>& parts, std::size_t component_index = 0);
  /// Stacks components padded to `shape` (-1: the largest in the batch) with `pad` (numeric) or "" (strings).
  static Component pad_stack(const std::vector<Component>& parts, Shape shape, double pad);
  /// Concatenates along the first axis.
  static Component concat(const std::vector<Component>& parts);

 private:
  Tensor tensor_;
};

/// dtype and shape of a component; -1 marks an unknown dimension.
struct TensorSpec {
  Shape shape{};
  std::string dtype = "float32";
  std::string str() const;
  bool operator==(const TensorSpec&) const = default;
};

/// The order that sorts `keys` (stable), for Nest::dict.
std::vector<std::size_t> sorted_order(const std::vector<std::string>& keys);

/// A nested structure with leaves of type Leaf: a leaf, a tuple or named components (kept sorted by name,
/// as tf.nest flattens dicts).
template <class Leaf>
class Nest {
 public:
  enum class Kind { leaf, tuple, dict };
  Nest() : kind_(Kind::tuple) {}
  template <class U>
    requires std::is_constructible_v<Leaf, U&&> && (!std::is_same_v<std::decay_t<U>, Nest>)
  Nest(U&& leaf) : kind_(Kind::leaf), leaf_(std::forward<U>(leaf)) {}  // NOLINT
  static Nest tuple(std::vector<Nest> items) {
    Nest n;
    n.children_ = std::move(items);
    return n;
  }
  static Nest dict(std::vector<std::pair<std::string, Nest>> items) {
    std::vector<std::string> names;
    for (const auto& item : items) names.push_back(item.first);
    Nest n;
    n.kind_ = Kind::dict;
    for (std::size_t i : sorted_order(names)) {
      auto& [k, v] = items[i];
      if (!n.keys_.empty() && n.keys_.back() == k) throw ValueError("Duplicate component name '" + k + "'");
      n.keys_.push_back(k);
      n.children_.push_back(std::move(v));
    }
    return n;
  }

  Kind kind() const { return kind_; }
  bool is_leaf() const { return kind_ == Kind::leaf; }
  bool is_tuple() const { return kind_ == Kind::tuple; }
  bool is_dict() const { return kind_ == Kind::dict; }
  const Leaf& leaf() const {
    if (!is_leaf()) throw ValueError("Expected a single component, got a " + std::string(is_dict() ? "dict" : "tuple") +
                                     " of " + std::to_string(size()) + "; index it first");
    return leaf_;
  }
  /// Number of tuple items or named components (0 for a leaf).
  std::size_t size() const { return children_.size(); }
  const std::vector<std::string>& keys() const { return keys_; }
  const std::vector<Nest>& children() const { return children_; }
  template <std::integral I>
  const Nest& operator[](I index) const {
    const auto i = static_cast<std::size_t>(index);
    if (is_leaf() || std::cmp_less(index, 0) || i >= children_.size())
      throw ValueError("Element index " + std::to_string(i) + " is out of range for a structure of " +
                       std::to_string(children_.size()) + " items");
    return children_[i];
  }
  const Nest& operator[](const std::string& key) const {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] == key) return children_[i];
    std::string known;
    for (const auto& k : keys_) known += (known.empty() ? "" : ", ") + k;
    throw ValueError("No component named '" + key + "'; the element has: " + known);
  }
  const Nest& operator[](const char* key) const { return (*this)[std::string(key)]; }

  /// The leaves in order (depth first, dicts by sorted name).
  std::vector<Leaf> flatten() const {
    std::vector<Leaf> out;
    flatten_into(out);
    return out;
  }
  /// A nest of this structure holding `flat` leaves (of any type).
  template <class Other>
  Nest<Other> pack(const std::vector<Other>& flat) const {
    std::size_t pos = 0;
    Nest<Other> out = pack_from<Other>(flat, pos);
    if (pos != flat.size()) throw ValueError("pack: structure has fewer leaves than given");
    return out;
  }
  /// Applies fn to every leaf.
  template <class Fn>
  auto map(Fn&& fn) const {
    using Out = std::decay_t<decltype(fn(std::declval<const Leaf&>()))>;
    std::vector<Out> flat;
    for (const auto& l : flatten()) flat.push_back(fn(l));
    return pack<Out>(flat);
  }
  /// Same kinds, sizes and names all the way down.
  template <class Other>
  bool same_structure(const Nest<Other>& o) const {
    if (static_cast<int>(kind_) != static_cast<int>(o.kind()) || size() != o.size() || keys_ != o.keys()) return false;
    for (std::size_t i = 0; i < size(); ++i)
      if (!children_[i].same_structure(o.children()[i])) return false;
    return true;
  }

 private:
  template <class> friend class Nest;
  Kind kind_;
  Leaf leaf_{};
  std::vector<Nest> children_;
  std::vector<std::string> keys_;

  void flatten_into(std::vector<Leaf>& out) const {
    if (is_leaf()) out.push_back(leaf_);
    for (const auto& c : children_) c.flatten_into(out);
  }
  template <class Other>
  Nest<Other> pack_from(const std::vector<Other>& flat, std::size_t& pos) const {
    if (is_leaf()) {
      if (pos >= flat.size()) throw ValueError("pack: structure has more leaves than given");
      return Nest<Other>(flat[pos++]);
    }
    Nest<Other> n;
    n.kind_ = static_cast<typename Nest<Other>::Kind>(kind_);
    n.keys_ = keys_;
    for (const auto& c : children_) n.children_.push_back(c.template pack_from<Other>(flat, pos));
    return n;
  }
};

/// One element of a Dataset.
using Element = Nest<Component>;
/// The structure, dtypes and shapes of a Dataset's elements.
using ElementSpec = Nest<TensorSpec>;

/// Shorthands: tuple({x, y}) and named({{"image", x}, {"label", y}}).
Element tuple(std::vector<Element> items);
Element named(std::vector<std::pair<std::string, Element>> items);

/// The spec of one element (shapes fully known).
ElementSpec spec_of(const Element& e);
/// "(TensorSpec(shape=(None, 28), dtype=float32), ...)" like tf.data prints element_spec.
std::string spec_str(const ElementSpec& s);
/// The spec with dimension `axis`... widened: dims that differ between a and b become -1.
ElementSpec merge_specs(const ElementSpec& a, const ElementSpec& b);
/// The spec of a batch of elements of spec s (batch dimension `batch`, -1 when unknown).
ElementSpec batched_spec(const ElementSpec& s, std::int64_t batch);
/// The spec of one row of elements of spec s (throws for a scalar component).
ElementSpec unbatched_spec(const ElementSpec& s);

}  // namespace keras::data
