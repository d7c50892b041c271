#include "data/file_stream.hpp"

#include <zlib.h>

#include <vector>

#include "keras/errors.hpp"

namespace keras::data::detail {

void check_compression_type(const std::string& c) {
  if (c != "" && c != "GZIP" && c != "ZLIB")
    throw ValueError("compression_type must be \"\", \"GZIP\" or \"ZLIB\", got \"" + c + "\"");
}

struct FileStream::Zlib {
  std::FILE* f = nullptr;
  z_stream zs{};
  std::vector<unsigned char> in = std::vector<unsigned char>(1 << 16);
  bool ended = false;
  ~Zlib() {
    inflateEnd(&zs);
    if (f) std::fclose(f);
  }
};

FileStream::FileStream(const std::string& path, const std::string& compression_type) : path_(path) {
  check_compression_type(compression_type);
  if (compression_type == "ZLIB") {
    zlib_ = std::make_unique<Zlib>();
    zlib_->f = std::fopen(path.c_str(), "rb");
    if (!zlib_->f) throw IOError("Cannot open '" + path + "': no such file or no permission to read it");
    if (inflateInit2(&zlib_->zs, MAX_WBITS) != Z_OK) throw IOError("Cannot start zlib decompression for '" + path + "'");
    return;
  }
  gz_ = gzopen(path.c_str(), "rb");
  if (!gz_) throw IOError("Cannot open '" + path + "': no such file or no permission to read it");
  gzbuffer(static_cast<gzFile>(gz_), 1 << 17);
}

FileStream::~FileStream() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

std::size_t FileStream::read(void* dst, std::size_t n) {
  if (zlib_) {
    Zlib& z = *zlib_;
    z.zs.next_out = static_cast<Bytef*>(dst);
    z.zs.avail_out = static_cast<uInt>(n);
    while (z.zs.avail_out > 0 && !z.ended) {
      if (z.zs.avail_in == 0) {
        const std::size_t got = std::fread(z.in.data(), 1, z.in.size(), z.f);
        if (got == 0) {
          if (std::ferror(z.f)) throw IOError("Cannot read '" + path_ + "'");
          throw IOError("Cannot read '" + path_ + "': the ZLIB stream is truncated (is the compression_type right?)");
        }
        z.zs.next_in = z.in.data();
        z.zs.avail_in = static_cast<uInt>(got);
      }
      const int r = inflate(&z.zs, Z_NO_FLUSH);
      if (r == Z_STREAM_END) z.ended = true;
      else if (r != Z_OK && r != Z_BUF_ERROR)
        throw IOError("Cannot read '" + path_ + "': corrupt ZLIB data (" + (z.zs.msg ? z.zs.msg : "inflate failed") +
                      "; is the compression_type right?)");
    }
    return n - z.zs.avail_out;
  }
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

int FileStream::getc() {
  if (zlib_) {
    unsigned char c;
    return read(&c, 1) == 1 ? c : -1;
  }
  gzFile f = static_cast<gzFile>(gz_);
  const int c = gzgetc(f);
  if (c < 0) {
    int err = 0;
    gzerror(f, &err);
    if (err != Z_OK && err != Z_STREAM_END) throw IOError("Cannot read '" + path_ + "': corrupt or truncated data");
  }
  return c;
}

bool FileStream::getline(std::string& line) {
  line.clear();
  bool any = false;
  for (;;) {
    const int c = getc();
    if (c < 0) break;
    any = true;
    if (c == '\n') break;
    line.push_back(static_cast<char>(c));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

struct FileSink::Deflate {
  z_stream zs{};
  std::vector<unsigned char> out = std::vector<unsigned char>(1 << 16);
  bool finished = false;
  ~Deflate() { deflateEnd(&zs); }
};

FileSink::FileSink(const std::string& path, const std::string& compression_type) : path_(path) {
  check_compression_type(compression_type);
  f_ = std::fopen(path.c_str(), "wb");
  if (!f_) throw IOError("Cannot write '" + path + "'; check that the folder exists and is writable");
  if (compression_type.empty()) return;
  z_ = std::make_unique<Deflate>();
  const int bits = compression_type == "GZIP" ? MAX_WBITS + 16 : MAX_WBITS;
  if (deflateInit2(&z_->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    std::fclose(f_);
    f_ = nullptr;
    throw IOError("Cannot start " + compression_type + " compression for '" + path + "'");
  }
}

FileSink::~FileSink() {
  try {
    close();
  } catch (...) {
  }
}

void FileSink::pump(int flush) {
  Deflate& z = *z_;
  for (;;) {
    z.zs.next_out = z.out.data();
    z.zs.avail_out = static_cast<uInt>(z.out.size());
    const int r = deflate(&z.zs, flush);
    if (r == Z_STREAM_ERROR) throw IOError("Compression failed while writing '" + path_ + "'");
    const std::size_t have = z.out.size() - z.zs.avail_out;
    if (have && std::fwrite(z.out.data(), 1, have, f_) != have) throw IOError("Cannot write '" + path_ + "' (disk full?)");
    if (flush == Z_FINISH ? r == Z_STREAM_END : z.zs.avail_out != 0) return;
  }
}

void FileSink::write(const void* data, std::size_t n) {
  if (!f_) throw IOError("'" + path_ + "' is already closed");
  if (!z_) {
    if (n && std::fwrite(data, 1, n, f_) != n) throw IOError("Cannot write '" + path_ + "' (disk full?)");
    return;
  }
  z_->zs.next_in = static_cast<Bytef*>(const_cast<void*>(data));
  z_->zs.avail_in = static_cast<uInt>(n);
  pump(Z_NO_FLUSH);
}

void FileSink::close() {
  if (!f_) return;
  std::FILE* f = f_;
  if (z_ && !z_->finished) {
    z_->zs.next_in = nullptr;
    z_->zs.avail_in = 0;
    z_->finished = true;
    pump(Z_FINISH);
  }
  f_ = nullptr;
  if (std::fclose(f) != 0) throw IOError("Cannot finish writing '" + path_ + "' (disk full?)");
}

}  // namespace keras::data::detail
