#include "data/file_stream.hpp"

#include <zlib.h>

#include "keras/errors.hpp"

namespace keras::data::detail {

void check_compression_type(const std::string& c) {
  if (c != "" && c != "GZIP")
    throw ValueError("compression_type must be \"\" or \"GZIP\", got \"" + c + "\"");
}

FileStream::FileStream(const std::string& path, const std::string& compression_type) : path_(path) {
  check_compression_type(compression_type);
  gz_ = gzopen(path.c_str(), "rb");
  if (!gz_) throw IOError("Cannot open '" + path + "': no such file or no permission to read it");
  gzbuffer(static_cast<gzFile>(gz_), 1 << 17);
}

FileStream::~FileStream() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

std::size_t FileStream::read(void* dst, std::size_t n) {
  std::size_t done = 0;
  while (done < n) {
    const unsigned chunk = static_cast<unsigned>(std::min<std::size_t>(n - done, 1u << 30));
    const int got = gzread(static_cast<gzFile>(gz_), static_cast<char*>(dst) + done, chunk);
    if (got < 0) {
      int err = 0;
      throw IOError("Cannot read '" + path_ + "': " + gzerror(static_cast<gzFile>(gz_), &err) +
                    " (is the compression_type right?)");
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done;
}

bool FileStream::getline(std::string& line) {
  line.clear();
  gzFile f = static_cast<gzFile>(gz_);
  bool any = false;
  for (;;) {
    const int c = gzgetc(f);
    if (c < 0) {
      int err = 0;
      gzerror(f, &err);
      if (err != Z_OK && err != Z_STREAM_END) throw IOError("Cannot read '" + path_ + "': corrupt or truncated data");
      break;
    }
    any = true;
    if (c == '\n') break;
    line.push_back(static_cast<char>(c));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

}  // namespace keras::data::detail
