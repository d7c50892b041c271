#pragma once
// Sequential reading of a plain or gzip-compressed file (zlib's gz* functions read both).
#include <cstdint>
#include <string>

namespace keras::data::detail {

class FileStream {
 public:
  /// compression_type: "" or "GZIP" (tf.data's names).
  FileStream(const std::string& path, const std::string& compression_type);
  ~FileStream();
  FileStream(const FileStream&) = delete;
  FileStream& operator=(const FileStream&) = delete;
  /// Reads up to n bytes; returns how many were read (fewer only at the end of the file).
  std::size_t read(void* dst, std::size_t n);
  /// The next line without its "\n" or "\r\n"; false at the end of the file.
  bool getline(std::string& line);
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* gz_ = nullptr;
};

/// Throws unless compression_type is one this build reads.
void check_compression_type(const std::string& compression_type);

}  // namespace keras::data::detail
