// TextLineDataset, CsvDataset, make_csv_dataset, TFRecordDataset and parse_example on files.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <zlib.h>

#include "data/csv_dataset.hpp"
#include "data/example_parsing.hpp"
#include "data/text_line_dataset.hpp"
#include "data/tfrecord_dataset.hpp"
#include "golden.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"
#include "test_paths.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;

namespace {
std::string write_file(const std::string& name, const std::string& text) {
  std::ofstream(name, std::ios::binary) << text;
  return name;
}
std::string write_gzip(const std::string& name, const std::string& text) {
  gzFile f = gzopen(name.c_str(), "wb");
  gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
  gzclose(f);
  return name;
}
std::vector<std::string> lines(const Dataset& ds) {
  std::vector<std::string> out;
  for (const Element& e : ds) out.push_back(e.leaf().str());
  return out;
}
std::string golden(const std::string& f) { return std::string(keras_test::golden_dir) + "/" + f; }
}  // namespace

TEST_CASE("TextLineDataset: several files, CRLF, gzip, skip(1) for a header", "[data][files]") {
  auto a = write_file("tl_a.txt", "header\nx1\r\nx2\n");
  auto b = write_gzip("tl_b.txt.gz", "header\ny1\ny2");
  CHECK(lines(TextLineDataset(a)) == std::vector<std::string>{"header", "x1", "x2"});
  CHECK(lines(TextLineDataset(b, {.compression_type = "GZIP"}).skip(1)) == std::vector<std::string>{"y1", "y2"});
  CHECK(lines(TextLineDataset({a, b}, {.compression_type = "GZIP"})).size() == 6);
  // Skip each file's header: one TextLineDataset per file, flat_mapped.
  auto files = Dataset::from_tensor_slices(Component::strings({a, b}, {2}));
  auto bodies = files.flat_map([](const Element& f) { return TextLineDataset(f.leaf().str(), {.compression_type = "GZIP"}).skip(1); });
  CHECK(lines(bodies) == std::vector<std::string>{"x1", "x2", "y1", "y2"});
  CHECK_THROWS_AS(lines(TextLineDataset("no_such_file.txt")), IOError);
  CHECK_THROWS_AS(TextLineDataset(a, {.compression_type = "BZIP"}), ValueError);
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

TEST_CASE("CSV records: quoted commas, doubled quotes, empty fields", "[data][files]") {
  using detail::split_csv_record;
  CHECK(split_csv_record("a,\"b,c\",d", ',', true) == std::vector<std::string>{"a", "b,c", "d"});
  CHECK(split_csv_record("\"say \"\"hi\"\"\",,", ',', true) == std::vector<std::string>{"say \"hi\"", "", ""});
  CHECK(split_csv_record("\"a,b\"", ',', false) == std::vector<std::string>{"\"a", "b\""});
  CHECK(split_csv_record("", ',', true) == std::vector<std::string>{""});
  CHECK_THROWS_WITH(split_csv_record("\"open,x", ',', true), Catch::Contains("not closed"));
}

TEST_CASE("CsvDataset: header, defaults for empty fields, required columns, select_cols", "[data][files]") {
  auto f = write_file("csv_a.csv", "id,score,name,count\n1,0.5,\"Smith, J\",7\n2,,\"multi\nline\",\n3,2.5,x,NA\n");
  CsvDataset ds({f}, {0, 0.0f, "?", std::int64_t{-1}}, {.header = true, .na_value = "NA"});
  CHECK(spec_str(ds.element_spec()) == "(TensorSpec(shape=(), dtype=int32), TensorSpec(shape=(), dtype=float32), "
                                       "TensorSpec(shape=(), dtype=string), TensorSpec(shape=(), dtype=int64))");
  std::vector<Element> rows;
  for (const Element& e : ds) rows.push_back(e);
  REQUIRE(rows.size() == 3);
  CHECK(scalar(rows[0][0]) == 1);
  CHECK(rows[0][1].leaf().tensor().item() == Approx(0.5));
  CHECK(rows[0][2].leaf().str() == "Smith, J");
  CHECK(scalar(rows[0][3]) == 7);
  CHECK(rows[1][1].leaf().tensor().item() == 0.0);  // empty -> default
  CHECK(rows[1][2].leaf().str() == "multi\nline");  // a quoted newline stays in the field
  CHECK(scalar(rows[1][3]) == -1);
  CHECK(scalar(rows[2][3]) == -1);  // na_value -> default

  CsvDataset picked({f}, {0.0f, "?"}, {.header = true, .select_cols = {1, 2}});
  auto first = picked.make_iterator().get_next();
  CHECK(first.size() == 2);
  CHECK(first[1].leaf().str() == "Smith, J");

  CsvDataset required({f}, {DType::int32, DType::float32, "", 0}, {.header = true});
  auto it = required.make_iterator();
  it.get_next();
  CHECK_THROWS_WITH(it.get_next(), Catch::Contains("no default") && Catch::Contains("column 1"));
  auto bad = write_file("csv_b.csv", "1,abc\n");
  CHECK_THROWS_WITH(CsvDataset({bad}, {0, 0.0f}).make_iterator().get_next(), Catch::Contains("cannot parse 'abc'"));
  CHECK_THROWS_WITH(CsvDataset({bad}, {0, 0.0f, 0}).make_iterator().get_next(), Catch::Contains("2 fields"));
  std::filesystem::remove(f);
  std::filesystem::remove(bad);
}

TEST_CASE("make_csv_dataset: header names, inferred types, label column, batches", "[data][files]") {
  auto f = write_file("csv_m.csv", "a,b,c,label\n1,1.5,x,0\n2,,y,1\n3,3.5,z,0\n4,4.5,w,1\n");
  auto ds = make_csv_dataset(f, 2, {.label_name = "label", .num_epochs = 1, .shuffle = false});
  std::vector<Element> batches;
  for (const Element& e : ds) batches.push_back(e);
  REQUIRE(batches.size() == 2);
  const Element& features = batches[0][0];
  CHECK(features.keys() == std::vector<std::string>{"a", "b", "c"});
  CHECK(features["a"].leaf().dtype_name() == "int32");
  CHECK(features["b"].leaf().dtype_name() == "float32");
  CHECK(features["c"].leaf().string_values() == std::vector<std::string>{"x", "y"});
  CHECK(batches[0][1].leaf().tensor().to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1});
  CHECK(batches[0][0]["b"].leaf().tensor().to_vector<float>() == std::vector<float>{1.5f, 0.f});
  auto picked = make_csv_dataset(f, 4, {.select_columns = {"a"}, .num_epochs = 1, .shuffle = false});
  CHECK(picked.make_iterator().get_next().keys() == std::vector<std::string>{"a"});
  CHECK(make_csv_dataset(f, 3, {.label_name = "label"}).cardinality() == INFINITE_CARDINALITY);
  CHECK_THROWS_WITH(make_csv_dataset(f, 2, {.label_name = "nope"}), Catch::Contains("label_name"));
  std::filesystem::remove(f);
}

TEST_CASE("CRC-32C and the TFRecord writer/reader round trip", "[data][files]") {
  const std::string digits = "123456789";
  CHECK(crc32c(digits.data(), digits.size()) == 0xE3069283u);  // the standard CRC-32C check value
  {
    TFRecordWriter w("rt.tfrecord");
    w.write("first");
    w.write("");
    w.write(std::string(1000, 'z'));
  }
  CHECK(lines(TFRecordDataset("rt.tfrecord")) == std::vector<std::string>{"first", "", std::string(1000, 'z')});
  std::filesystem::remove("rt.tfrecord");
}

TEST_CASE("TFRecordDataset reads Examples written by Python protobuf, parse_example decodes them", "[data][files]") {
  const json want = keras::testing::load_golden("examples.json");
  const FeatureMap features = {{"image", FixedLenFeature{{2, 3}, "float32"}},
                               {"label", FixedLenFeature{{}, "int64"}},
                               {"name", FixedLenFeature{{}, "string"}},
                               {"words", VarLenFeature{.dtype = "string", .to_dense = true}},
                               {"missing", FixedLenFeature{{}, "int64", Component(Tensor::full({}, 9, DType::int64))}}};
  for (const std::string& file : {std::string("examples.tfrecord"), std::string("examples.tfrecord.gz")}) {
    TFRecordDataset ds(golden(file), {.compression_type = file.ends_with(".gz") ? "GZIP" : ""});
    std::size_t i = 0;
    for (const Element& rec : ds) {
      Element ex = parse_single_example(rec.leaf().str(), features);
      INFO(file << " record " << i);
      CHECK(ex["image"].leaf().shape() == Shape{2, 3});
      CHECK(ex["image"].leaf().tensor().to_vector<float>() == want[i]["image"].get<std::vector<float>>());
      CHECK(scalar(ex["label"]) == want[i]["label"].get<std::int64_t>());
      CHECK(ex["name"].leaf().str() == want[i]["name"].get<std::string>());
      CHECK(ex["words"].leaf().string_values() == want[i]["words"].get<std::vector<std::string>>());
      CHECK(scalar(ex["missing"]) == 9);
      ++i;
    }
    CHECK(i == want.size());
  }
  // A batch: FixedLen stacked, VarLen padded to the longest.
  Element batch = TFRecordDataset(golden("examples.tfrecord")).batch(5).make_iterator().get_next();
  Element parsed = parse_example(batch.leaf(), {{"label", FixedLenFeature{{}, "int64"}}, {"words", VarLenFeature{.dtype = "string", .to_dense = true}}});
  CHECK(parsed["label"].leaf().tensor().to_vector<std::int64_t>() == std::vector<std::int64_t>{-2, -1, 0, 1, 2});
  CHECK(parsed["words"].leaf().shape() == Shape{5, 4});
  CHECK(parsed["words"].leaf().string_values()[4] == "w0");
  CHECK(parsed["words"].leaf().string_values()[0].empty());
  // Errors name the feature.
  Element one = TFRecordDataset(golden("examples.tfrecord")).make_iterator().get_next();
  CHECK_THROWS_WITH(parse_single_example(one.leaf().str(), {{"nope", FixedLenFeature{{}, "int64"}}}),
                    Catch::Contains("'nope' is required"));
  CHECK_THROWS_WITH(parse_single_example(one.leaf().str(), {{"label", FixedLenFeature{{}, "float32"}}}),
                    Catch::Contains("'label'"));
  CHECK_THROWS_WITH(parse_single_example(one.leaf().str(), {{"image", FixedLenFeature{{4}, "float32"}}}),
                    Catch::Contains("needs 4 values"));
  CHECK_THROWS_AS(parse_single_example(std::string("\x0a\x7f", 2), {}), IOError);
}

TEST_CASE("TFRecordDataset: a bad CRC or a truncated file is a clear error", "[data][files]") {
  std::ifstream in(golden("examples.tfrecord"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string data_flip = bytes;
  data_flip[20] ^= 0x01;  // inside the first record's data
  write_file("bad_data.tfrecord", data_flip);
  CHECK_THROWS_WITH(lines(TFRecordDataset("bad_data.tfrecord")),
                    Catch::Contains("bad data CRC") && Catch::Contains("bad_data.tfrecord") && Catch::Contains("record 0"));
  std::string len_flip = bytes;
  len_flip[0] ^= 0x01;
  write_file("bad_len.tfrecord", len_flip);
  CHECK_THROWS_WITH(lines(TFRecordDataset("bad_len.tfrecord")), Catch::Contains("bad length CRC"));
  write_file("short.tfrecord", bytes.substr(0, bytes.size() - 3));
  CHECK_THROWS_WITH(lines(TFRecordDataset("short.tfrecord")), Catch::Contains("Truncated"));
  // Found by fuzz_tfrecord: a huge length whose CRC matches once made the reader allocate it up front.
  std::string huge(8, '\0');
  huge[7] = 0x10;  // 2^60 bytes
  const std::uint32_t crc = masked_crc32c(huge.data(), 8);
  for (int i = 0; i < 4; ++i) huge.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  write_file("huge.tfrecord", huge + "only a few bytes follow");
  CHECK_THROWS_WITH(lines(TFRecordDataset("huge.tfrecord")), Catch::Contains("Truncated") && Catch::Contains("cut short"));
  for (const char* f : {"bad_data.tfrecord", "bad_len.tfrecord", "short.tfrecord", "huge.tfrecord"}) std::filesystem::remove(f);
}
