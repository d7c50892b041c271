#include "data/element.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

#include <fmt/format.h>

namespace keras::data {

std::vector<std::size_t> sorted_order(const std::vector<std::string>& keys) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  return order;
}

Element tuple(std::vector<Element> items) { return Element::tuple(std::move(items)); }
Element named(std::vector<std::pair<std::string, Element>> items) { return Element::dict(std::move(items)); }

namespace {
// Copies n elements of src from element `from` to dst at element `to` (strings one by one, numbers as bytes).
void copy_elements(const Tensor& src, std::int64_t from, const Tensor& dst, std::int64_t to, std::int64_t n) {
  if (n <= 0) return;
  if (src.dtype() == DType::string) {
    std::copy(src.data<std::string>() + from, src.data<std::string>() + from + n, dst.data<std::string>() + to);
    return;
  }
  const std::size_t elem = dtype_size(src.dtype());
  std::memcpy(static_cast<char*>(dst.raw_data()) + static_cast<std::size_t>(to) * elem,
              static_cast<const char*>(src.raw_data()) + static_cast<std::size_t>(from) * elem,
              static_cast<std::size_t>(n) * elem);
}
}  // namespace

Component::Component(std::string s) : tensor_(Tensor::from_vector<std::string>({std::move(s)}, Shape{})) {}

Component Component::strings(std::vector<std::string> values, Shape shape) {
  if (shape_size(shape) != static_cast<std::int64_t>(values.size()))
    throw ValueError(fmt::format("{} strings do not fill shape {}", values.size(), shape_str(shape)));
  return Tensor::from_vector<std::string>(values, shape);
}

std::vector<std::string> Component::string_values() const {
  if (!is_string()) throw ValueError("This component is a numeric tensor (" + dtype_name() + "), not strings");
  return tensor_.to_vector<std::string>();
}

const std::string& Component::str() const {
  if (!is_string()) throw ValueError("This component is a numeric tensor (" + dtype_name() + "), not strings");
  if (tensor_.size() != 1) throw ValueError("str() needs a scalar string component, got shape " + shape_str(shape()));
  return *tensor_.data<std::string>();
}

std::string Component::dtype_name() const { return tensor_.defined() ? keras::dtype_name(tensor_.dtype()) : "undefined"; }

Component Component::rows(std::int64_t begin, std::int64_t end) const {
  if (shape().empty()) throw ValueError("Cannot slice a scalar component; slicing needs at least one dimension");
  return tensor_.slice(begin, end);
}

Component Component::row(std::int64_t i) const {
  const Shape s = shape();
  if (s.empty()) throw ValueError("Cannot slice a scalar component; slicing needs at least one dimension");
  if (i < 0 || i >= s[0]) throw ValueError(fmt::format("Row {} out of range for shape {}", i, shape_str(s)));
  return tensor_.slice(i, i + 1).reshape(Shape(s.begin() + 1, s.end()));
}

Component Component::stack(const std::vector<Component>& parts, std::size_t component_index) {
  if (parts.empty()) throw ValueError("Cannot stack zero components");
  const Shape s = parts[0].shape();
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (parts[i].shape() != s || parts[i].dtype_name() != parts[0].dtype_name())
      throw ValueError(fmt::format(
          "Cannot batch tensors with different shapes in component {}. First element had shape {} and element {} had "
          "shape {}; use padded_batch() for variable-length elements",
          component_index, shape_str(s), i, shape_str(parts[i].shape())));
  Shape out = s;
  out.insert(out.begin(), static_cast<std::int64_t>(parts.size()));
  Tensor t = Tensor::empty(out, parts[0].tensor_.dtype());
  const std::int64_t per = shape_size(s);
  for (std::size_t i = 0; i < parts.size(); ++i) copy_elements(parts[i].tensor_, 0, t, static_cast<std::int64_t>(i) * per, per);
  return t;
}

namespace {
// Copies the block `src` (shape ss) into `dst` (shape ds, each dim >= ss's) at the origin.
void copy_padded(const char* src, const Shape& ss, char* dst, const Shape& ds, std::size_t elem) {
  if (ss.empty()) {
    std::memcpy(dst, src, elem);
    return;
  }
  const Shape si(ss.begin() + 1, ss.end()), di(ds.begin() + 1, ds.end());
  const std::size_t sstride = static_cast<std::size_t>(shape_size(si)) * elem, dstride = static_cast<std::size_t>(shape_size(di)) * elem;
  for (std::int64_t i = 0; i < ss[0]; ++i) copy_padded(src + i * sstride, si, dst + i * dstride, di, elem);
}
}  // namespace

Component Component::pad_stack(const std::vector<Component>& parts, Shape shape, double pad) {
  if (parts.empty()) throw ValueError("Cannot pad-stack zero components");
  const std::size_t rank = parts[0].shape().size();
  if (shape.empty() && rank) shape.assign(rank, -1);
  if (shape.size() != rank)
    throw ValueError(fmt::format("padded_shapes rank {} does not match the component's rank {}", shape.size(), rank));
  for (const auto& p : parts)
    if (p.shape().size() != rank) throw ValueError("padded_batch: components of one position differ in rank");
  Shape target = shape;
  for (std::size_t d = 0; d < rank; ++d) {
    std::int64_t mx = 0;
    for (const auto& p : parts) mx = std::max(mx, p.shape()[d]);
    if (target[d] < 0) target[d] = mx;
    else if (mx > target[d])
      throw ValueError(fmt::format("padded_batch: an element has dimension {} = {}, larger than the padded shape {}", d,
                                   mx, shape_str(shape)));
  }
  Shape out = target;
  out.insert(out.begin(), static_cast<std::int64_t>(parts.size()));
  const std::int64_t per = shape_size(target);
  if (parts[0].is_string()) {
    std::vector<std::string> all(static_cast<std::size_t>(per) * parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) {
      // strings padded through an index map: copy element-wise
      const Shape ps = parts[i].shape();
      std::vector<std::int64_t> idx(rank, 0);
      for (std::int64_t k = 0; k < parts[i].size(); ++k) {
        std::int64_t rem = k, off = 0;
        for (int d = static_cast<int>(rank) - 1; d >= 0; --d) { idx[d] = rem % ps[d]; rem /= ps[d]; }
        for (std::size_t d = 0; d < rank; ++d) off = off * target[d] + idx[d];
        all[i * per + off] = parts[i].tensor_.data<std::string>()[k];
      }
    }
    return strings(std::move(all), out);
  }
  const DType dt = parts[0].tensor_.dtype();
  Tensor t = Tensor::full(out, pad, dt);
  const std::size_t elem = dtype_size(dt);
  char* dst = static_cast<char*>(t.raw_data());
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].tensor_.dtype() != dt) throw ValueError("padded_batch: components of one position differ in dtype");
    if (parts[i].size() == 0) continue;
    copy_padded(static_cast<const char*>(parts[i].tensor_.raw_data()), parts[i].shape(), dst + i * per * elem, target, elem);
  }
  return t;
}

Component Component::concat(const std::vector<Component>& parts) {
  if (parts.empty()) throw ValueError("Cannot concatenate zero components");
  Shape out = parts[0].shape();
  if (out.empty()) throw ValueError("Cannot concatenate scalars");
  out[0] = 0;
  for (const auto& p : parts) {
    Shape s = p.shape();
    if (s.size() != out.size() || !std::equal(s.begin() + 1, s.end(), out.begin() + 1))
      throw ValueError("concat: shapes " + shape_str(parts[0].shape()) + " and " + shape_str(s) + " differ beyond axis 0");
    out[0] += s[0];
  }
  Tensor t = Tensor::empty(out, parts[0].tensor_.dtype());
  std::int64_t at = 0;
  for (const auto& p : parts) {
    if (p.tensor_.dtype() != t.dtype())
      throw ValueError("concat: dtypes " + parts[0].dtype_name() + " and " + p.dtype_name() + " differ");
    copy_elements(p.tensor_, 0, t, at, p.size());
    at += p.size();
  }
  return t;
}

std::string TensorSpec::str() const { return "TensorSpec(shape=" + shape_str(shape) + ", dtype=" + dtype + ")"; }

ElementSpec spec_of(const Element& e) {
  return e.map([](const Component& c) { return TensorSpec{c.shape(), c.dtype_name()}; });
}

std::string spec_str(const ElementSpec& s) {
  if (s.is_leaf()) return s.leaf().str();
  std::string out = s.is_dict() ? "{" : "(";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    if (s.is_dict()) out += "'" + s.keys()[i] + "': ";
    out += spec_str(s[i]);
  }
  if (s.is_tuple() && s.size() == 1) out += ",";
  return out + (s.is_dict() ? "}" : ")");
}

ElementSpec merge_specs(const ElementSpec& a, const ElementSpec& b) {
  if (!a.same_structure(b)) throw ValueError("Element structures differ: " + spec_str(a) + " vs " + spec_str(b));
  auto fa = a.flatten(), fb = b.flatten();
  for (std::size_t i = 0; i < fa.size(); ++i) {
    if (fa[i].dtype != fb[i].dtype)
      throw ValueError("Component " + std::to_string(i) + " has dtype " + fa[i].dtype + " in one dataset and " +
                       fb[i].dtype + " in the other");
    if (fa[i].shape.size() != fb[i].shape.size()) {
      fa[i].shape.assign(0, 0);  // unknown rank is not modelled: keep the first
      continue;
    }
    for (std::size_t d = 0; d < fa[i].shape.size(); ++d)
      if (fa[i].shape[d] != fb[i].shape[d]) fa[i].shape[d] = -1;
  }
  return a.pack(fa);
}

ElementSpec batched_spec(const ElementSpec& s, std::int64_t batch) {
  return s.map([&](const TensorSpec& t) {
    TensorSpec o = t;
    o.shape.insert(o.shape.begin(), batch);
    return o;
  });
}

ElementSpec unbatched_spec(const ElementSpec& s) {
  return s.map([](const TensorSpec& t) {
    if (t.shape.empty()) throw ValueError("Cannot unbatch an element with a scalar component " + t.str());
    TensorSpec o = t;
    o.shape.erase(o.shape.begin());
    return o;
  });
}

}  // namespace keras::data
