#include "keras/utils/npy.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "temp_dir.hpp"
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include "test_paths.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using keras::DType;
using keras::Shape;
using keras::Tensor;
using keras::utils::load_npy;
using keras::utils::save_npy;

using keras_test::TempDir;

namespace {

std::string golden(const std::string& name) { return std::string(keras_test::golden_dir) + "/npy/" + name + ".npy"; }

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A version 1.0 file with the given header text (unpadded) followed by data.
std::string npy_bytes(const std::string& header, const std::string& data, char major = 1) {
  std::string out = "\x93NUMPY";
  out += major;
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  if (major != 1) out += std::string(2, '\0');
  return out + header + data;
}

// The message of the keras::IOError that f throws.
template <class F>
std::string io_error(F f) {
  try {
    f();
  } catch (const keras::IOError& e) {
    return e.what();
  }
  return "(no keras::IOError was thrown)";
}

Tensor filled(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  for (std::int64_t i = 0; i < t.size(); ++i) {
    switch (dtype) {
      case DType::float32: t.data<float>()[i] = static_cast<float>(i) * 0.25f - 3.0f; break;
      case DType::int32: t.data<std::int32_t>()[i] = static_cast<std::int32_t>(i * 1000 - 7); break;
      case DType::int64: t.data<std::int64_t>()[i] = (std::int64_t(1) << 40) * (i - 2); break;
      case DType::uint8: t.data<std::uint8_t>()[i] = static_cast<std::uint8_t>(i * 37); break;
    }
  }
  return t;
}

bool same(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         (a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0);
}

}  // namespace

TEST_CASE("save_npy then load_npy round-trips every dtype and shape", "[npy]") {
  TempDir dir;
  for (DType dtype : {DType::float32, DType::int32, DType::int64, DType::uint8}) {
    for (const Shape& shape : {Shape{}, Shape{5}, Shape{2, 3, 4}, Shape{0, 3}, Shape{1, 1, 1, 1, 7}}) {
      INFO(keras::dtype_name(dtype) << " " << keras::shape_str(shape));
      const Tensor t = filled(shape, dtype);
      const std::string path = dir.file("a.npy");
      save_npy(path, t);
      CHECK(same(load_npy(path), t));
      CHECK_FALSE(fs::exists(path + ".tmp"));
    }
  }
}

TEST_CASE("save_npy writes a NumPy-style v1.0 header aligned to 64 bytes", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("h.npy");
  save_npy(path, filled({2, 3}, DType::float32));
  const std::string bytes = read_bytes(path);
  REQUIRE(bytes.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  CHECK((10 + header_len) % 64 == 0);
  CHECK(bytes[10 + header_len - 1] == '\n');
  CHECK(bytes.size() == 10 + header_len + 24);
  CHECK_THAT(bytes.substr(10, header_len), Contains("'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
}

TEST_CASE("save_npy output is byte-identical to numpy.save", "[npy]") {
  TempDir dir;
  for (const char* name : {"f4_2x3", "i4_2x2x2", "i8_scalar", "u1_5", "f4_empty_0x3"}) {
    INFO(name);
    save_npy(dir.file("copy.npy"), load_npy(golden(name)));
    CHECK(read_bytes(dir.file("copy.npy")) == read_bytes(golden(name)));
  }
}

TEST_CASE("load_npy reads files written by NumPy", "[npy]") {
  Tensor f4 = load_npy(golden("f4_2x3"));
  CHECK(f4.shape() == Shape{2, 3});
  CHECK(f4.to_vector<float>() == std::vector<float>{-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f});

  Tensor f8 = load_npy(golden("f8_4"));
  CHECK(f8.dtype() == DType::float32);
  CHECK(f8.to_vector<float>() == std::vector<float>{0.25f, -1.5f, 1e10f, 3.0f});

  Tensor i4 = load_npy(golden("i4_2x2x2"));
  CHECK(i4.shape() == Shape{2, 2, 2});
  CHECK(i4.to_vector<std::int32_t>() == std::vector<std::int32_t>{-4, -3, -2, -1, 0, 1, 2, 3});

  Tensor i8 = load_npy(golden("i8_scalar"));
  CHECK(i8.shape() == Shape{});
  CHECK(i8.dtype() == DType::int64);
  CHECK(*i8.data<std::int64_t>() == -1234567890123);

  Tensor u1 = load_npy(golden("u1_5"));
  CHECK(u1.to_vector<std::uint8_t>() == std::vector<std::uint8_t>{0, 1, 127, 128, 255});

  Tensor b1 = load_npy(golden("b1_4"));
  CHECK(b1.dtype() == DType::uint8);
  CHECK(b1.to_vector<std::uint8_t>() == std::vector<std::uint8_t>{1, 0, 0, 1});

  Tensor empty = load_npy(golden("f4_empty_0x3"));
  CHECK(empty.shape() == Shape{0, 3});

  for (const char* name : {"f4_v2", "f4_v3"}) {
    INFO(name);
    CHECK(load_npy(golden(name)).to_vector<float>() == std::vector<float>{0.0f, 1.0f, 2.0f});
  }
}

TEST_CASE("load_npy explains unsupported arrays", "[npy]") {
  CHECK_THAT(io_error([] { load_npy(golden("f4_fortran")); }), Contains("Fortran") && Contains("f4_fortran.npy"));
  CHECK_THAT(io_error([] { load_npy(golden("f4_bigendian")); }), Contains("big-endian"));
  CHECK_THAT(io_error([] { load_npy(golden("i2_3")); }), Contains("'<i2'") && Contains("not supported"));
  TempDir dir;
  const std::string path = dir.file("s.npy");
  write_bytes(path, npy_bytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\n", "abcd"));
  CHECK_THAT(io_error([&] { load_npy(path); }), Contains("structured"));
}

TEST_CASE("load_npy parses header variants", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("v.npy");
  const std::string data(8, '\0');
  write_bytes(path, npy_bytes("{\"shape\": (2L,), \"fortran_order\": False, \"descr\": \"<i4\"}", data));
  CHECK(load_npy(path).shape() == Shape{2});
  write_bytes(path, npy_bytes("{'descr':'<i4','fortran_order':False,'shape':(1,2)}  \n", data, 2));
  CHECK(load_npy(path).shape() == Shape{1, 2});
}

TEST_CASE("load_npy rejects corrupt headers with an IOError", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("bad.npy");
  const std::string data(8, '\0');
  for (const char* header :
       {"", "{", "{}", "{'descr': '<i4', 'fortran_order': False}", "{'descr': '<i4', 'fortran_order': False, 'shape': (2,)",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'extra': 1}",
        "{'descr': '<i4', 'fortran_order': Maybe, 'shape': (2,)}", "{'descr': '<i4, 'fortran_order': False, 'shape': (2,)}",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} trailing"}) {
    INFO(header);
    write_bytes(path, npy_bytes(header, data));
    CHECK_THAT(io_error([&] { load_npy(path); }), Contains(path));
  }
  write_bytes(path, npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", data, 4));
  CHECK_THAT(io_error([&] { load_npy(path); }), Contains("version 4.0"));
}

TEST_CASE("load_npy never crashes on damaged bytes", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("damaged.npy");
  const std::string good = read_bytes(golden("f4_2x3"));
  int rejected = 0;
  for (std::size_t pos = 0; pos < good.size() - 24; ++pos) {
    for (char c : {'\0', '(', ')', '\'', ',', '9', '{', '}', '\xff'}) {
      std::string bytes = good;
      bytes[pos] = c;
      write_bytes(path, bytes);
      try {
        load_npy(path);
      } catch (const keras::IOError&) {
        ++rejected;
      }
    }
  }
  CHECK(rejected > 0);
}

TEST_CASE("load_npy reports truncated files and bad magic", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("t.npy");
  const std::string good = read_bytes(golden("f4_2x3"));
  for (std::size_t n = 0; n < good.size(); ++n) {
    INFO("first " << n << " bytes");
    write_bytes(path, good.substr(0, n));
    CHECK_THAT(io_error([&] { load_npy(path); }), Contains(path));
  }
  write_bytes(path, good.substr(0, good.size() - 1));
  CHECK_THAT(io_error([&] { load_npy(path); }), Contains("truncated"));

  std::string bad = good;
  bad[1] = 'X';
  write_bytes(path, bad);
  CHECK_THAT(io_error([&] { load_npy(path); }), Contains("not a .npy file"));
  CHECK_THAT(io_error([&] { load_npy(dir.file("missing.npy")); }), Contains("missing.npy"));
  CHECK_THAT(io_error([&] { load_npy(dir.path().string()); }), Contains(dir.path().string()));
}

TEST_CASE("a failed save_npy keeps the existing file", "[npy]") {
  TempDir dir;
  const std::string path = dir.file("keep.npy");
  const Tensor first = filled({3}, DType::float32);
  save_npy(path, first);
  fs::create_directory(path + ".tmp");  // makes writing the temporary file fail
  CHECK_THAT(io_error([&] { save_npy(path, filled({4, 4}, DType::int64)); }), Contains(path));
  CHECK(same(load_npy(path), first));
  fs::remove(path + ".tmp");

  const Tensor second = filled({4, 4}, DType::int64);
  save_npy(path, second);
  CHECK(same(load_npy(path), second));
  CHECK_FALSE(fs::exists(path + ".tmp"));

  CHECK_THAT(io_error([&] { save_npy(dir.file("no/such/folder/x.npy"), first); }), Contains("x.npy"));
  CHECK_THROWS_AS(save_npy(dir.file("u.npy"), Tensor()), keras::ValueError);
}

TEST_CASE("load_npy reads NumPy's '<U' strings as UTF-8 and '|S' strings as bytes", "[npy][strings]") {
  const Tensor u = load_npy(golden("U5_2x2"));
  CHECK(u.dtype() == DType::string);
  CHECK(u.shape() == Shape{2, 2});
  CHECK(u.to_vector<std::string>() ==
        std::vector<std::string>{"a", "h\xC3\xA9llo", "\xE6\x97\xA5\xE6\x9C\xAC", "\xF0\x9F\x98\x80x"});
  const Tensor s = load_npy(golden("S3_3"));
  CHECK(s.shape() == Shape{3});
  CHECK(s.to_vector<std::string>() == std::vector<std::string>{"ab", "", std::string("\xFF\0z", 3)});
  const Tensor e = load_npy(golden("U1_empty_0"));
  CHECK(e.dtype() == DType::string);
  CHECK(e.shape() == Shape{0});
}

TEST_CASE("save_npy writes string tensors byte for byte as numpy.save does", "[npy][strings]") {
  TempDir dir;
  for (const char* name : {"U5_2x2", "S3_3", "U1_empty_0"}) {
    const Tensor t = load_npy(golden(name));
    const std::string out = dir.file(std::string(name) + ".npy");
    save_npy(out, t);
    CHECK(read_bytes(out) == read_bytes(golden(name)));
    CHECK(load_npy(out).to_vector<std::string>() == t.to_vector<std::string>());
  }
}

TEST_CASE("load_npy refuses bad string arrays with the file's name", "[npy][strings]") {
  TempDir dir;
  const std::string bad = dir.file("surrogate.npy");
  std::string data(4, '\0');
  data[0] = '\x00';
  data[1] = '\xD8';  // U+D800, a surrogate: no Unicode text
  write_bytes(bad, npy_bytes("{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", data));
  CHECK_THAT(io_error([&] { load_npy(bad); }), Contains("surrogate.npy") && Contains("invalid code point"));
  const std::string big = dir.file("big.npy");
  write_bytes(big, npy_bytes("{'descr': '>U1', 'fortran_order': False, 'shape': (1,), }", std::string(4, '\0')));
  CHECK_THAT(io_error([&] { load_npy(big); }), Contains("big-endian"));
  const std::string truncated = dir.file("truncated.npy");
  write_bytes(truncated, npy_bytes("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", std::string(12, 'a')));
  CHECK_THAT(io_error([&] { load_npy(truncated); }), Contains("truncated"));
}
