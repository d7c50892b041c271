#include "datasets/idx.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <vector>

namespace keras::datasets {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kChunk = std::size_t(1) << 24;  // read 16 MiB at a time

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw IOError("Cannot read idx file '" + path + "': " + why);
}

std::string type_name(int type) {
  switch (type) {
    case 0x09: return "signed byte";
    case 0x0B: return "short";
    case 0x0C: return "int";
    case 0x0D: return "float";
    case 0x0E: return "double";
  }
  return "unknown";
}

// Closes the gzFile however read_idx exits.
class GzReader {
 public:
  explicit GzReader(const std::string& path) : path_(path), f_(open(path)) {
    if (!f_) fail(path, std::string(errno ? std::strerror(errno) : "gzopen failed") + "; check the path");
  }
  ~GzReader() { gzclose(f_); }
  GzReader(const GzReader&) = delete;
  GzReader& operator=(const GzReader&) = delete;

  // Reads up to n bytes; fewer only at the end of the data. Decompression errors throw.
  std::size_t read(void* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
      const auto want = static_cast<unsigned>(std::min(n - done, kChunk));
      const int got = gzread(f_, static_cast<char*>(dst) + done, want);
      if (got < 0) {
        const int saved_errno = errno;
        int code = Z_OK;
        std::string msg = gzerror(f_, &code);
        if (code == Z_ERRNO) msg = std::strerror(saved_errno);
        if (msg.starts_with(path_ + ": ")) msg.erase(0, path_.size() + 2);  // zlib prefixes the path
        fail(path_, "the data is corrupt (" + msg + "); download the file again");
      }
      done += static_cast<std::size_t>(got);
      if (static_cast<unsigned>(got) < want) break;
    }
    return done;
  }

  // Reads past the data so zlib checks the gzip trailer (CRC and length) of a stream cut short there.
  void check_end() {
    char extra;
    read(&extra, 1);
    int code = Z_OK;
    gzerror(f_, &code);
    if (code != Z_OK) fail(path_, "the file is truncated (the gzip stream ends early); download it again");
  }

  void read_exact(void* dst, std::size_t n, const char* what) {
    const std::size_t got = read(dst, n);
    if (got != n)
      fail(path_, std::string("the file is truncated in the ") + what + " (expected " + std::to_string(n) +
                      " bytes, got " + std::to_string(got) + "); download it again");
  }

 private:
  static gzFile open(const std::string& path) {
    errno = 0;
    return gzopen(path.c_str(), "rb");
  }
  std::string path_;
  gzFile f_;
};

// The .gz file, else the uncompressed one, else "".
std::string find_idx(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  for (const auto& candidate : {dir / (name + ".gz"), dir / name})
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  return "";
}

}  // namespace

Tensor read_idx(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) fail(path, "it is a folder; pass the path of an idx file");
  GzReader in(path);
  unsigned char magic[4];
  in.read_exact(magic, 4, "magic number");
  if (magic[0] != 0 || magic[1] != 0)
    fail(path, "not an idx file (its first two bytes are not zero); pass an MNIST-style idx file");
  if (magic[2] != 0x08) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", magic[2]);
    fail(path, std::string("idx data type ") + hex + " (" + type_name(magic[2]) +
                   ") is not supported; only 0x08 (unsigned byte) is");
  }
  const int ndims = magic[3];
  std::vector<unsigned char> dim_bytes(static_cast<std::size_t>(ndims) * 4);
  in.read_exact(dim_bytes.data(), dim_bytes.size(), "dimensions");
  Shape shape;
  std::int64_t count = 1;
  for (int i = 0; i < ndims; ++i) {
    const unsigned char* p = &dim_bytes[static_cast<std::size_t>(i) * 4];
    const std::int64_t d = (std::int64_t(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
    if (d != 0 && count > std::numeric_limits<std::int64_t>::max() / d)
      fail(path, "corrupt header: the dimensions overflow");
    count *= d;
    shape.push_back(d);
  }
  // Grow the buffer only as data arrives, so a corrupt header cannot make us allocate a huge tensor.
  std::vector<unsigned char> data;
  const auto total = static_cast<std::uint64_t>(count);
  while (data.size() < total) {
    const std::size_t old = data.size();
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(total - old, kChunk));
    data.resize(old + want);
    const std::size_t got = in.read(data.data() + old, want);
    if (got != want)
      fail(path, "the file is truncated: shape " + shape_str(shape) + " needs " + std::to_string(total) +
                     " data bytes but only " + std::to_string(old + got) + " are present; download it again");
  }
  in.check_end();
  Tensor t = Tensor::empty(shape, DType::uint8);
  if (!data.empty()) std::memcpy(t.raw_data(), data.data(), data.size());
  return t;
}

TrainTest load_idx_folder(const std::string& dir, const std::string& dataset_name, const std::string& hint) {
  const char* names[4] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                          "t10k-labels-idx1-ubyte"};
  std::string paths[4];
  std::string missing;
  for (int i = 0; i < 4; ++i) {
    paths[i] = find_idx(dir, names[i]);
    if (paths[i].empty()) missing += std::string(missing.empty() ? "" : ", ") + names[i] + ".gz";
  }
  if (!missing.empty()) {
    std::error_code ec;
    const std::string why = fs::is_directory(dir, ec) ? "missing " + missing : "the folder does not exist";
    throw IOError(dataset_name + " not found in folder '" + dir + "' (" + why + "). " + hint);
  }
  Split splits[2];
  for (int s = 0; s < 2; ++s) {
    const std::string& xp = paths[2 * s];
    const std::string& yp = paths[2 * s + 1];
    Tensor x = read_idx(xp);
    Tensor y = read_idx(yp);
    if (x.ndim() != 3)
      throw IOError("Cannot load " + dataset_name + ": '" + xp + "' holds shape " + shape_str(x.shape()) +
                    ", expected images (N, rows, cols); check that the file is not a labels file");
    if (y.ndim() != 1)
      throw IOError("Cannot load " + dataset_name + ": '" + yp + "' holds shape " + shape_str(y.shape()) +
                    ", expected labels (N,); check that the file is not an images file");
    if (x.dim(0) != y.dim(0))
      throw IOError("Cannot load " + dataset_name + ": '" + xp + "' has " + std::to_string(x.dim(0)) +
                    " images but '" + yp + "' has " + std::to_string(y.dim(0)) +
                    " labels; the files do not belong together, download them again");
    splits[s] = Split{x, y.astype(DType::int32)};
  }
  return TrainTest{splits[0], splits[1]};
}

}  // namespace keras::datasets
