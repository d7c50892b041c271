// TFRecord files compressed as GZIP and ZLIB: files framed and compressed by Python's zlib/gzip read here,
// files written here byte-checked against Python's framing, and num_parallel_reads' interleaving.
#include <zlib.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "data/tfrecord_dataset.hpp"
#include "golden.hpp"

using namespace keras;
using namespace keras::data;
namespace fs = std::filesystem;

namespace {
std::string golden(const std::string& f) { return std::string(keras_test::golden_dir) + "/" + f; }

// The records of tests/golden/make_tfrecord_compressed_golden.py.
std::vector<std::string> records() {
  std::string all256, pattern;
  for (int i = 0; i < 256; ++i) all256.push_back(static_cast<char>(i));
  for (int i = 0; i < 100000; ++i) pattern.push_back(static_cast<char>((i * 7) % 251));
  return {"", "a", "hello tfrecord", all256, pattern};
}

std::vector<std::string> read_all(const Dataset& ds) {
  std::vector<std::string> out;
  for (const Element& e : ds) out.push_back(e.leaf().str());
  return out;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Inflates a whole file with zlib directly (windowBits 15: a zlib stream, 31: a gzip member); the
// stream must end exactly at the end of the file.
std::string inflate_file(const std::string& path, int window_bits) {
  const std::string in = file_bytes(path);
  z_stream zs{};
  REQUIRE(inflateInit2(&zs, window_bits) == Z_OK);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[4096];
  int r = Z_OK;
  while (r == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    r = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
  }
  inflateEnd(&zs);
  REQUIRE(r == Z_STREAM_END);
  CHECK(zs.avail_in == 0);
  return out;
}
}  // namespace

TEST_CASE("TFRecordDataset reads ZLIB and GZIP files that Python's zlib and gzip wrote", "[data][files]") {
  CHECK(read_all(TFRecordDataset(golden("records.tfrecord.zlib"), {.compression_type = "ZLIB"})) == records());
  CHECK(read_all(TFRecordDataset(golden("records.tfrecord.gz"), {.compression_type = "GZIP"})) == records());
  // The wrong compression type fails with a message that says so.
  CHECK_THROWS_WITH(read_all(TFRecordDataset(golden("records.tfrecord.zlib"), {.compression_type = "GZIP"})),
                    Catch::Contains("compression_type"));
  CHECK_THROWS_WITH(read_all(TFRecordDataset(golden("records.tfrecord.gz"), {.compression_type = "ZLIB"})),
                    Catch::Contains("compression_type"));
  CHECK_THROWS_WITH(TFRecordDataset(golden("records.tfrecord.gz"), {.compression_type = "SNAPPY"}),
                    Catch::Contains("compression_type must be \"\", \"GZIP\" or \"ZLIB\""));
}

TEST_CASE("TFRecordWriter with GZIP and ZLIB writes Python's frames as one valid stream", "[data][files]") {
  const json want = keras::testing::load_golden("records_compressed.json");
  const std::string python_frames = inflate_file(golden("records.tfrecord.zlib"), 15);
  REQUIRE(python_frames.size() == want["framed_size"].get<std::size_t>());
  CHECK(masked_crc32c(python_frames.data(), python_frames.size()) == want["framed_masked_crc"].get<std::uint32_t>());
  const auto recs = records();
  for (std::size_t i = 0; i < recs.size(); ++i)
    CHECK(masked_crc32c(recs[i].data(), recs[i].size()) == want["masked_crcs"][i].get<std::uint32_t>());

  for (const auto& [type, bits] : std::vector<std::pair<std::string, int>>{{"ZLIB", 15}, {"GZIP", 31}, {"", 0}}) {
    INFO("compression " << type);
    const std::string path = "written.tfrecord" + (type.empty() ? std::string() : "." + type);
    {
      TFRecordWriter w(path, {.compression_type = type});
      for (const auto& r : recs) w.write(r);
    }
    const std::string frames = bits ? inflate_file(path, bits) : file_bytes(path);
    CHECK(frames == python_frames);  // byte for byte what Python framed
    if (type == "GZIP") CHECK(file_bytes(path).substr(0, 2) == "\x1f\x8b");
    if (type == "ZLIB") CHECK(static_cast<unsigned char>(file_bytes(path)[0]) == 0x78);
    CHECK(file_bytes(path).size() < (bits ? 5000u : 200000u));
    CHECK(read_all(TFRecordDataset(path, {.compression_type = type})) == recs);
    fs::remove(path);
  }
}

TEST_CASE("TFRecordDataset num_parallel_reads interleaves the files record by record", "[data][files]") {
  for (const auto& [name, recs] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"a.tfrecord", {"a0", "a1", "a2"}}, {"b.tfrecord", {"b0", "b1"}}, {"c.tfrecord", {"c0"}}}) {
    TFRecordWriter w(name, {.compression_type = "ZLIB"});
    for (const auto& r : recs) w.write(r);
  }
  const std::vector<std::string> files = {"a.tfrecord", "b.tfrecord", "c.tfrecord"};
  CHECK(read_all(TFRecordDataset(files, {.compression_type = "ZLIB"})) ==
        std::vector<std::string>{"a0", "a1", "a2", "b0", "b1", "c0"});
  CHECK(read_all(TFRecordDataset(files, {.compression_type = "ZLIB", .num_parallel_reads = 2})) ==
        std::vector<std::string>{"a0", "b0", "a1", "b1", "a2", "c0"});
  CHECK(read_all(TFRecordDataset(files, {.compression_type = "ZLIB", .num_parallel_reads = 3})) ==
        std::vector<std::string>{"a0", "b0", "c0", "a1", "b1", "a2"});
  CHECK_THROWS_WITH(TFRecordDataset(std::vector<std::string>{"a.tfrecord", "missing.tfrecord"}, {.num_parallel_reads = 2}),
                    Catch::Contains("missing.tfrecord"));
  for (const auto& f : files) fs::remove(f);
}
