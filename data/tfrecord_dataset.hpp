#pragma once
// tf.data.TFRecordDataset: the records of TFRecord files (each a length, its masked CRC-32C, the
// bytes and their masked CRC-32C), as scalar strings. Also a writer, for tests and tools.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace keras::data {

struct TFRecordOptions {
  std::string compression_type = "";  // "", "GZIP" or "ZLIB"
  /// 0 (or 1): the files one after another. n > 1 or AUTOTUNE: n files are read at once, each on its own
  /// thread, their records interleaved one by one (tf's interleave with cycle_length n, block_length 1).
  std::int64_t num_parallel_reads = 0;
};

class TFRecordDataset : public Dataset {
 public:
  /// Records file after file. A bad length or data CRC throws keras::IOError naming the file and offset.
  TFRecordDataset(std::vector<std::string> filenames, TFRecordOptions options = {});
  TFRecordDataset(const std::string& filename, TFRecordOptions options = {})
      : TFRecordDataset(std::vector<std::string>{filename}, options) {}
};

namespace detail {
class FileSink;
}

struct TFRecordWriterOptions {
  std::string compression_type = "";  // "", "GZIP" or "ZLIB"
};

/// Writes TFRecord files (tf.io.TFRecordWriter), plain or compressed as one GZIP or ZLIB stream.
class TFRecordWriter {
 public:
  explicit TFRecordWriter(const std::string& path, TFRecordWriterOptions options = {});
  TFRecordWriter(TFRecordWriter&&) noexcept;
  TFRecordWriter& operator=(TFRecordWriter&&) noexcept;
  ~TFRecordWriter();
  void write(const std::string& record);
  /// Finishes the file (the compressed stream's end); the destructor does it too.
  void close();

 private:
  std::unique_ptr<detail::FileSink> out_;
  std::string path_;
};

/// CRC-32C (Castagnoli) of data, and the masked form TFRecord stores.
std::uint32_t crc32c(const void* data, std::size_t n);
std::uint32_t masked_crc32c(const void* data, std::size_t n);

}  // namespace keras::data
