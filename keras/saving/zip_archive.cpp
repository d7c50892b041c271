#include "keras/saving/zip_archive.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>
#include <zip.h>

#include "keras/errors.hpp"

namespace keras::saving {
namespace {

zip_t* as_zip(void* z) { return static_cast<zip_t*>(z); }

std::string open_error(int code) {
  zip_error_t error;
  zip_error_init_with_code(&error, code);
  std::string message = zip_error_strerror(&error);
  zip_error_fini(&error);
  return message;
}

// Names that would land outside the folder an archive is extracted into, on any system.
bool escapes(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos ||
      name.find('\0') != std::string::npos || (name.size() > 1 && name[1] == ':'))
    return true;
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find('/', start);
    if (end == std::string::npos) end = name.size();
    if (name.compare(start, end - start, "..") == 0 && end - start == 2) return true;
    start = end + 1;
  }
  return false;
}

// Bytes before the archive's first entry (a zip inside a pickle, a self-extracting stub), found as Python's
// zipfile finds them: where the central directory really starts minus where the end record says it starts.
// Zero when there are none or the end record cannot be found (ZIP64 archives are left to libzip).
std::uint64_t prepended_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::uint64_t size = std::uint64_t(in.tellg());
  const std::uint64_t tail = std::min<std::uint64_t>(size, 22 + 65535);  // end record + the longest comment
  std::string buffer(tail, '\0');
  in.seekg(std::streamoff(size - tail));
  in.read(buffer.data(), std::streamsize(tail));
  if (!in) return 0;
  const auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | std::uint8_t(buffer[at + std::size_t(i)]);
    return v;
  };
  const std::size_t record = buffer.rfind(std::string("PK\x05\x06", 4));
  if (record == std::string::npos || record + 22 > buffer.size()) return 0;
  const std::uint64_t directory_size = u32(record + 12), directory_offset = u32(record + 16);
  const std::uint64_t record_at = size - tail + record;
  if (directory_offset == 0xFFFFFFFFu || directory_size + directory_offset > record_at) return 0;
  return record_at - directory_size - directory_offset;
}

// Opens an archive read-only, as Python's zipfile does: also when bytes come before its first entry.
zip_t* open_for_reading(const std::string& path, int& code) {
  zip_t* zip = zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (zip) return zip;
  const std::uint64_t skip = prepended_bytes(path);
  if (skip == 0) return nullptr;
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_file_create(path.c_str(), skip, -1, &error);
  if (source) zip = zip_open_from_source(source, ZIP_RDONLY, &error);
  if (source && !zip) zip_source_free(source);
  if (!zip) code = zip_error_code_zip(&error);
  zip_error_fini(&error);
  return zip;
}

}  // namespace

bool is_zip_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  if (in.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4) return true;
  return std::filesystem::is_regular_file(path) && prepended_bytes(path) > 0;
}

ZipReader::ZipReader(const std::string& path) : ZipReader(path, Limits{}) {}

ZipReader::ZipReader(const std::string& path, Limits limits) : path_(path) {
  if (!std::filesystem::is_regular_file(path)) throw IOError("No such file: " + path);
  int code = 0;
  zip_ = open_for_reading(path, code);
  if (!zip_)
    throw IOError(code == ZIP_ER_NOZIP   ? path + " is not a zip archive (a .keras file is one)"
                  : code == ZIP_ER_EXISTS ? "The zip archive " + path + " has two entries with the same name"
                                          : "Cannot read the zip archive " + path + ": " + open_error(code));
  try {
    const zip_int64_t n = zip_get_num_entries(as_zip(zip_), 0);
    if (n < 0 || std::uint64_t(n) > limits.max_entries)
      throw IOError("The zip archive " + path + " declares " + std::to_string(n) + " entries (at most " +
                    std::to_string(limits.max_entries) + " are read)");
    std::set<std::string> seen;
    std::uint64_t total = 0;
    for (zip_int64_t i = 0; i < n; ++i) {
      zip_stat_t st;
      zip_stat_init(&st);
      if (zip_stat_index(as_zip(zip_), zip_uint64_t(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
          !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE))
        throw IOError("The zip archive " + path + " has a damaged directory entry (" + std::to_string(i) + ")");
      const std::string name = st.name;
      if (escapes(name))
        throw IOError("The zip archive " + path + " has an entry named '" + name +
                      "', which would be written outside its folder: refusing to read it");
      if (!seen.insert(name).second)
        throw IOError("The zip archive " + path + " has two entries named '" + name + "'");
      total += st.size;
      if (total > limits.max_total_size || st.size > limits.max_total_size)
        throw IOError("The zip archive " + path + " declares " + std::to_string(total) +
                      " bytes of content, more than the limit of " + std::to_string(limits.max_total_size));
      if (st.size > (std::uint64_t(1) << 20) &&
          (st.comp_size == 0 || double(st.size) / double(st.comp_size) > limits.max_ratio))
        throw IOError("The zip archive " + path + " has an entry '" + name + "' that expands " +
                      std::to_string(st.comp_size) + " bytes into " + std::to_string(st.size) +
                      ": refusing it as a zip bomb");
      if (name.back() == '/') continue;  // a folder
      names_.push_back(name);
      indices_.push_back(i);
      sizes_.push_back(st.size);
    }
  } catch (...) {
    zip_discard(as_zip(zip_));
    throw;
  }
}

ZipReader::~ZipReader() {
  if (zip_) zip_discard(as_zip(zip_));
}

bool ZipReader::has(const std::string& name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::int64_t ZipReader::index_of(const std::string& name) const {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) throw IOError("The archive " + path_ + " has no entry '" + name + "'");
  return it - names_.begin();
}

template <class Sink>
void ZipReader::stream(const std::string& name, Sink&& sink) const {
  const std::int64_t k = index_of(name);
  zip_file_t* file = zip_fopen_index(as_zip(zip_), zip_uint64_t(indices_[k]), 0);
  if (!file)
    throw IOError("Cannot read '" + name + "' in the archive " + path_ + ": " + zip_strerror(as_zip(zip_)));
  std::vector<char> buffer(std::size_t(1) << 20);
  std::uint64_t total = 0;
  try {
    for (;;) {
      const zip_int64_t got = zip_fread(file, buffer.data(), buffer.size());
      if (got < 0)
        throw IOError("The entry '" + name + "' of the archive " + path_ + " is damaged: " + zip_file_strerror(file));
      if (got == 0) break;
      total += std::uint64_t(got);
      if (total > sizes_[k]) break;
      sink(buffer.data(), std::size_t(got));
    }
  } catch (...) {
    zip_fclose(file);
    throw;
  }
  zip_fclose(file);
  if (total != sizes_[k])
    throw IOError("The entry '" + name + "' of the archive " + path_ + " holds " + std::to_string(total) +
                  " bytes, not the " + std::to_string(sizes_[k]) + " its directory declares");
}

std::string ZipReader::read(const std::string& name) const {
  std::string out;
  out.reserve(sizes_[index_of(name)]);
  stream(name, [&](const char* data, std::size_t n) { out.append(data, n); });
  return out;
}

void ZipReader::extract(const std::string& name, const std::string& file) const {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw IOError("Cannot create " + file + " to extract '" + name + "' of " + path_);
  stream(name, [&](const char* data, std::size_t n) { out.write(data, std::streamsize(n)); });
  out.close();
  if (!out) throw IOError("Cannot write " + file + " (extracting '" + name + "' of " + path_ + "): is the disk full?");
}

ZipWriter::ZipWriter(std::string path) : path_(std::move(path)), tmp_(path_ + ".tmp" + std::to_string(::getpid())) {
  int code = 0;
  zip_ = zip_open(tmp_.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!zip_) throw IOError("Cannot create " + tmp_ + " (to write " + path_ + "): " + open_error(code));
}

ZipWriter::~ZipWriter() {
  if (zip_) zip_discard(as_zip(zip_));
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(tmp_, ignored);
  }
}

void ZipWriter::add_source(const std::string& name, void* source) {
  auto* src = static_cast<zip_source_t*>(source);
  if (!src) throw IOError("Cannot add '" + name + "' to " + path_ + ": " + zip_strerror(as_zip(zip_)));
  const zip_int64_t index = zip_file_add(as_zip(zip_), name.c_str(), src, ZIP_FL_ENC_UTF_8);
  if (index < 0) {
    zip_source_free(src);
    throw IOError("Cannot add '" + name + "' to " + path_ + ": " + zip_strerror(as_zip(zip_)));
  }
  zip_set_file_compression(as_zip(zip_), zip_uint64_t(index), ZIP_CM_STORE, 0);
}

void ZipWriter::add(const std::string& name, std::string content) {
  contents_.push_back(std::move(content));
  const std::string& kept = contents_.back();
  add_source(name, zip_source_buffer(as_zip(zip_), kept.data(), kept.size(), 0));
}

void ZipWriter::add_file(const std::string& name, const std::string& file) {
  add_source(name, zip_source_file(as_zip(zip_), file.c_str(), 0, -1));
}

void ZipWriter::commit() {
  if (zip_close(as_zip(zip_)) != 0)
    throw IOError("Cannot write " + tmp_ + " (for " + path_ + "): " + zip_strerror(as_zip(zip_)) +
                  "; the previous file, if any, is unchanged");
  zip_ = nullptr;
  std::error_code error;
  std::filesystem::rename(tmp_, path_, error);
  if (error) throw IOError("Cannot rename " + tmp_ + " to " + path_ + ": " + error.message());
  committed_ = true;
}

}  // namespace keras::saving
