#include "datasets/idx.hpp"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>

#include "temp_dir.hpp"
#include <filesystem>
#include <fstream>
#include <iterator>

#include "datasets/fashion_mnist.hpp"
#include "datasets/mnist.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using keras::DType;
using keras::Shape;
using keras::Tensor;
using keras::datasets::read_idx;

using keras_test::TempDir;

namespace {

std::string idx_bytes(const std::vector<std::uint32_t>& dims, const std::string& data, unsigned char type = 0x08) {
  std::string out{'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
  for (std::uint32_t d : dims)
    for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((d >> shift) & 0xff);
  return out + data;
}

void write_gz(const std::string& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) == static_cast<int>(bytes.size()));
  REQUIRE(gzclose(f) == Z_OK);
}

void write_plain(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string counting(std::size_t n, int step = 1) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * static_cast<std::size_t>(step)) & 0xff);
  return s;
}

// Writes a small MNIST-layout folder: n_train and n_test images of 28x28 with labels i % 10.
void write_dataset(const TempDir& dir, std::uint32_t n_train, std::uint32_t n_test, bool gz = true) {
  auto labels = [](std::uint32_t n) {
    std::string s(n, '\0');
    for (std::uint32_t i = 0; i < n; ++i) s[i] = static_cast<char>(i % 10);
    return s;
  };
  const std::string ext = gz ? ".gz" : "";
  auto write = gz ? write_gz : write_plain;
  write(dir.file("train-images-idx3-ubyte" + ext), idx_bytes({n_train, 28, 28}, counting(n_train * 784, 3)));
  write(dir.file("train-labels-idx1-ubyte" + ext), idx_bytes({n_train}, labels(n_train)));
  write(dir.file("t10k-images-idx3-ubyte" + ext), idx_bytes({n_test, 28, 28}, counting(n_test * 784, 5)));
  write(dir.file("t10k-labels-idx1-ubyte" + ext), idx_bytes({n_test}, labels(n_test)));
}

template <class F>
std::string io_error(F f) {
  try {
    f();
  } catch (const keras::IOError& e) {
    return e.what();
  }
  return "(no keras::IOError was thrown)";
}

}  // namespace

TEST_CASE("read_idx reads gzipped and plain ubyte files of any rank", "[idx]") {
  TempDir dir;
  write_gz(dir.file("a.gz"), idx_bytes({2, 3, 4}, counting(24)));
  Tensor a = read_idx(dir.file("a.gz"));
  CHECK(a.dtype() == DType::uint8);
  CHECK(a.shape() == Shape{2, 3, 4});
  CHECK(a.to_vector<std::uint8_t>()[23] == 23);

  write_plain(dir.file("b"), idx_bytes({5}, counting(5, 7)));
  CHECK(read_idx(dir.file("b")).to_vector<std::uint8_t>() == std::vector<std::uint8_t>{0, 7, 14, 21, 28});

  write_gz(dir.file("c.gz"), idx_bytes({1, 2, 1, 2, 1}, counting(4)));
  CHECK(read_idx(dir.file("c.gz")).shape() == Shape{1, 2, 1, 2, 1});

  write_gz(dir.file("d.gz"), idx_bytes({0, 28}, ""));
  CHECK(read_idx(dir.file("d.gz")).shape() == Shape{0, 28});
}

TEST_CASE("read_idx rejects other types, bad magic and truncated data", "[idx]") {
  TempDir dir;
  const std::string path = dir.file("x.gz");
  write_gz(path, idx_bytes({2}, std::string(8, '\0'), 0x0D));
  CHECK_THAT(io_error([&] { read_idx(path); }), Contains("0x0D") && Contains("x.gz"));

  std::string bad = idx_bytes({2}, "ab");
  bad[0] = 1;
  write_gz(path, bad);
  CHECK_THAT(io_error([&] { read_idx(path); }), Contains("not an idx file"));

  write_gz(path, idx_bytes({2, 3, 3}, counting(10)));
  CHECK_THAT(io_error([&] { read_idx(path); }), Contains("truncated") && Contains("x.gz"));

  write_gz(path, idx_bytes({4000000000u, 4000000000u, 4000000000u}, "abc"));
  CHECK_THAT(io_error([&] { read_idx(path); }), Contains("x.gz"));

  // Every prefix of a valid gzipped file: cut headers, cut data, cut compressed stream.
  write_gz(path, idx_bytes({3, 28, 28}, counting(3 * 784, 11)));
  const std::string gz = read_bytes(path);
  const std::string cut = dir.file("cut.gz");
  for (std::size_t n = 0; n < gz.size(); ++n) {
    INFO("first " << n << " of " << gz.size() << " compressed bytes");
    write_plain(cut, gz.substr(0, n));
    CHECK_THAT(io_error([&] { read_idx(cut); }), Contains("cut.gz"));
  }
  // Damaged compressed bytes either still decode to the same data or give an IOError, never a crash.
  int rejected = 0;
  for (std::size_t pos = 0; pos < gz.size(); ++pos) {
    std::string damaged = gz;
    damaged[pos] = static_cast<char>(damaged[pos] ^ 0x55);
    write_plain(cut, damaged);
    Shape shape;
    try {
      shape = read_idx(cut).shape();
    } catch (const keras::IOError&) {
      ++rejected;
      continue;
    }
    CHECK(shape == Shape{3, 28, 28});
  }
  CHECK(rejected > 0);
  CHECK_THAT(io_error([&] { read_idx(dir.file("nothing.gz")); }), Contains("nothing.gz"));
}

TEST_CASE("load_data reads an MNIST-layout folder", "[idx]") {
  TempDir dir;
  write_dataset(dir, 12, 5);
  auto [train, test] = keras::datasets::mnist::load_data(dir.path().string());
  CHECK(train.x.shape() == Shape{12, 28, 28});
  CHECK(train.x.dtype() == DType::uint8);
  CHECK(train.y.shape() == Shape{12});
  CHECK(train.y.dtype() == DType::int32);
  CHECK(train.y.to_vector<std::int32_t>()[11] == 1);
  CHECK(test.x.shape() == Shape{5, 28, 28});
  CHECK(test.x.to_vector<std::uint8_t>()[1] == 5);
  CHECK(test.y.to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1, 2, 3, 4});

  TempDir plain;
  write_dataset(plain, 3, 2, false);
  auto data = keras::datasets::fashion_mnist::load_data(plain.path().string());
  CHECK(data.train.x.shape() == Shape{3, 28, 28});
  CHECK(data.test.y.shape() == Shape{2});
}

TEST_CASE("load_data explains missing and mismatched files", "[idx]") {
  TempDir dir;
  const std::string missing = (dir.path() / "nowhere").string();
  const std::string fashion = io_error([&] { keras::datasets::fashion_mnist::load_data(missing); });
  CHECK_THAT(fashion, Contains(missing) && Contains("dataset-fashion-mnist") &&
                          Contains("/usr/share/datasets/fashion-mnist"));
  CHECK_THAT(io_error([&] { keras::datasets::mnist::load_data(missing); }), Contains(missing) && Contains("folder"));

  write_dataset(dir, 4, 2);
  fs::remove(dir.file("t10k-labels-idx1-ubyte.gz"));
  CHECK_THAT(io_error([&] { keras::datasets::mnist::load_data(dir.path().string()); }),
             Contains(dir.path().string()) && Contains("t10k-labels-idx1-ubyte"));

  write_gz(dir.file("t10k-labels-idx1-ubyte.gz"), idx_bytes({3}, "\1\2\3"));
  CHECK_THAT(io_error([&] { keras::datasets::mnist::load_data(dir.path().string()); }),
             Contains("2 images") && Contains("3 labels"));
}

TEST_CASE("fashion_mnist::load_data reads the installed dataset", "[idx][slow]") {
  const std::string dir = "/usr/share/datasets/fashion-mnist";
  if (!fs::exists(dir + "/train-images-idx3-ubyte.gz") && !fs::exists(dir + "/train-images-idx3-ubyte")) {
    WARN("skipped: " << dir << " is not installed (Debian package dataset-fashion-mnist)");
    return;
  }
  auto [train, test] = keras::datasets::fashion_mnist::load_data();
  CHECK(train.x.shape() == Shape{60000, 28, 28});
  CHECK(train.y.shape() == Shape{60000});
  CHECK(test.x.shape() == Shape{10000, 28, 28});
  CHECK(test.y.shape() == Shape{10000});
  for (const auto* split : {&train, &test}) {
    const auto labels = split->y.to_vector<std::int32_t>();
    CHECK(*std::min_element(labels.begin(), labels.end()) == 0);
    CHECK(*std::max_element(labels.begin(), labels.end()) == 9);
    CHECK(std::count(labels.begin(), labels.end(), 3) == static_cast<long>(labels.size() / 10));
  }
}
