#include "data/tfrecord_dataset.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "data/auto_shard.hpp"
#include "data/file_stream.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {

namespace {
std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;  // reflected Castagnoli polynomial
    t[i] = c;
  }
  return t;
}

std::uint32_t load_le32(const unsigned char* p) { return p[0] | p[1] << 8 | p[2] << 16 | std::uint32_t(p[3]) << 24; }
}  // namespace

std::uint32_t crc32c(const void* data, std::size_t n) {
  static const auto table = make_crc_table();
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < n; ++i) c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::uint32_t masked_crc32c(const void* data, std::size_t n) {
  const std::uint32_t c = crc32c(data, n);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

namespace {

class TFRecordNode : public DatasetNode {
 public:
  TFRecordNode(std::vector<std::string> files, TFRecordOptions o) : files_(std::move(files)), o_(std::move(o)) {
    detail::check_compression_type(o_.compression_type);
    if (files_.empty()) throw ValueError("TFRecordDataset needs at least one file name");
  }
  ElementSpec element_spec() const override { return TensorSpec{{}, "string"}; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::vector<std::string> files;  // this replica's (data/auto_shard.hpp)
      const TFRecordNode* n;
      std::size_t file = 0;
      std::uint64_t offset = 0, record = 0;
      std::unique_ptr<detail::FileStream> in;
      std::optional<Element> next() override {
        while (file < files.size()) {
          if (!in) {
            in = std::make_unique<detail::FileStream>(files[file], n->o_.compression_type);
            offset = record = 0;
          }
          if (auto r = read_record()) return Element(Component(std::move(*r)));
          in.reset();
          ++file;
        }
        return std::nullopt;
      }
      std::optional<std::string> read_record() {
        unsigned char head[12];
        const std::size_t got = in->read(head, sizeof head);
        if (got == 0) return std::nullopt;
        const std::string where = fmt::format("'{}' record {} (byte offset {})", files[file], record, offset);
        if (got < sizeof head) throw IOError("Truncated TFRecord file: " + where + " ends inside its header");
        if (masked_crc32c(head, 8) != load_le32(head + 8))
          throw IOError("Corrupted TFRecord: " + where + " has a bad length CRC (is it a TFRecord file, and is the "
                        "compression_type right?)");
        std::uint64_t len = 0;
        for (int i = 7; i >= 0; --i) len = (len << 8) | head[i];
        // Read in chunks: a damaged length (whose CRC happens to match) must not allocate more than the
        // file holds before the data runs out.
        std::string data;
        constexpr std::uint64_t kChunk = 1 << 20;
        while (data.size() < len) {
          const std::size_t have = data.size(), want = static_cast<std::size_t>(std::min(kChunk, len - have));
          data.resize(have + want);
          if (in->read(data.data() + have, want) < want)
            throw IOError(fmt::format("Truncated TFRecord file: {} is cut short (its length says {} bytes)", where, len));
        }
        unsigned char foot[4];
        if (in->read(foot, 4) < 4) throw IOError("Truncated TFRecord file: " + where + " is cut short");
        if (masked_crc32c(data.data(), len) != load_le32(foot))
          throw IOError("Corrupted TFRecord: " + where + " has a bad data CRC; the file is damaged");
        offset += 16 + len;
        ++record;
        return data;
      }
      json save() const override { return {{"file", file}, {"record", record}}; }
      void restore(const json& s) override {
        file = s.at("file");
        const std::uint64_t want = s.at("record");
        in.reset();
        if (file >= files.size()) return;
        in = std::make_unique<detail::FileStream>(files[file], n->o_.compression_type);
        offset = record = 0;
        while (record < want && read_record()) {}
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    it->files = files_of_this_replica(files_, "TFRecordDataset");
    return it;
  }

 private:
  std::vector<std::string> files_;
  TFRecordOptions o_;
};

}  // namespace

namespace {
std::shared_ptr<const DatasetNode> tfrecord_node(std::vector<std::string> files, TFRecordOptions o) {
  const std::int64_t reads = detail::parallel_calls(o.num_parallel_reads, "TFRecordDataset");
  if (reads <= 1 || files.size() <= 1) return std::make_shared<TFRecordNode>(std::move(files), std::move(o));
  detail::check_compression_type(o.compression_type);
  for (const auto& f : files)
    if (!std::filesystem::exists(f)) throw IOError("TFRecordDataset: cannot open '" + f + "': no such file");
  const std::string compression = o.compression_type;
  auto one = [compression](const Element& name) {
    return Dataset(std::make_shared<TFRecordNode>(std::vector<std::string>{name.leaf().str()}, TFRecordOptions{compression}));
  };
  auto names = shardable_file_names(
      Dataset::from_tensor_slices(Component::strings(files, {static_cast<std::int64_t>(files.size())})), files.size(),
      "TFRecordDataset");
  return names.interleave(one, {.cycle_length = reads, .block_length = 1, .num_parallel_calls = reads}).node();
}
}  // namespace

TFRecordDataset::TFRecordDataset(std::vector<std::string> filenames, TFRecordOptions options)
    : Dataset(tfrecord_node(std::move(filenames), std::move(options))) {}

TFRecordWriter::TFRecordWriter(const std::string& path, TFRecordWriterOptions options)
    : out_(std::make_unique<detail::FileSink>(path, options.compression_type)), path_(path) {}

void TFRecordWriter::close() {
  if (out_) out_->close();
}

TFRecordWriter::TFRecordWriter(TFRecordWriter&&) noexcept = default;
TFRecordWriter& TFRecordWriter::operator=(TFRecordWriter&&) noexcept = default;
TFRecordWriter::~TFRecordWriter() = default;

void TFRecordWriter::write(const std::string& record) {
  if (!out_) throw IOError("TFRecordWriter for '" + path_ + "' was moved from");
  unsigned char head[12];
  const std::uint64_t len = record.size();
  for (int i = 0; i < 8; ++i) head[i] = static_cast<unsigned char>(len >> (8 * i));
  auto put32 = [](unsigned char* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
  };
  put32(head + 8, masked_crc32c(head, 8));
  unsigned char foot[4];
  put32(foot, masked_crc32c(record.data(), record.size()));
  out_->write(head, 12);
  out_->write(record.data(), record.size());
  out_->write(foot, 4);
}

}  // namespace keras::data
