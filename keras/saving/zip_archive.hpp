#pragma once
// Zip archives (the `.keras` format's container), read and written with libzip. Reading checks every
// entry before anything is extracted: names that would escape a folder (absolute paths, "..", back-
// slashes), duplicate names, and sizes no Keras file has (a zip bomb) are keras::IOErrors naming the
// archive and the entry. Writing goes to a temporary file that replaces the target only when complete.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace keras::saving {

/// Whether the file is a zip archive: it starts like one, or ends with a zip directory after other bytes
/// (Python's zipfile.is_zipfile, which Keras's load_model asks, accepts both).
bool is_zip_file(const std::string& path);

class ZipReader {
 public:
  /// Limits on what an archive may declare (and what extraction will produce).
  struct Limits {
    std::uint64_t max_entries = 100000;
    std::uint64_t max_total_size = std::uint64_t(1) << 40;  // 1 TiB uncompressed
    double max_ratio = 1000.0;                              // uncompressed : compressed, for entries over 1 MiB
  };

  /// Opens and checks the archive; IOError when it is missing, not a zip file, or fails a check.
  explicit ZipReader(const std::string& path);
  ZipReader(const std::string& path, Limits limits);
  ZipReader(const ZipReader&) = delete;
  ZipReader& operator=(const ZipReader&) = delete;
  ~ZipReader();

  const std::string& path() const { return path_; }
  /// Entry names in archive order (folders, "name/", are left out).
  const std::vector<std::string>& names() const { return names_; }
  bool has(const std::string& name) const;
  /// An entry's whole content; IOError when it is missing, damaged (CRC) or not its declared size.
  std::string read(const std::string& name) const;
  /// Streams an entry into a file (for entries too large to hold twice), with the same checks.
  void extract(const std::string& name, const std::string& file) const;

 private:
  std::int64_t index_of(const std::string& name) const;
  template <class Sink>
  void stream(const std::string& name, Sink&& sink) const;

  std::string path_;
  void* zip_ = nullptr;  // zip_t
  std::vector<std::string> names_;
  std::vector<std::int64_t> indices_;
  std::vector<std::uint64_t> sizes_;
};

class ZipWriter {
 public:
  /// Starts an archive that will replace `path` when commit() succeeds.
  explicit ZipWriter(std::string path);
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;
  /// Removes the temporary file unless commit() ran.
  ~ZipWriter();

  /// Adds an entry, stored uncompressed as Keras stores its entries.
  void add(const std::string& name, std::string content);
  /// Adds an entry whose content is read from `file` when the archive is written (at commit()).
  void add_file(const std::string& name, const std::string& file);
  /// Writes the archive and renames it over the target.
  void commit();

 private:
  void add_source(const std::string& name, void* source);
  std::string path_, tmp_;
  void* zip_ = nullptr;  // zip_t
  std::deque<std::string> contents_;  // kept alive until the archive is written
  bool committed_ = false;
};

}  // namespace keras::saving
