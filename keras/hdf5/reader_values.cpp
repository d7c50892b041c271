// The values kerascpp's HDF5 reader returns: numeric datasets and string attributes (the structure,
// groups and object headers, is in reader.cpp).
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/hdf5/reader.hpp"

namespace keras::hdf5 {

using format::Corrupt;
using format::Cursor;
using format::Datatype;
using format::kUndefined;
using namespace format;  // message types

namespace {

/// One value of an integer or IEEE float type, in either byte order.
std::uint64_t raw_bits(const std::uint8_t* p, const Datatype& t) {
  std::uint64_t v = 0;
  for (std::uint64_t i = 0; i < t.size; ++i) v = (v << 8) | p[t.big_endian ? i : t.size - 1 - i];
  return v;
}

float half_to_float(std::uint64_t h) {
  const int exponent = static_cast<int>((h >> 10) & 0x1f);
  const double mantissa = static_cast<double>(h & 0x3ff);
  double v = exponent == 0    ? std::ldexp(mantissa, -24)
             : exponent == 31 ? (mantissa == 0 ? INFINITY : NAN)
                              : std::ldexp(mantissa + 1024, exponent - 25);
  return static_cast<float>((h & 0x8000) ? -v : v);
}

void convert(const std::uint8_t* src, std::uint64_t count, const Datatype& t, Tensor& out) {
  if (t.kind == Datatype::Kind::floating) {
    float* dst = static_cast<float*>(out.raw_data());
    for (std::uint64_t i = 0; i < count; ++i, src += t.size) {
      const std::uint64_t bits = raw_bits(src, t);
      dst[i] = t.size == 2 ? half_to_float(bits)
               : t.size == 4 ? std::bit_cast<float>(static_cast<std::uint32_t>(bits))
                             : static_cast<float>(std::bit_cast<double>(bits));
    }
    return;
  }
  auto* dst = static_cast<std::int64_t*>(out.raw_data());
  const int shift = 64 - 8 * static_cast<int>(t.size);
  for (std::uint64_t i = 0; i < count; ++i, src += t.size) {
    const std::uint64_t bits = raw_bits(src, t);
    dst[i] = t.is_signed && shift > 0 ? static_cast<std::int64_t>(bits << shift) >> shift
                                      : static_cast<std::int64_t>(bits);
  }
}

}  // namespace

Tensor Reader::read_dataset(std::uint64_t object, const std::string& where) const {
  return guarded(where, [&] {
    const auto msgs = messages(object);
    const Message* space_msg = find_message(msgs, kDataspace);
    const Message* type_msg = find_message(msgs, kDatatype);
    const Message* layout_msg = find_message(msgs, kLayout);
    if (!space_msg || !type_msg || !layout_msg) throw IOError("HDF5: '" + where + "' is not a dataset");
    if (find_message(msgs, kFilters))
      throw format::Unsupported("the dataset is filtered (for example compressed), which is not read");
    if (type_msg->flags & 2) throw format::Unsupported("the dataset has a shared (committed) datatype, which is not read");
    auto cursor = [&](const Message* m, const char* what) {
      return m->cursor(sizes_, fmt::format("the {} of the dataset at byte {}", what, object));
    };
    Cursor space_cursor = cursor(space_msg, "dataspace"), type_cursor = cursor(type_msg, "datatype"),
           layout_cursor = cursor(layout_msg, "data layout");
    const format::Dataspace space = format::decode_dataspace(space_cursor);
    const Datatype type = format::decode_datatype(type_cursor);
    if (type.kind != Datatype::Kind::floating && type.kind != Datatype::Kind::integer)
      throw IOError("HDF5: dataset is neither float nor integer (" + where + ")");
    const std::uint64_t count = space.count(), bytes = count * type.size;
    const format::Layout layout = format::decode_layout(layout_cursor);
    // What the file stores must cover the declared shape before memory is allocated for it. Keras always
    // writes its datasets: one never written (no address) but declaring values is damage too.
    const bool compact = layout.cls == format::Layout::Class::compact;
    const std::uint64_t stored = compact ? layout.compact.size()
                                 : layout.address == kUndefined ? 0
                                                                : std::min(layout.size, bytes);
    const std::string values = fmt::format("the values of the dataset at byte {}", object);
    if (stored < bytes)
      throw Corrupt(fmt::format("the dataset at byte {} declares {} values ({} bytes) but the file stores {} bytes of them",
                                object, count, bytes, stored));
    if (!compact && bytes > 0) check_range(layout.address, bytes, values);
    Shape shape(space.dims.begin(), space.dims.end());
    Tensor out = Tensor::empty(shape, type.kind == Datatype::Kind::floating ? DType::float32 : DType::int64);
    if (count == 0) return out;
    const bool native = type.kind == Datatype::Kind::floating && type.size == 4 && !type.big_endian;
    if (compact) {
      convert(layout.compact.data(), count, type, out);
    } else if (native) {
      read_into(layout.address, bytes, out.raw_data(), values);
    } else {
      const auto raw = read(layout.address, bytes, values);
      convert(raw.data(), count, type, out);
    }
    return out;
  });
}

const Reader::Message* Reader::attribute_message(const std::vector<Message>& messages, const std::string& name) const {
  for (const auto& m : messages)
    if (m.type == kAttribute && format::attribute_name(m.cursor(sizes_, "an attribute message")) == name) return &m;
  if (const Message* info = find_message(messages, kAttributeInfo)) {
    Cursor c = info->cursor(sizes_, "an attribute info message");
    if (format::dense_storage(c, true))
      throw format::Unsupported("the object keeps its attributes in dense storage (a fractal heap), which is not read");
  }
  return nullptr;
}

bool Reader::has_attr(std::uint64_t object, const std::string& name) const {
  return guarded("@" + name, [&] { return attribute_message(messages(object), name) != nullptr; });
}

std::vector<std::string> Reader::string_attr(std::uint64_t object, const std::string& name,
                                             const std::string& where) const {
  return guarded(where, [&] {
    const auto msgs = messages(object);
    const Message* m = attribute_message(msgs, name);
    if (!m) throw IOError("HDF5 object has no attribute '" + name + "' (" + where + ")");
    Cursor attribute = m->cursor(sizes_, fmt::format("attribute '{}'", name));
    const format::Attribute a = format::decode_attribute(attribute);
    const std::uint64_t count = a.space.count();
    std::vector<std::string> out;
    if (count == 0) return out;  // h5py writes an empty list as an empty float64 array
    if (a.type.kind == Datatype::Kind::fixed_string) {
      for (std::uint64_t i = 0; i < count; ++i) {
        const auto* s = reinterpret_cast<const char*>(a.data.data() + i * a.type.size);
        out.emplace_back(s, strnlen(s, static_cast<std::size_t>(a.type.size)));  // null-padded or null-terminated
      }
      return out;
    }
    if (a.type.kind != Datatype::Kind::vlen_string) throw IOError("HDF5: attribute is not a string (" + where + ")");
    Cursor c(a.data.data(), a.data.size(), sizes_, fmt::format("attribute '{}'", name));
    HeapCache heaps;  // each collection read once, however many strings refer to it
    for (std::uint64_t i = 0; i < count; ++i) {
      const std::uint64_t length = c.u(4), collection = c.address(), index = c.u(4);
      out.push_back(length == 0 ? std::string() : heap_string(collection, index, length, heaps));
    }
    return out;
  });
}

std::string Reader::heap_string(std::uint64_t collection, std::uint64_t index, std::uint64_t length,
                                HeapCache& cache) const {
  // A global heap collection: "GCOL", version 1, 3 reserved, size; then objects: index, reference count,
  // 4 reserved, size, data padded to 8 bytes. Index 0 is the free space that ends it. Each collection is
  // read and indexed once per attribute, however many strings refer to it.
  const std::string what = fmt::format("the global heap at byte {}", collection);
  auto [it, added] = cache.try_emplace(collection);
  HeapCollection& heap = it->second;
  if (added) {
    const std::uint64_t header = 8 + static_cast<std::uint64_t>(sizes_.length);
    const auto head = read(collection, header, what);
    Cursor h(head.data(), head.size(), sizes_, what);
    h.expect("GCOL", 4);
    if (const int version = h.u8(); version != 1) h.corrupt(fmt::format("unknown version {}", version));
    h.skip(3);
    const std::uint64_t size = h.length();
    if (size < header) h.corrupt(fmt::format("its size {} is smaller than its header", size));
    heap.bytes = read(collection, size, what);
    Cursor c(heap.bytes.data(), heap.bytes.size(), sizes_, what);
    c.skip(header);
    while (c.left() >= header) {
      const std::uint64_t id = c.u(2);
      c.skip(6);  // reference count, reserved
      const std::uint64_t object_size = c.length();
      if (id == 0) break;
      if (object_size > c.left()) c.corrupt(fmt::format("object {} claims {} bytes", id, object_size));
      heap.objects.try_emplace(id, c.pos(), object_size);
      c.skip(object_size);
      c.skip(std::min<std::uint64_t>((8 - object_size % 8) % 8, c.left()));
    }
  }
  const auto object = heap.objects.find(index);
  if (object == heap.objects.end()) throw Corrupt(fmt::format("{} is corrupt: it has no object {}", what, index));
  const auto [offset, size] = object->second;
  if (length > size)
    throw Corrupt(fmt::format("{} is corrupt: a string of {} bytes refers to object {} of {} bytes", what, length,
                              index, size));
  return std::string(reinterpret_cast<const char*>(heap.bytes.data() + offset), static_cast<std::size_t>(length));
}

}  // namespace keras::hdf5
