#include "keras/hdf5/messages.hpp"

#include <cstring>

#include <fmt/format.h>

namespace keras::hdf5::format {

std::uint64_t Cursor::u(int bytes) {
  const std::uint8_t* p = take(static_cast<std::uint64_t>(bytes));
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

std::uint64_t Cursor::address() {
  const int n = sizes_.offset;
  const std::uint64_t v = u(n);
  const std::uint64_t all = n == 8 ? kUndefined : (std::uint64_t(1) << (8 * n)) - 1;
  return v == all ? kUndefined : v;
}

const std::uint8_t* Cursor::take(std::uint64_t n) {
  if (n > left()) corrupt(fmt::format("it needs {} more bytes at byte {} of {}", n, pos_, size_));
  const std::uint8_t* p = data_ + pos_;
  pos_ += static_cast<std::size_t>(n);
  return p;
}

void Cursor::expect(const char* signature, std::size_t n) {
  if (std::memcmp(take(n), signature, n) != 0) corrupt(fmt::format("it does not start with \"{}\"", signature));
}

void Cursor::corrupt(const std::string& why) const { throw Corrupt(fmt::format("{} is corrupt: {}", what_, why)); }

namespace {

Cursor sub(Cursor& c, std::uint64_t n, const std::string& what) {
  return Cursor(c.take(n), static_cast<std::size_t>(n), c.sizes(), c.what() + ", " + what);
}

std::uint64_t padded8(std::uint64_t n) { return (n + 7) / 8 * 8; }

}  // namespace

std::uint64_t Dataspace::count() const {
  if (null) return 0;
  constexpr std::uint64_t kLimit = std::uint64_t(1) << 50;
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) {
    if (d != 0 && n > kLimit / d) throw Corrupt("a dataspace declares an impossibly large shape");
    n *= d;
  }
  return n;
}

Dataspace decode_dataspace(Cursor& c) {
  Dataspace s;
  const int version = c.u8();
  const int rank = c.u8();
  const int flags = c.u8();
  if (version == 1) {
    c.skip(5);
  } else if (version == 2) {
    const int type = c.u8();
    if (type > 2) c.corrupt(fmt::format("unknown dataspace type {}", type));
    s.null = type == 2;
  } else {
    c.corrupt(fmt::format("unknown dataspace version {}", version));
  }
  if (rank > 32) c.corrupt(fmt::format("a dataspace of rank {} (HDF5 allows 32)", rank));
  for (int i = 0; i < rank; ++i) s.dims.push_back(c.length());
  if (flags & 1) c.skip(static_cast<std::uint64_t>(rank) * static_cast<std::uint64_t>(c.sizes().length));
  return s;
}

Datatype decode_datatype(Cursor& c) {
  Datatype t;
  const int cls = c.u8() & 0x0f;
  const std::uint64_t bits = c.u(3);
  t.size = c.u(4);
  t.big_endian = bits & 1;
  switch (cls) {
    case 0:  // fixed-point
      t.is_signed = bits & 8;
      if (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8) t.kind = Datatype::Kind::integer;
      break;
    case 1: {  // floating point: IEEE half, single and double precision only
      c.skip(5);  // bit offset, precision, exponent location
      const int exponent_bits = c.u8();
      c.skip(1);  // mantissa location
      const int mantissa_bits = c.u8();
      const bool ieee = (t.size == 2 && exponent_bits == 5 && mantissa_bits == 10) ||
                        (t.size == 4 && exponent_bits == 8 && mantissa_bits == 23) ||
                        (t.size == 8 && exponent_bits == 11 && mantissa_bits == 52);
      if (ieee && !(bits & 0x40)) t.kind = Datatype::Kind::floating;
      break;
    }
    case 3: t.kind = Datatype::Kind::fixed_string; break;
    case 9:  // variable-length; in the file each value is a length and a global heap reference
      if ((bits & 0x0f) == 1) t.kind = Datatype::Kind::vlen_string;
      t.size = 4 + static_cast<std::uint64_t>(c.sizes().offset) + 4;
      break;
    default: break;
  }
  return t;
}

Layout decode_layout(Cursor& c) {
  Layout l;
  const int version = c.u8();
  int cls = 0;
  if (version == 1 || version == 2) {
    const int rank = c.u8();
    cls = c.u8();
    c.skip(5);
    if (cls != 0) l.address = c.address();
    c.skip(static_cast<std::uint64_t>(rank) * 4);
    if (cls == 0) {
      const std::uint64_t n = c.u(4);
      const std::uint8_t* p = c.take(n);
      l.compact.assign(p, p + n);
    }
  } else if (version == 3 || version == 4) {
    cls = c.u8();
    if (cls == 0) {
      const std::uint64_t n = c.u(2);
      const std::uint8_t* p = c.take(n);
      l.compact.assign(p, p + n);
    } else if (cls == 1) {
      l.address = c.address();
      l.size = c.length();
    }
  } else {
    c.corrupt(fmt::format("unknown data layout version {}", version));
  }
  if (cls == 2) throw Unsupported("chunked (for example compressed) datasets are not read; save them without compression");
  if (cls > 2) throw Unsupported(fmt::format("data layout class {} (virtual datasets) is not read", cls));
  l.cls = cls == 0 ? Layout::Class::compact : Layout::Class::contiguous;
  return l;
}

namespace {

struct AttributeHeader {
  int version = 0;
  std::string name;
  std::uint64_t type_size = 0, space_size = 0;
};

AttributeHeader attribute_header(Cursor& c) {
  AttributeHeader h;
  h.version = c.u8();
  if (h.version < 1 || h.version > 3) c.corrupt(fmt::format("unknown attribute message version {}", h.version));
  const int flags = c.u8();
  const std::uint64_t name_size = c.u(2);
  h.type_size = c.u(2);
  h.space_size = c.u(2);
  if (h.version == 3) c.skip(1);  // the name's character set
  const auto* name = reinterpret_cast<const char*>(c.take(name_size));
  h.name.assign(name, strnlen(name, static_cast<std::size_t>(name_size)));
  if (h.version == 1) c.skip(padded8(name_size) - name_size);
  if (h.version > 1 && (flags & 3))
    throw Unsupported("attribute '" + h.name + "' has a shared datatype or dataspace, which is not read");
  return h;
}

}  // namespace

std::string attribute_name(Cursor c) { return attribute_header(c).name; }

Attribute decode_attribute(Cursor& c) {
  const AttributeHeader h = attribute_header(c);
  Attribute a;
  a.name = h.name;
  const std::uint64_t pad = h.version == 1 ? 8 : 1;
  Cursor type = sub(c, h.type_size, "the datatype of attribute '" + h.name + "'");
  c.skip((h.type_size + pad - 1) / pad * pad - h.type_size);
  Cursor space = sub(c, h.space_size, "the dataspace of attribute '" + h.name + "'");
  c.skip((h.space_size + pad - 1) / pad * pad - h.space_size);
  a.type = decode_datatype(type);
  a.space = decode_dataspace(space);
  if (a.type.kind == Datatype::Kind::other) return a;  // never read: its values are not decoded
  const std::uint64_t count = a.space.count();
  if (a.type.size != 0 && count > c.left() / a.type.size)
    c.corrupt(fmt::format("attribute '{}' declares {} values of {} bytes in {} bytes", a.name, count, a.type.size,
                          c.left()));
  const std::uint8_t* p = c.take(count * a.type.size);
  a.data.assign(p, p + count * a.type.size);
  return a;
}

Link decode_link(Cursor& c) {
  Link l;
  const int version = c.u8();
  if (version != 1) c.corrupt(fmt::format("unknown link message version {}", version));
  const int flags = c.u8();
  const int type = (flags & 0x08) ? c.u8() : 0;
  if (flags & 0x04) c.skip(8);  // creation order
  if (flags & 0x10) c.skip(1);  // the name's character set
  const std::uint64_t name_size = c.u(1 << (flags & 3));
  const auto* name = reinterpret_cast<const char*>(c.take(name_size));
  l.name.assign(name, static_cast<std::size_t>(name_size));
  if (type == 0) l.address = c.address();  // soft and external links are not followed
  return l;
}

bool dense_storage(Cursor& c, bool attribute_info) {
  const int version = c.u8();
  if (version != 0) c.corrupt(fmt::format("unknown link or attribute info version {}", version));
  const int flags = c.u8();
  if (flags & 1) c.skip(attribute_info ? 2 : 8);  // the maximum creation index
  return c.address() != kUndefined;
}

}  // namespace keras::hdf5::format
