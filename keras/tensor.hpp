#pragma once
// keras::Tensor: a row-major, contiguous n-d array with shared storage (cheap to copy).
// All of xtensor works on a Tensor's data through keras/xtensor.hpp (xt(), from_xarray, to_xarray),
// an opt-in header: this one stays light for every file that includes it.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "keras/errors.hpp"
#include "keras/storage.hpp"

namespace keras {

/// Element types. bool_ is one byte per value (0 or 1); string holds UTF-8 byte strings (tf.string), whose
/// values are std::string objects: data<std::string>() reads and writes them.
enum class DType : std::uint8_t { float32, int32, int64, uint8, bool_, float64, string };

using Shape = std::vector<std::int64_t>;

std::size_t dtype_size(DType);
std::string dtype_name(DType);  // "float32", "int32", ..., "bool", "float64", "string"
DType dtype_from_name(const std::string&);
template <class T> constexpr DType dtype_of();
template <> constexpr DType dtype_of<float>() { return DType::float32; }
template <> constexpr DType dtype_of<std::int32_t>() { return DType::int32; }
template <> constexpr DType dtype_of<std::int64_t>() { return DType::int64; }
template <> constexpr DType dtype_of<std::uint8_t>() { return DType::uint8; }
template <> constexpr DType dtype_of<bool>() { return DType::bool_; }
template <> constexpr DType dtype_of<double>() { return DType::float64; }
template <> constexpr DType dtype_of<std::string>() { return DType::string; }
/// True for every dtype but string.
constexpr bool is_numeric(DType d) { return d != DType::string; }
constexpr bool is_floating(DType d) { return d == DType::float32 || d == DType::float64; }

/// "(128, 784)"; unknown (-1) dimensions print as None, as Keras does.
std::string shape_str(const Shape&);
std::int64_t shape_size(const Shape&);

class Tensor {
 public:
  /// An undefined tensor (defined() is false).
  Tensor() = default;
  /// Uninitialized memory of the given shape (empty strings for DType::string).
  static Tensor empty(const Shape& shape, DType dtype = DType::float32);
  static Tensor zeros(const Shape& shape, DType dtype = DType::float32);
  static Tensor ones(const Shape& shape, DType dtype = DType::float32);
  static Tensor full(const Shape& shape, double value, DType dtype = DType::float32);
  static Tensor scalar(float value) { return full({}, value); }

  /// (std::vector<bool> is packed: build a bool tensor from a std::vector<std::uint8_t> and astype(DType::bool_).)
  template <class T>
  static Tensor from_vector(const std::vector<T>& values, const Shape& shape);
  template <class T>
  static Tensor from_vector(const std::vector<T>& values) {
    return from_vector(values, {static_cast<std::int64_t>(values.size())});
  }
  /// A copy of an xtensor array or expression (include keras/xtensor.hpp).
  template <class E>
  static Tensor from_xarray(const E& array);

  template <class T> std::vector<T> to_vector() const;
  /// A copy as an xt::xarray<T> (include keras/xtensor.hpp).
  template <class T> auto to_xarray() const;

  bool defined() const { return impl_ != nullptr; }
  const Shape& shape() const;
  std::int64_t dim(int axis) const;  // negative axes count from the end
  int ndim() const { return static_cast<int>(shape().size()); }
  std::int64_t size() const;
  DType dtype() const;
  std::size_t nbytes() const { return static_cast<std::size_t>(size()) * dtype_size(dtype()); }

  template <class T> T* data() const;
  void* raw_data() const;

  /// xtensor view over the data, no copy (include keras/xtensor.hpp). Writes through it change the tensor.
  template <class T> auto xt() const;

  /// Rows [begin, end) along axis 0, sharing storage (no copy).
  Tensor slice(std::int64_t begin, std::int64_t end) const;
  /// Same storage, new shape (one dimension may be -1). Not recorded on a tape: use ops::reshape.
  Tensor reshape(const Shape& shape) const;
  /// A deep copy.
  Tensor clone() const;
  /// A converted copy (or *this when the dtype already matches). Numeric dtypes convert among themselves
  /// (to bool: value != 0); string and numeric do not convert into each other (ValueError).
  Tensor astype(DType dtype) const;
  /// Copies other's values into this tensor (same size required), and marks it modified.
  void assign(const Tensor& other);
  /// A stamp of the storage's contents (shared by views): it changes at assign(), at an optimizer's update
  /// and at mark_modified(), and a new tensor never has an old one's. Inference keeps packed copies of
  /// weights under it (Dense's kernel): after writing a variable's values through data<T>() yourself,
  /// call mark_modified().
  std::uint64_t version() const;
  void mark_modified() const;
  /// The single value of a size-1 numeric tensor, as a double.
  double item() const;

  /// Identity used by GradientTape: copies of a Tensor share it, views and reshapes do not.
  const void* id() const { return impl_.get(); }
  /// Marks this tensor as a variable's value, which a tape watches automatically when trainable.
  void mark_variable(bool trainable);
  bool is_trainable_variable() const;
  /// True for a variable's value, trainable or not, and views of it (slice, reshape).
  bool is_variable() const;

  std::string str() const;  // short description: "Tensor(float32, (2, 3))"

 private:
  struct Impl {
    std::shared_ptr<Storage> storage;
    std::size_t offset = 0;  // in bytes
    Shape shape;
    DType dtype = DType::float32;
    bool trainable_variable = false;
    bool variable = false;
  };
  std::shared_ptr<Impl> impl_;
  void check_defined(const char* what) const;
  template <class T> void check_dtype() const;
};

}  // namespace keras

#include "keras/tensor_impl.hpp"
