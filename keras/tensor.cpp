#include "keras/tensor.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace keras {

std::size_t dtype_size(DType d) {
  switch (d) {
    case DType::float32: return 4;
    case DType::int32: return 4;
    case DType::int64: return 8;
    case DType::uint8: return 1;
  }
  return 4;
}

std::string dtype_name(DType d) {
  switch (d) {
    case DType::float32: return "float32";
    case DType::int32: return "int32";
    case DType::int64: return "int64";
    case DType::uint8: return "uint8";
  }
  return "?";
}

DType dtype_from_name(const std::string& name) {
  if (name == "float32") return DType::float32;
  if (name == "int32") return DType::int32;
  if (name == "int64") return DType::int64;
  if (name == "uint8") return DType::uint8;
  throw ValueError("Unknown dtype '" + name + "'; expected one of float32, int32, int64, uint8");
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
  t.impl_->storage = std::make_shared<Storage>(static_cast<std::size_t>(shape_size(shape)) * dtype_size(dtype));
  t.impl_->shape = shape;
  t.impl_->dtype = dtype;
  return t;
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) {
  Tensor t = empty(shape, dtype);
  if (t.nbytes()) std::memset(t.raw_data(), 0, t.nbytes());
  return t;
}

Tensor Tensor::ones(const Shape& shape, DType dtype) { return full(shape, 1.0, dtype); }

Tensor Tensor::full(const Shape& shape, double value, DType dtype) {
  Tensor t = empty(shape, dtype);
  const auto n = t.size();
  switch (dtype) {
    case DType::float32: std::fill_n(t.data<float>(), n, static_cast<float>(value)); break;
    case DType::int32: std::fill_n(t.data<std::int32_t>(), n, static_cast<std::int32_t>(value)); break;
    case DType::int64: std::fill_n(t.data<std::int64_t>(), n, static_cast<std::int64_t>(value)); break;
    case DType::uint8: std::fill_n(t.data<std::uint8_t>(), n, static_cast<std::uint8_t>(value)); break;
  }
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
  if (nbytes()) std::memcpy(t.raw_data(), raw_data(), nbytes());
  return t;
}

namespace {
template <class From, class To>
void convert(const Tensor& src, Tensor& dst) {
  const From* s = src.data<From>();
  To* d = dst.data<To>();
  const auto n = src.size();
  for (std::int64_t i = 0; i < n; ++i) d[i] = static_cast<To>(s[i]);
}
template <class From>
void convert_from(const Tensor& src, Tensor& dst) {
  switch (dst.dtype()) {
    case DType::float32: convert<From, float>(src, dst); break;
    case DType::int32: convert<From, std::int32_t>(src, dst); break;
    case DType::int64: convert<From, std::int64_t>(src, dst); break;
    case DType::uint8: convert<From, std::uint8_t>(src, dst); break;
  }
}
}  // namespace

Tensor Tensor::astype(DType d) const {
  if (d == dtype()) return *this;
  Tensor t = empty(shape(), d);
  switch (dtype()) {
    case DType::float32: convert_from<float>(*this, t); break;
    case DType::int32: convert_from<std::int32_t>(*this, t); break;
    case DType::int64: convert_from<std::int64_t>(*this, t); break;
    case DType::uint8: convert_from<std::uint8_t>(*this, t); break;
  }
  return t;
}

void Tensor::assign(const Tensor& other) {
  if (other.size() != size())
    throw ValueError("Cannot assign a tensor of shape " + shape_str(other.shape()) + " to one of shape " +
                     shape_str(shape()));
  Tensor src = other.astype(dtype());
  if (src.raw_data() != raw_data() && nbytes()) std::memmove(raw_data(), src.raw_data(), nbytes());
}

double Tensor::item() const {
  if (size() != 1) throw ValueError("item() needs a tensor with one value, got shape " + shape_str(shape()));
  switch (dtype()) {
    case DType::float32: return *data<float>();
    case DType::int32: return *data<std::int32_t>();
    case DType::int64: return static_cast<double>(*data<std::int64_t>());
    case DType::uint8: return *data<std::uint8_t>();
  }
  return 0;
}

void Tensor::mark_variable(bool trainable) {
  check_defined("mark_variable");
  impl_->trainable_variable = trainable;
}

bool Tensor::is_trainable_variable() const { return impl_ && impl_->trainable_variable; }

std::string Tensor::str() const {
  if (!impl_) return "Tensor(undefined)";
  return "Tensor(" + dtype_name(dtype()) + ", " + shape_str(shape()) + ")";
}

}  // namespace keras
