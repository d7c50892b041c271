#include "keras/tensor.hpp"
#include "keras/function/capture.hpp"
#include "keras/visit_dtype.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace keras {

namespace {
struct DTypeInfo {
  DType dtype;
  const char* name;
  std::size_t size;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::float32, "float32", 4}, {DType::int32, "int32", 4},   {DType::int64, "int64", 8},
    {DType::uint8, "uint8", 1},     {DType::bool_, "bool", 1},     {DType::float64, "float64", 8},
    {DType::string, "string", sizeof(std::string)},
};

}  // namespace

std::size_t dtype_size(DType d) {
  for (const auto& info : kDTypes)
    if (info.dtype == d) return info.size;
  return 4;
}

std::string dtype_name(DType d) {
  for (const auto& info : kDTypes)
    if (info.dtype == d) return info.name;
  return "?";
}

DType dtype_from_name(const std::string& name) {
  for (const auto& info : kDTypes)
    if (name == info.name) return info.dtype;
  if (name == "double") return DType::float64;
  throw ValueError("Unknown dtype '" + name + "'; expected one of float32, float64, int32, int64, uint8, bool, string");
}

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i] < 0 ? "None" : std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::int64_t shape_size(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

Tensor Tensor::empty(const Shape& shape, DType dtype) {
  for (auto d : shape)
    if (d < 0) throw ValueError("Cannot allocate a tensor of shape " + shape_str(shape) + ": dimensions must be >= 0");
  Tensor t;
  t.impl_ = std::make_shared<Impl>();
  const auto count = static_cast<std::size_t>(shape_size(shape));
  t.impl_->storage = dtype == DType::string ? std::shared_ptr<Storage>(Storage::strings(count))
                                            : std::make_shared<Storage>(count * dtype_size(dtype));
  t.impl_->shape = shape;
  t.impl_->dtype = dtype;
  if (jit::tracing()) jit::detail::born(t);  // compiled functions: where a buffer came from
  return t;
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  if (dtype != DType::string && t.nbytes()) std::memset(t.raw_data(), 0, t.nbytes());
  return t;
}

Tensor Tensor::ones(const Shape& shape, DType dtype) { return full(shape, 1.0, dtype); }

Tensor Tensor::full(const Shape& shape, double value, DType dtype) {
  Tensor t = empty(shape, dtype);
  visit_dtype(
      dtype,
      [&](auto zero) {
        using T = decltype(zero);
        std::fill_n(t.data<T>(), t.size(), static_cast<T>(value));
      },
      "Tensor::full");
  return t;
}

void Tensor::check_defined(const char* what) const {
  if (!impl_) throw ValueError(std::string("Tensor::") + what + " called on an undefined (empty) tensor");
}

const Shape& Tensor::shape() const {
  check_defined("shape");
  return impl_->shape;
}

std::int64_t Tensor::dim(int axis) const {
  const int n = ndim();
  const int a = axis < 0 ? axis + n : axis;
  if (a < 0 || a >= n)
    throw ValueError("Axis " + std::to_string(axis) + " is out of range for a tensor of shape " + shape_str(shape()));
  return impl_->shape[a];
}

std::int64_t Tensor::size() const { return shape_size(shape()); }

DType Tensor::dtype() const {
  check_defined("dtype");
  return impl_->dtype;
}

void* Tensor::raw_data() const {
  check_defined("data");
  return static_cast<char*>(impl_->storage->data()) + impl_->offset;
}

Tensor Tensor::slice(std::int64_t begin, std::int64_t end) const {
  check_defined("slice");
  if (ndim() == 0) throw ValueError("Cannot slice a scalar tensor along axis 0");
  const auto rows = impl_->shape[0];
  if (begin < 0 || end > rows || begin > end)
    throw ValueError("slice [" + std::to_string(begin) + ", " + std::to_string(end) + ") is out of range for shape " +
                     shape_str(shape()));
  Tensor t;
  t.impl_ = std::make_shared<Impl>(*impl_);
  t.impl_->trainable_variable = false;
  t.impl_->shape[0] = end - begin;
  const auto row_bytes = static_cast<std::size_t>(rows ? size() / rows : 0) * dtype_size(dtype());
  t.impl_->offset += static_cast<std::size_t>(begin) * row_bytes;
  return t;
}

Tensor Tensor::reshape(const Shape& new_shape) const {
  check_defined("reshape");
  Shape s = new_shape;
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == -1) {
      if (unknown >= 0) throw ValueError("reshape to " + shape_str(new_shape) + ": only one dimension may be -1");
      unknown = static_cast<int>(i);
    } else {
      known *= s[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size() % known != 0)
      throw ValueError("Cannot reshape a tensor of shape " + shape_str(shape()) + " into " + shape_str(new_shape));
    s[unknown] = size() / known;
  }
  if (shape_size(s) != size())
    throw ValueError("Cannot reshape a tensor of shape " + shape_str(shape()) + " (" + std::to_string(size()) +
                     " values) into " + shape_str(new_shape));
  Tensor t;
  t.impl_ = std::make_shared<Impl>(*impl_);
  t.impl_->trainable_variable = false;
  t.impl_->shape = s;
  return t;
}

Tensor Tensor::clone() const {
  Tensor t = empty(shape(), dtype());
  if (dtype() == DType::string)
    std::copy_n(data<std::string>(), size(), t.data<std::string>());
  else if (nbytes())
    std::memcpy(t.raw_data(), raw_data(), nbytes());
  return t;
}

Tensor Tensor::astype(DType d) const {
  if (d == dtype()) return *this;
  if (d == DType::string || dtype() == DType::string)
    throw ValueError("Cannot convert a " + dtype_name(dtype()) + " tensor of shape " + shape_str(shape()) + " to " +
                     dtype_name(d) + ": strings and numbers do not convert into each other (use a StringLookup, "
                     "Hashing or TextVectorization layer)");
  Tensor t = empty(shape(), d);
  const auto n = size();
  visit_dtype(
      dtype(),
      [&](auto from) {
        using From = decltype(from);
        const From* src = data<From>();
        visit_dtype(
            d,
            [&](auto to) {
              using To = decltype(to);
              To* dst = t.data<To>();
              for (std::int64_t i = 0; i < n; ++i) {
                if constexpr (std::is_same_v<To, bool>)
                  dst[i] = src[i] != From{};
                else
                  dst[i] = static_cast<To>(src[i]);
              }
            },
            "astype");
      },
      "astype");
  return t;
}

void Tensor::assign(const Tensor& other) {
  if (other.size() != size())
    throw ValueError("Cannot assign a tensor of shape " + shape_str(other.shape()) + " to one of shape " +
                     shape_str(shape()));
  if (jit::tracing()) jit::detail::assigned(*this, other, "Tensor::assign");
  Tensor src = other.astype(dtype());
  if (src.raw_data() == raw_data()) return;
  if (dtype() == DType::string)
    std::copy_n(src.data<std::string>(), size(), data<std::string>());
  else if (nbytes())
    std::memmove(raw_data(), src.raw_data(), nbytes());
  mark_modified();
}

std::uint64_t Tensor::version() const {
  check_defined("version");
  return impl_->storage->version();
}

void Tensor::mark_modified() const {
  check_defined("mark_modified");
  impl_->storage->mark_modified();
}

double Tensor::item() const {
  if (size() != 1) throw ValueError("item() needs a tensor with one value, got shape " + shape_str(shape()));
  if (jit::tracing()) jit::detail::value_read("Tensor::item()");
  return visit_dtype(
      dtype(), [&](auto zero) { return static_cast<double>(*data<decltype(zero)>()); }, "item()");
}

void Tensor::mark_variable(bool trainable) {
  check_defined("mark_variable");
  impl_->trainable_variable = trainable;
  impl_->variable = true;
}

bool Tensor::is_trainable_variable() const { return impl_ && impl_->trainable_variable; }

bool Tensor::is_variable() const { return impl_ && impl_->variable; }

std::string Tensor::str() const {
  if (!impl_) return "Tensor(undefined)";
  return "Tensor(" + dtype_name(dtype()) + ", " + shape_str(shape()) + ")";
}

}  // namespace keras
