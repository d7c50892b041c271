#pragma once
// A small RAII layer over the HDF5 C API: files, groups, float/int datasets and string attributes,
// with every failure turned into a keras::IOError that names the file and the object.
// Strings are written as h5py 3 writes them (variable-length UTF-8); both variable- and
// fixed-length strings are read, as older Keras versions wrote the latter.
// Files are read by kerascpp's own checked reader (reader.hpp) when their superblock is version 0 or
// 1, as h5py and the HDF5 library write by default; by the HDF5 library otherwise.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::hdf5 {

class Reader;
using hid = std::int64_t;

/// Owns an HDF5 identifier and closes it.
class Handle {
 public:
  Handle() = default;
  Handle(hid id, std::string path) : id_(id), path_(std::move(path)) {}
  Handle(Handle&& other) noexcept;
  Handle& operator=(Handle&& other) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid id() const { return id_; }
  /// "file.h5:/model_weights/dense", for error messages.
  const std::string& path() const { return path_; }

 private:
  hid id_ = -1;
  std::string path_;
};

class Group {
 public:
  Group(Handle h, std::string file) : h_(std::move(h)), file_(std::move(file)) {}
  /// A group read by kerascpp's reader: the object header at `object`; `where` names it in errors.
  Group(std::shared_ptr<const Reader> reader, std::uint64_t object, std::string where, std::string file);

  bool has(const std::string& name) const;
  Group open_group(const std::string& name) const;
  /// Creates the group (and any missing groups on a path like "a/b").
  Group create_group(const std::string& name);
  /// Names of the direct children, in creation (or name) order.
  std::vector<std::string> children() const;

  /// Reads a numeric dataset (float32/float64 → float32, integers → int64) at a path relative to this group.
  Tensor read_dataset(const std::string& name) const;
  /// Writes a float32/int32/int64/uint8 dataset, creating intermediate groups.
  void write_dataset(const std::string& name, const Tensor& value);

  bool has_attr(const std::string& name) const;
  std::string string_attr(const std::string& name) const;
  std::vector<std::string> string_list_attr(const std::string& name) const;
  void set_string_attr(const std::string& name, const std::string& value);
  void set_string_list_attr(const std::string& name, const std::vector<std::string>& values);

  const std::string& where() const { return h_.path(); }

 private:
  Handle h_;  // a library handle, or none (id -1, the path only) when reader_ reads the file
  std::string file_;
  std::shared_ptr<const Reader> reader_;
  std::uint64_t object_ = 0;
};

class File {
 public:
  /// Opens for reading; a missing, truncated or non-HDF5 file is an IOError naming it.
  static File open(const std::string& path);
  /// Creates (truncating) a file for writing.
  static File create(const std::string& path);
  Group root() const;
  /// Writes everything to disk (so a rename after it is safe).
  void flush();
  const std::string& path() const { return path_; }

 private:
  File(Handle h, std::string path, std::shared_ptr<const Reader> reader = nullptr)
      : h_(std::move(h)), path_(std::move(path)), reader_(std::move(reader)) {}
  Handle h_;
  std::string path_;
  std::shared_ptr<const Reader> reader_;
};

}  // namespace keras::hdf5
