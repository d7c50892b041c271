#include "keras/hdf5/reader.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::hdf5 {

using format::Corrupt;
using format::Cursor;
using format::kUndefined;

using namespace format;  // message types

namespace {

constexpr char kSignature[] = "\x89HDF\r\n\x1a\n";
constexpr std::uint64_t kMaxChunks = 4096, kMaxTreeNodes = 1 << 14;

}  // namespace

const Reader::Message* Reader::find_message(const std::vector<Message>& messages, int type) {
  for (const auto& m : messages)
    if (m.type == type) return &m;
  return nullptr;
}

Reader::Reader(int fd, std::string path, std::uint64_t base, std::uint64_t size)
    : fd_(fd), path_(std::move(path)), base_(base), size_(size) {}

Reader::~Reader() { ::close(fd_); }

void Reader::rethrow(const std::string& where) const {
  try {
    throw;
  } catch (const format::Corrupt& e) {
    throw IOError(fmt::format("Cannot read the HDF5 file '{}' ({}): {}; the file is damaged or truncated", path_,
                              where, e.what()));
  } catch (const format::Unsupported& e) {
    throw IOError(fmt::format("Cannot read the HDF5 file '{}' ({}): {}", path_, where, e.what()));
  }
}

std::shared_ptr<const Reader> Reader::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IOError("Cannot open the file '" + path + "' for reading");
  struct stat st {};
  ::fstat(fd, &st);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  // The superblock is at byte 0 or, after a user block, at 512, 1024, 2048, ...
  std::uint64_t base = 0;
  for (char head[8]; base + 8 <= size; base = base ? base * 2 : 512) {
    if (::pread(fd, head, 8, static_cast<off_t>(base)) == 8 && std::memcmp(head, kSignature, 8) == 0) break;
  }
  std::shared_ptr<Reader> reader(new Reader(fd, path, base, size));
  if (base + 8 > size) throw IOError("'" + path + "' is not an HDF5 file (or it is truncated or corrupt)");
  const int version = reader->guarded("superblock", [&] { return reader->read(8, 1, "the superblock")[0]; });
  if (version >= 2) return nullptr;  // checksummed metadata: the HDF5 library reads it
  reader->guarded("superblock", [&] {
    const auto head = reader->read(0, version == 0 ? 24 : 28, "the superblock");
    Cursor sizes(head.data() + 13, 2, {}, "the superblock");
    const int offset = sizes.u8(), length = sizes.u8();
    for (int s : {offset, length})
      if (s != 2 && s != 4 && s != 8) throw Corrupt(fmt::format("the superblock gives field width {}", s));
    reader->sizes_ = {offset, length};
    const auto rest = reader->read(head.size(), 4 * offset + 2 * offset + 24, "the superblock");
    Cursor c(rest.data(), rest.size(), reader->sizes_, "the superblock");
    c.skip(2 * offset);  // base address (the superblock's position), free-space address
    const std::uint64_t eof = c.address();
    c.skip(offset + offset);  // driver information, the root's name in its (nonexistent) parent's heap
    reader->root_ = c.address();
    if (eof != kUndefined && eof > size - base)
      throw Corrupt(fmt::format("the superblock says the file has {} bytes, but it has {} (an incomplete "
                                "download or copy?)",
                                eof, size - base));
  });
  return reader;
}

void Reader::check_range(std::uint64_t address, std::uint64_t n, const std::string& what) const {
  const std::uint64_t avail = size_ - base_;
  if (address > avail || n > avail - address)
    throw Corrupt(fmt::format("{} ({} bytes at byte {}) lies past the end of the file ({} bytes)", what, n, address,
                              avail));
}

void Reader::read_into(std::uint64_t address, std::uint64_t n, void* out, const std::string& what) const {
  check_range(address, n, what);
  auto* p = static_cast<char*>(out);
  for (std::uint64_t done = 0; done < n;) {
    const ssize_t got = ::pread(fd_, p + done, static_cast<std::size_t>(std::min<std::uint64_t>(n - done, 1 << 30)),
                                static_cast<off_t>(base_ + address + done));
    if (got <= 0) throw Corrupt(fmt::format("{} at byte {} cannot be read", what, address + done));
    done += static_cast<std::uint64_t>(got);
  }
}

std::vector<std::uint8_t> Reader::read(std::uint64_t address, std::uint64_t n, const std::string& what) const {
  check_range(address, n, what);  // before anything is allocated
  std::vector<std::uint8_t> out;
  out.resize(static_cast<std::size_t>(n));
  read_into(address, n, out.data(), what);
  return out;
}

std::vector<Reader::Message> Reader::messages(std::uint64_t object) const {
  const std::string what = fmt::format("the object header at byte {}", object);
  struct Chunk {
    std::uint64_t address, size;
    bool first;
  };
  std::vector<Chunk> chunks;
  int version = 1, flags = 0;
  if (read(object, 1, what)[0] == 1) {  // version 1: a 16-byte prefix, then the first chunk's messages
    const auto head = read(object, 16, what);
    Cursor c(head.data() + 8, 4, sizes_, what);
    chunks.push_back({object + 16, c.u(4), true});
  } else {  // version 2: "OHDR", version, flags, optional times and attribute limits, the first chunk's size
    const auto head = read(object, 6, what);
    Cursor c(head.data(), head.size(), sizes_, what);
    c.expect("OHDR", 4);
    version = c.u8();
    flags = c.u8();
    if (version != 2) c.corrupt(fmt::format("unknown object header version {}", version));
    const std::uint64_t at = 6 + ((flags & 0x20) ? 16 : 0) + ((flags & 0x10) ? 4 : 0);
    const int width = 1 << (flags & 3);
    const auto size = read(object + at, static_cast<std::uint64_t>(width), what);
    chunks.push_back({object + at + width, Cursor(size.data(), size.size(), sizes_, what).u(width), true});
  }
  std::vector<Message> out;
  std::set<std::uint64_t> seen;
  std::uint64_t total = 0;  // an object header is far smaller than its file: more is a forged chunk list
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (chunks.size() > kMaxChunks || !seen.insert(chunks[i].address).second)
      throw Corrupt(what + " is corrupt: its continuation chunks form a loop");
    if (chunks[i].size > size_ - total) throw Corrupt(what + " is corrupt: its chunks add up to more than the file");
    total += chunks[i].size;
    const auto bytes = read(chunks[i].address, chunks[i].size, what);
    Cursor c(bytes.data(), bytes.size(), sizes_, what);
    if (version == 2 && !chunks[i].first) {  // "OCHK", messages, checksum
      c.expect("OCHK", 4);
      if (c.left() < 4) c.corrupt("a continuation chunk is too small");
      c = Cursor(bytes.data() + 4, bytes.size() - 8, sizes_, what);
    }
    const std::size_t header = version == 1 ? 8 : (flags & 0x04) ? 6 : 4;
    while (c.left() >= header) {
      Message m;
      m.type = static_cast<int>(c.u(version == 1 ? 2 : 1));
      const std::uint64_t size = c.u(2);
      m.flags = c.u8();
      c.skip(header - (version == 1 ? 5 : 4));  // reserved bytes, or the creation order
      const std::uint8_t* data = c.take(size);
      m.bytes.assign(data, data + size);
      if (m.type == kContinuation) {
        Cursor k = m.cursor(sizes_, what + ", a continuation message");
        const std::uint64_t address = k.address();
        chunks.push_back({address, k.length(), false});
      }
      out.push_back(std::move(m));
    }
  }
  return out;
}

const Reader::Members& Reader::members(std::uint64_t group) const {
  {
    std::lock_guard lock(mutex_);
    if (auto it = members_.find(group); it != members_.end()) return it->second;
  }
  Members listed = list_members(group);
  std::lock_guard lock(mutex_);
  return members_.try_emplace(group, std::move(listed)).first->second;  // std::map: references stay valid
}

Reader::Members Reader::list_members(std::uint64_t group) const {
  const auto msgs = messages(group);
  Members out;
  if (const Message* m = find_message(msgs, kSymbolTable)) {
    Cursor c = m->cursor(sizes_, "a symbol table message");
    const std::uint64_t btree = c.address();
    symbol_table(btree, c.address(), out);
  } else {
    for (const auto& m : msgs) {
      Cursor c = m.cursor(sizes_, fmt::format("a link message in the group at byte {}", group));
      if (m.type == kLinkInfo && format::dense_storage(c, false))
        throw format::Unsupported("the group keeps its links in dense storage (a fractal heap), which is not read");
      if (m.type != kLink) continue;
      auto link = format::decode_link(c);
      if (link.address != kUndefined) out.emplace_back(std::move(link.name), link.address);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Reader::symbol_table(std::uint64_t btree, std::uint64_t heap_address, Members& out) const {
  const int O = sizes_.offset, L = sizes_.length;
  // The local heap holds the members' names: "HEAP", version, 3 reserved, data size, free list, data address.
  const std::string heap_what = fmt::format("the local heap at byte {}", heap_address);
  const auto head = read(heap_address, 8 + 2 * L + O, heap_what);
  Cursor h(head.data(), head.size(), sizes_, heap_what);
  h.expect("HEAP", 4);
  h.skip(4);
  const std::uint64_t heap_size = h.length();
  h.skip(L);
  const auto names = read(h.address(), heap_size, heap_what);
  auto name_at = [&](std::uint64_t offset) {
    if (offset >= names.size()) throw Corrupt(fmt::format("{} is corrupt: a name at offset {} lies past it", heap_what, offset));
    const auto* s = reinterpret_cast<const char*>(names.data() + offset);
    const std::size_t n = strnlen(s, names.size() - static_cast<std::size_t>(offset));
    if (offset + n == names.size()) throw Corrupt(heap_what + " is corrupt: a name runs past its end");
    return std::string(s, n);
  };
  // A version 1 B-tree of symbol table nodes: "TREE", type 0, level, entries, siblings, then keys and children.
  std::uint64_t nodes = 0;
  auto visit = [&](auto&& self, std::uint64_t node, int level) -> void {
    const std::string what = fmt::format("the group B-tree node at byte {}", node);
    if (++nodes > kMaxTreeNodes) throw Corrupt(what + " is corrupt: the tree has too many nodes");
    const auto top = read(node, 8, what);
    Cursor t(top.data(), top.size(), sizes_, what);
    t.expect("TREE", 4);
    const int type = t.u8(), node_level = t.u8();
    const std::uint64_t entries = t.u(2);
    if (type != 0 || (level >= 0 && node_level != level))
      t.corrupt(fmt::format("type {} level {} where a group node of level {} belongs", type, node_level, level));
    const auto body = read(node + 8 + 2 * O, (entries + 1) * L + entries * O, what);
    Cursor b(body.data(), body.size(), sizes_, what);
    for (std::uint64_t i = 0; i < entries; ++i) {
      b.skip(L);
      const std::uint64_t child = b.address();
      if (node_level > 0) {
        self(self, child, node_level - 1);
        continue;
      }
      // A symbol table node: "SNOD", version 1, reserved, count, then entries (name offset, header, cache).
      const std::string snod = fmt::format("the symbol table node at byte {}", child);
      const auto shead = read(child, 8, snod);
      Cursor s(shead.data(), shead.size(), sizes_, snod);
      s.expect("SNOD", 4);
      s.skip(2);
      const std::uint64_t count = s.u(2);
      const auto symbols = read(child + 8, count * (2 * O + 24), snod);
      Cursor e(symbols.data(), symbols.size(), sizes_, snod);
      for (std::uint64_t k = 0; k < count; ++k) {
        const std::uint64_t name = e.u(O);
        const std::uint64_t header = e.address();
        e.skip(24);  // cache type, reserved, scratch pad
        out.emplace_back(name_at(name), header);
      }
    }
  };
  visit(visit, btree, -1);
}

std::optional<std::uint64_t> Reader::find(std::uint64_t group, const std::string& path) const {
  return guarded(path, [&]() -> std::optional<std::uint64_t> {
    std::uint64_t at = group;
    std::size_t start = 0;
    while (start <= path.size()) {
      const std::size_t slash = std::min(path.find('/', start), path.size());
      const std::string name = path.substr(start, slash - start);
      start = slash + 1;
      if (name.empty()) continue;
      const Members& all = members(at);
      auto it = std::lower_bound(all.begin(), all.end(), std::make_pair(name, std::uint64_t(0)));
      if (it == all.end() || it->first != name) return std::nullopt;
      at = it->second;
    }
    return at;
  });
}

bool Reader::is_group(std::uint64_t object) const {
  return guarded("an object", [&] {
    const auto msgs = messages(object);
    return find_message(msgs, kSymbolTable) || find_message(msgs, kLinkInfo);
  });
}

std::vector<std::string> Reader::children(std::uint64_t group, const std::string& where) const {
  return guarded(where, [&] {
    std::vector<std::string> names;
    for (auto& [name, address] : members(group)) names.push_back(name);
    return names;
  });
}

}  // namespace keras::hdf5
