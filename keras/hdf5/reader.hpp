#pragma once
// kerascpp's own reader of HDF5 files with a version 0 or 1 superblock: the layout the HDF5 library, h5py
// and therefore Keras write by default (symbol-table groups, version 1 object headers, contiguous or
// compact datasets, attributes in the object header, variable-length strings in global heaps).
// HDF5 1.10 trusts the sizes, addresses and indices in these files, whose metadata has no checksums, and
// crashes on damaged ones. This reader checks each against the file before using it and reports damage as
// a keras::IOError naming the file. Files with a newer superblock (checksummed metadata) are left to the
// HDF5 library.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/hdf5/messages.hpp"
#include "keras/tensor.hpp"

namespace keras::hdf5 {

class Reader {
 public:
  /// Opens `path`: nullptr when its superblock is version 2 or later. A file that is not HDF5, or whose
  /// superblock is damaged or says the file was longer, is an IOError naming it.
  static std::shared_ptr<const Reader> open(const std::string& path);
  ~Reader();
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  /// The root group's object header address.
  std::uint64_t root() const { return root_; }
  /// The object at a '/'-separated path below a group, if there is one.
  std::optional<std::uint64_t> find(std::uint64_t group, const std::string& path) const;
  bool is_group(std::uint64_t object) const;
  /// The names of a group's members, sorted by name.
  std::vector<std::string> children(std::uint64_t group, const std::string& where) const;
  /// A numeric dataset: floats (half, single, double) become float32, integers int64.
  Tensor read_dataset(std::uint64_t object, const std::string& where) const;
  bool has_attr(std::uint64_t object, const std::string& name) const;
  /// A string attribute's values, fixed- or variable-length (an empty array of any type has none).
  std::vector<std::string> string_attr(std::uint64_t object, const std::string& name, const std::string& where) const;

 private:
  struct Message {
    int type = 0;
    int flags = 0;  // bit 1: the message is shared (stored elsewhere)
    std::vector<std::uint8_t> bytes;
    format::Cursor cursor(format::Sizes sizes, std::string what) const {
      return format::Cursor(bytes.data(), bytes.size(), sizes, std::move(what));
    }
  };
  static const Message* find_message(const std::vector<Message>& messages, int type);
  /// The attribute message with this name, or nullptr (Unsupported when attributes are in dense storage).
  const Message* attribute_message(const std::vector<Message>& messages, const std::string& name) const;
  Reader(int fd, std::string path, std::uint64_t base, std::uint64_t size);

  /// Throws unless the file holds n bytes at the address.
  void check_range(std::uint64_t address, std::uint64_t n, const std::string& what) const;
  /// n bytes at a file address, after checking that the file holds them.
  std::vector<std::uint8_t> read(std::uint64_t address, std::uint64_t n, const std::string& what) const;
  void read_into(std::uint64_t address, std::uint64_t n, void* out, const std::string& what) const;
  std::vector<Message> messages(std::uint64_t object) const;
  using Members = std::vector<std::pair<std::string, std::uint64_t>>;  // sorted by name
  /// A group's members, listed once per group and kept (a model's load looks each group up many times).
  const Members& members(std::uint64_t group) const;
  Members list_members(std::uint64_t group) const;
  void symbol_table(std::uint64_t btree, std::uint64_t heap, Members& out) const;
  struct HeapCollection {
    std::vector<std::uint8_t> bytes;
    std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>> objects;  // index -> (offset, size)
  };
  using HeapCache = std::map<std::uint64_t, HeapCollection>;  // by address: the collections read so far
  std::string heap_string(std::uint64_t collection, std::uint64_t index, std::uint64_t length, HeapCache& cache) const;
  /// Runs f, turning format::Corrupt and format::Unsupported into an IOError naming the file and `where`.
  template <class F>
  auto guarded(const std::string& where, F&& f) const -> decltype(f()) {
    try {
      return f();
    } catch (const std::runtime_error&) {
      rethrow(where);
    }
  }
  [[noreturn]] void rethrow(const std::string& where) const;

  int fd_;
  std::string path_;
  std::uint64_t base_, size_;  // where the superblock starts (addresses count from there), the file's length
  format::Sizes sizes_;
  std::uint64_t root_ = 0;
  mutable std::mutex mutex_;
  mutable std::map<std::uint64_t, Members> members_;
};

}  // namespace keras::hdf5
