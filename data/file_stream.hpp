#pragma once
// Sequential reading and writing of plain, gzip- or zlib-compressed files (tf.data's compression_type
// "", "GZIP", "ZLIB"), through the zlib library.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace keras::data::detail {

class FileStream {
 public:
  /// compression_type: "", "GZIP" or "ZLIB" (tf.data's names).
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
  struct Zlib;
  std::string path_;
  void* gz_ = nullptr;          // "" and "GZIP": zlib's gz* reader (reads plain files too)
  std::unique_ptr<Zlib> zlib_;  // "ZLIB": a raw inflate stream over the file
  int getc();
};

/// Writes a file, compressed as compression_type says ("", "GZIP" or "ZLIB": one deflate stream with a
/// gzip or zlib wrapper, as TensorFlow's writers produce). close() finishes the stream.
class FileSink {
 public:
  FileSink(const std::string& path, const std::string& compression_type);
  ~FileSink();
  FileSink(const FileSink&) = delete;
  FileSink& operator=(const FileSink&) = delete;
  void write(const void* data, std::size_t n);
  /// Flushes compressed output and closes the file (the destructor does it too, without throwing).
  void close();
  const std::string& path() const { return path_; }

 private:
  struct Deflate;
  std::string path_;
  std::FILE* f_ = nullptr;
  std::unique_ptr<Deflate> z_;
  void pump(int flush);
};

/// Throws unless compression_type is one this build reads.
void check_compression_type(const std::string& compression_type);

}  // namespace keras::data::detail
