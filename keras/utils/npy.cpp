#include "keras/utils/npy.hpp"

#include "keras/utils/utf8.hpp"

#include <bit>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

namespace keras::utils {
namespace {

static_assert(std::endian::native == std::endian::little, "npy.cpp assumes a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicLen = 6;
constexpr std::uint32_t kMaxHeaderLen = 1u << 20;  // real headers are well under 1 KiB
constexpr std::size_t kAlign = 64;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw IOError("Cannot load .npy file '" + path + "': " + why);
}

// The header is a Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
// Parsed by hand: strings, True/False and tuples of integers are all that a plain array's header holds.
using Value = std::variant<std::string, bool, Shape>;

class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& path) : s_(text), path_(path) {}

  std::vector<std::pair<std::string, Value>> parse_dict() {
    std::vector<std::pair<std::string, Value>> items;
    expect('{');
    while (!eat('}')) {
      std::string key = parse_string();
      expect(':');
      items.emplace_back(std::move(key), parse_value());
      if (!eat(',')) {
        expect('}');
        break;
      }
    }
    skip_ws();
    if (i_ != s_.size()) bad("unexpected text after the closing '}'");
    return items;
  }

 private:
  const std::string& s_;
  const std::string& path_;
  std::size_t i_ = 0;

  [[noreturn]] void bad(const std::string& why) const {
    fail(path_, "corrupt header (" + why + " at offset " + std::to_string(i_) + " of \"" + s_ +
                    "\"); re-save the array with numpy.save()");
  }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) bad(std::string("expected '") + c + "'");
  }
  bool eat_word(const char* word) {
    skip_ws();
    const std::size_t n = std::strlen(word);
    if (s_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }
  std::string parse_string() {
    skip_ws();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) bad("expected a quoted string");
    const char quote = s_[i_++];
    const std::size_t end = s_.find(quote, i_);
    if (end == std::string::npos) bad("unterminated string");
    std::string out = s_.substr(i_, end - i_);
    i_ = end + 1;
    return out;
  }
  std::int64_t parse_int() {
    skip_ws();
    if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) bad("expected a dimension");
    std::int64_t v = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) bad("dimension too large");
      v = v * 10 + (s_[i_++] - '0');
    }
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;  // Python 2 long suffix
    return v;
  }
  Value parse_value() {
    skip_ws();
    if (i_ >= s_.size()) bad("missing value");
    const char c = s_[i_];
    if (c == '\'' || c == '"') return parse_string();
    if (eat_word("True")) return true;
    if (eat_word("False")) return false;
    if (c == '[') fail(path_, "structured (record) dtypes are not supported; save a plain numeric array");
    if (c != '(') bad("expected a string, True, False or a tuple");
    ++i_;
    Shape shape;
    while (!eat(')')) {
      shape.push_back(parse_int());
      if (!eat(',')) {
        expect(')');
        break;
      }
    }
    return shape;
  }
};

struct Header {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

Header parse_header(const std::string& text, const std::string& path) {
  Header h;
  bool has_descr = false, has_order = false, has_shape = false;
  for (auto& [key, value] : HeaderParser(text, path).parse_dict()) {
    if (key == "descr" && std::holds_alternative<std::string>(value)) {
      h.descr = std::get<std::string>(value);
      has_descr = true;
    } else if (key == "fortran_order" && std::holds_alternative<bool>(value)) {
      h.fortran_order = std::get<bool>(value);
      has_order = true;
    } else if (key == "shape" && std::holds_alternative<Shape>(value)) {
      h.shape = std::get<Shape>(value);
      has_shape = true;
    } else {
      fail(path, "corrupt header: unexpected or mistyped key '" + key + "' in \"" + text + "\"");
    }
  }
  if (!has_descr || !has_order || !has_shape)
    fail(path, "corrupt header: it needs the keys 'descr', 'fortran_order' and 'shape', got \"" + text + "\"");
  return h;
}

// How a descr is stored on disk and which DType it becomes.
enum class Convert { none, f8_to_f4, bool_to_u1 };
struct Format {
  std::size_t item_size;
  DType dtype;
  Convert convert;
};

void read_exact(std::ifstream& in, void* dst, std::size_t n, const std::string& path, const char* what);

// NumPy's fixed-width strings: '<U<n>' holds n UTF-32 code points, '|S<n>' n bytes, each NUL-padded at the end.
struct StringFormat {
  bool unicode = false;
  std::size_t width = 0;  // characters per element
};
std::optional<StringFormat> string_format_of(const std::string& descr, const std::string& path) {
  std::string_view d = descr;
  StringFormat f;
  if (d.starts_with("<U") || d.starts_with("=U")) f.unicode = true;
  else if (d.starts_with("|S") || d.starts_with("<S") || d.starts_with("=S") || d.starts_with("S")) f.unicode = false;
  else if (d.starts_with(">U")) fail(path, "big-endian strings ('>U') are not supported; save arr.astype('<U')");
  else return std::nullopt;
  d.remove_prefix(d[0] == 'S' ? 1 : 2);
  if (d.empty() || d.size() > 9 || d.find_first_not_of("0123456789") != std::string_view::npos)
    fail(path, "corrupt header: string dtype '" + descr + "' has no valid width");
  f.width = std::stoull(std::string(d));
  return f;
}

Tensor read_strings(std::ifstream& in, const Shape& shape, std::int64_t count, const StringFormat& f,
                    const std::string& path) {
  const std::size_t item = f.unicode ? 4 * f.width : f.width;
  std::vector<char> buf(static_cast<std::size_t>(count) * item);
  read_exact(in, buf.data(), buf.size(), path, "data");
  Tensor t = Tensor::empty(shape, DType::string);
  auto* out = t.data<std::string>();
  for (std::int64_t i = 0; i < count; ++i) {
    const char* p = buf.data() + static_cast<std::size_t>(i) * item;
    std::string& s = out[i];
    if (!f.unicode) {
      std::size_t n = f.width;
      while (n > 0 && p[n - 1] == '\0') --n;  // NumPy drops trailing NULs
      s.assign(p, n);
      continue;
    }
    std::size_t n = f.width;
    auto code = [&](std::size_t k) {
      char32_t c = 0;
      for (int b = 3; b >= 0; --b) c = (c << 8) | static_cast<unsigned char>(p[4 * k + static_cast<std::size_t>(b)]);
      return c;
    };
    while (n > 0 && code(n - 1) == 0) --n;
    for (std::size_t k = 0; k < n; ++k)
      if (!utils::append_utf8(s, code(k)))
        fail(path, "element " + std::to_string(i) + " holds the invalid code point " + std::to_string(code(k)) +
                       "; a '<U' array must hold Unicode text");
  }
  return t;
}

Format format_of(const std::string& descr, const std::string& path) {
  if (descr == "<f4") return {4, DType::float32, Convert::none};
  if (descr == "<f8") return {8, DType::float32, Convert::f8_to_f4};
  if (descr == "<i4") return {4, DType::int32, Convert::none};
  if (descr == "<i8") return {8, DType::int64, Convert::none};
  if (descr == "|u1" || descr == "<u1" || descr == "u1") return {1, DType::uint8, Convert::none};
  if (descr == "|b1" || descr == "b1") return {1, DType::uint8, Convert::bool_to_u1};
  std::string fix = "convert it in NumPy, e.g. arr.astype('float32'), and save again";
  if (!descr.empty() && descr[0] == '>') fix = "it is big-endian: save arr.astype(arr.dtype.newbyteorder('<'))";
  fail(path, "dtype '" + descr + "' is not supported (supported: '<f4', '<f8', '<i4', '<i8', '|u1', '|b1', '<U', '|S'); " + fix);
}

std::uint32_t read_le(const unsigned char* p, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void read_exact(std::ifstream& in, void* dst, std::size_t n, const std::string& path, const char* what) {
  in.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
  if (static_cast<std::size_t>(in.gcount()) != n)
    fail(path, std::string("file is truncated while reading the ") + what + " (expected " + std::to_string(n) +
                   " bytes, got " + std::to_string(in.gcount()) + ")");
}

std::string descr_of(DType d) {
  switch (d) {
    case DType::float32: return "<f4";
    case DType::int32: return "<i4";
    case DType::int64: return "<i8";
    case DType::uint8: return "|u1";
    case DType::bool_: return "|b1";
    case DType::float64: return "<f8";
    case DType::string: break;
  }
  return "?";
}

}  // namespace

Tensor load_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string(std::strerror(errno)) + "; check that the path is right and readable");
  std::error_code ec;
  const auto file_size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot determine its size (" + ec.message() + "); it must be a regular file");

  unsigned char pre[kMagicLen + 2];
  read_exact(in, pre, sizeof pre, path, "magic string");
  if (std::memcmp(pre, kMagic, kMagicLen) != 0)
    fail(path, "not a .npy file (it does not start with \\x93NUMPY); write it with numpy.save()");
  const int major = pre[kMagicLen], minor = pre[kMagicLen + 1];
  if (major < 1 || major > 3)
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                   " (1.0, 2.0 and 3.0 are supported)");
  const int len_bytes = major == 1 ? 2 : 4;
  unsigned char len_buf[4];
  read_exact(in, len_buf, static_cast<std::size_t>(len_bytes), path, "header length");
  const std::uint32_t header_len = read_le(len_buf, len_bytes);
  if (header_len > kMaxHeaderLen)
    fail(path, "corrupt header length " + std::to_string(header_len) + " (over " + std::to_string(kMaxHeaderLen) +
                   " bytes)");
  std::string text(header_len, '\0');
  read_exact(in, text.data(), header_len, path, "header");

  const Header h = parse_header(text, path);
  const auto strings = string_format_of(h.descr, path);
  const Format fmt = strings ? Format{strings->unicode ? 4 * strings->width : strings->width, DType::string, Convert::none}
                             : format_of(h.descr, path);
  if (h.fortran_order)
    fail(path, "Fortran-ordered arrays are not supported; save np.ascontiguousarray(arr) instead");
  std::int64_t count = 1;
  for (auto d : h.shape) {
    if (d != 0 && count > std::numeric_limits<std::int64_t>::max() / 16 / d)
      fail(path, "corrupt header: shape " + shape_str(h.shape) + " is too large");
    count *= d;
  }
  const auto data_bytes = static_cast<std::uint64_t>(count) * fmt.item_size;
  const std::uint64_t data_start = kMagicLen + 2 + static_cast<std::uint64_t>(len_bytes) + header_len;
  const std::uint64_t available = file_size > data_start ? file_size - data_start : 0;
  if (available < data_bytes)
    fail(path, "file is truncated: shape " + shape_str(h.shape) + " of '" + h.descr + "' needs " +
                   std::to_string(data_bytes) + " data bytes but only " + std::to_string(available) + " remain");

  if (strings) return read_strings(in, h.shape, count, *strings, path);
  Tensor t = Tensor::empty(h.shape, fmt.dtype);
  if (fmt.convert == Convert::f8_to_f4) {
    std::vector<double> buf(static_cast<std::size_t>(count));
    read_exact(in, buf.data(), data_bytes, path, "data");
    float* out = t.data<float>();
    for (std::size_t i = 0; i < buf.size(); ++i) out[i] = static_cast<float>(buf[i]);
  } else {
    read_exact(in, t.raw_data(), data_bytes, path, "data");
    if (fmt.convert == Convert::bool_to_u1) {
      auto* p = t.data<std::uint8_t>();
      for (std::int64_t i = 0; i < count; ++i) p[i] = p[i] ? 1 : 0;
    }
  }
  return t;
}

namespace {
// A string tensor as NumPy stores it: '<U' (UTF-32) when every string is valid UTF-8, else '|S' bytes; the
// width is the longest element (at least 1, as NumPy's).
std::pair<std::string, std::string> string_data(const Tensor& t) {
  const auto* p = t.data<std::string>();
  std::vector<std::u32string> text;
  bool unicode = true;
  std::size_t width = 1;
  for (std::int64_t i = 0; i < t.size() && unicode; ++i) {
    auto u = utils::utf8_to_utf32(p[i]);
    if (!u) unicode = false;
    else text.push_back(std::move(*u));
  }
  std::string data;
  if (unicode) {
    for (const auto& u : text) width = std::max(width, u.size());
    data.assign(text.size() * width * 4, '\0');
    for (std::size_t i = 0; i < text.size(); ++i)
      for (std::size_t k = 0; k < text[i].size(); ++k)
        for (int b = 0; b < 4; ++b) data[(i * width + k) * 4 + static_cast<std::size_t>(b)] = static_cast<char>((text[i][k] >> (8 * b)) & 0xFF);
    return {"<U" + std::to_string(width), data};
  }
  for (std::int64_t i = 0; i < t.size(); ++i) width = std::max(width, p[i].size());
  data.assign(static_cast<std::size_t>(t.size()) * width, '\0');
  for (std::int64_t i = 0; i < t.size(); ++i) data.replace(static_cast<std::size_t>(i) * width, p[i].size(), p[i]);
  return {"|S" + std::to_string(width), data};
}
}  // namespace

void save_npy(const std::string& path, const Tensor& t) {
  if (!t.defined()) throw ValueError("save_npy('" + path + "'): the tensor is undefined; pass a tensor with data");
  std::pair<std::string, std::string> strings;
  if (t.dtype() == DType::string) strings = string_data(t);
  const std::string descr = t.dtype() == DType::string ? strings.first : descr_of(t.dtype());
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " +
                       shape_str(t.shape()) + ", }";
  // Pad with spaces and a final newline so the data starts on a 64-byte boundary, as NumPy does.
  const std::size_t prefix = kMagicLen + 2 + 2;
  const std::size_t total = (prefix + header.size() + 1 + kAlign - 1) / kAlign * kAlign;
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';
  if (header.size() > 0xffff)
    throw ValueError("save_npy('" + path + "'): shape " + shape_str(t.shape()) + " has too many dimensions");

  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw IOError("Cannot save .npy file '" + path + "': cannot create '" + tmp + "' (" + std::strerror(errno) +
                    "); check that the folder exists and is writable");
    const unsigned char pre[] = {1, 0, static_cast<unsigned char>(header.size() & 0xff),
                                 static_cast<unsigned char>(header.size() >> 8)};
    out.write(kMagic, kMagicLen);
    out.write(reinterpret_cast<const char*>(pre), sizeof pre);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    if (t.dtype() == DType::string) out.write(strings.second.data(), static_cast<std::streamsize>(strings.second.size()));
    else if (t.nbytes()) out.write(static_cast<const char*>(t.raw_data()), static_cast<std::streamsize>(t.nbytes()));
    out.close();
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw IOError("Cannot save .npy file '" + path + "': writing '" + tmp +
                    "' failed; check free disk space and permissions");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw IOError("Cannot save .npy file '" + path + "': renaming '" + tmp + "' over it failed (" + ec.message() +
                  "); check that the path is not a folder and is writable");
  }
}

}  // namespace keras::utils
