#pragma once
// Decoders for the pieces of an HDF5 file that kerascpp's own reader (reader.hpp) needs, after the
// HDF5 file format specification: a bounds-checked little-endian cursor and the object header messages
// for dataspaces, datatypes, data layouts, attributes and links. Every read is checked against the bytes
// at hand; damage is a Corrupt exception, a valid structure the reader does not handle an Unsupported one.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace keras::hdf5::format {

/// The bytes say something impossible (the reader adds the file name and turns it into an IOError).
struct Corrupt : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// A valid HDF5 feature outside what h5py, Keras and kerascpp write by default.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The object header messages kerascpp reads (HDF5 file format specification, section IV.A.2).
enum MessageType : int {
  kDataspace = 0x01,
  kLinkInfo = 0x02,
  kDatatype = 0x03,
  kLink = 0x06,
  kLayout = 0x08,
  kFilters = 0x0B,
  kAttribute = 0x0C,
  kContinuation = 0x10,
  kSymbolTable = 0x11,
  kAttributeInfo = 0x15,
};

/// An address with every bit set: "nothing stored here".
constexpr std::uint64_t kUndefined = ~std::uint64_t(0);

/// The file's field widths, from its superblock.
struct Sizes {
  int offset = 8;  // addresses
  int length = 8;  // sizes
};

/// Reads little-endian fields from a byte range, refusing to step past its end.
class Cursor {
 public:
  /// `what` names the structure in error messages ("the object header at byte 96").
  Cursor(const std::uint8_t* data, std::size_t size, Sizes sizes, std::string what)
      : data_(data), size_(size), sizes_(sizes), what_(std::move(what)) {}

  std::uint64_t u(int bytes);
  std::uint8_t u8() { return static_cast<std::uint8_t>(u(1)); }
  /// An address (kUndefined when every bit is set).
  std::uint64_t address();
  std::uint64_t length() { return u(sizes_.length); }
  /// The next n bytes.
  const std::uint8_t* take(std::uint64_t n);
  void skip(std::uint64_t n) { (void)take(n); }
  /// Skips to the next multiple of 8 from the start.
  void align8() { skip((8 - pos_ % 8) % 8); }
  void expect(const char* signature, std::size_t n);

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return size_ - pos_; }
  Sizes sizes() const { return sizes_; }
  const std::string& what() const { return what_; }
  [[noreturn]] void corrupt(const std::string& why) const;

 private:
  const std::uint8_t* data_;
  std::size_t size_, pos_ = 0;
  Sizes sizes_;
  std::string what_;
};

struct Dataspace {
  std::vector<std::uint64_t> dims;  // empty: a scalar
  bool null = false;                // no values at all
  std::uint64_t count() const;      // checked: at most 2^50
};
Dataspace decode_dataspace(Cursor& c);

struct Datatype {
  enum class Kind { integer, floating, fixed_string, vlen_string, other } kind = Kind::other;
  std::uint64_t size = 0;  // bytes per value in the file (a variable-length string: its heap reference)
  bool big_endian = false;
  bool is_signed = false;
};
Datatype decode_datatype(Cursor& c);

struct Layout {
  enum class Class { compact, contiguous } cls = Class::contiguous;
  std::uint64_t address = kUndefined;  // contiguous: where the values are (kUndefined: never written)
  std::uint64_t size = kUndefined;     // contiguous: bytes stored (kUndefined: not recorded, layout version 1/2)
  std::vector<std::uint8_t> compact;   // compact: the values themselves
};
Layout decode_layout(Cursor& c);

struct Attribute {
  std::string name;
  Datatype type;
  Dataspace space;
  std::vector<std::uint8_t> data;  // count() values of type.size bytes
};
/// The attribute's name only, to find one without decoding the others.
std::string attribute_name(Cursor c);
Attribute decode_attribute(Cursor& c);

/// A link message; only hard links (the only kind Keras writes) carry an address.
struct Link {
  std::string name;
  std::uint64_t address = kUndefined;
};
Link decode_link(Cursor& c);

/// Link info and attribute info messages: whether the links or attributes live in dense storage (a
/// fractal heap), which kerascpp does not read.
bool dense_storage(Cursor& c, bool attribute_info);

}  // namespace keras::hdf5::format
