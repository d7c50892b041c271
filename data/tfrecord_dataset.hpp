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
  std::string compression_type = "";  // "" or "GZIP"
};

class TFRecordDataset : public Dataset {
 public:
  /// Records file after file. A bad length or data CRC throws keras::IOError naming the file and offset.
  TFRecordDataset(std::vector<std::string> filenames, TFRecordOptions options = {});
  TFRecordDataset(const std::string& filename, TFRecordOptions options = {})
      : TFRecordDataset(std::vector<std::string>{filename}, options) {}
};

/// Writes uncompressed TFRecord files (tf.io.TFRecordWriter).
class TFRecordWriter {
 public:
  explicit TFRecordWriter(const std::string& path);
  TFRecordWriter(TFRecordWriter&&) noexcept;
  TFRecordWriter& operator=(TFRecordWriter&&) noexcept;
  ~TFRecordWriter();
  void write(const std::string& record);

 private:
  std::unique_ptr<std::ofstream> out_;
  std::string path_;
};

/// CRC-32C (Castagnoli) of data, and the masked form TFRecord stores.
std::uint32_t crc32c(const void* data, std::size_t n);
std::uint32_t masked_crc32c(const void* data, std::size_t n);

}  // namespace keras::data
