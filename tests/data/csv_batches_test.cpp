// make_csv_dataset parses records straight into one column per batch: its batches must equal, tensor for
// tensor, what CsvDataset's records give when repeated, shuffled and batched by the generic transformations.
#include <cstring>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "data/csv_dataset.hpp"
#include "data/file_stream.hpp"

using namespace keras;
using namespace keras::data;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::ofstream(name, std::ios::binary) << text;
  return name;
}

// Same dtype, shape and values (numbers bit for bit).
void check_same(const Component& a, const Component& b, const std::string& what) {
  INFO(what);
  REQUIRE(a.dtype_name() == b.dtype_name());
  REQUIRE(a.shape() == b.shape());
  if (a.is_string()) {
    CHECK(a.string_values() == b.string_values());
  } else {
    const Tensor& x = a.tensor();
    const Tensor& y = b.tensor();
    CHECK(std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) == 0);
  }
}

// Batches of make_csv_dataset ({name: column}, label) against batches of CsvDataset tuples, whose
// component i is the column names[i].
std::size_t check_same_batches(const Dataset& batched, const Dataset& per_record, const std::vector<std::string>& names,
                               const std::string& label) {
  auto a = batched.make_iterator();
  auto b = per_record.make_iterator();
  std::size_t n = 0;
  for (;; ++n) {
    auto x = a.get_next_as_optional();
    auto y = b.get_next_as_optional();
    REQUIRE(x.has_value() == y.has_value());
    if (!x) return n;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const Element& column = names[i] == label ? (*x)[1] : (label.empty() ? *x : (*x)[0])[names[i]];
      check_same(column.leaf(), (*y)[i].leaf(), fmt::format("batch {} column {}", n, names[i]));
    }
  }
}

}  // namespace

TEST_CASE("make_csv_dataset's batched reader equals CsvDataset records repeated, shuffled and batched", "[data][files][csv]") {
  // Defaults for empty and NA fields, quoted delimiters, doubled quotes, a quoted line break, CRLF lines.
  std::string text = "id,score,name,count\r\n";
  for (int i = 0; i < 23; ++i) {
    const std::string score = i % 5 == 1 ? "" : i % 5 == 2 ? "NA" : fmt::format("{}.25", i);
    const std::string name = i % 4 == 0 ? fmt::format("\"Smith, {}\"", i) : i % 4 == 1 ? "\"say \"\"hi\"\"\""
                           : i % 4 == 2 ? fmt::format("\"multi\nline {}\"", i) : (i % 8 == 3 ? "" : "plain");
    text += fmt::format("{},{},{},{}{}", i, score, name, i % 3 == 0 ? "NA" : std::to_string(i * 1000000007LL),
                        i % 2 ? "\r\n" : "\n");
  }
  const auto f = write_file("csv_batched.csv", text);
  const std::vector<std::string> names = {"id", "score", "name", "count"};
  const std::vector<RecordDefault> defaults = {0, 0.5f, "?", std::int64_t{-1}};
  const CsvOptions csv{.header = true, .na_value = "NA"};

  // In file order: the values themselves, and the same tensors as the records batched.
  auto plain = make_csv_dataset(f, 4, {.column_defaults = defaults, .label_name = "id", .na_value = "NA", .num_epochs = 1,
                                       .shuffle = false});
  const Element first = plain.make_iterator().get_next();
  CHECK(first[1].leaf().tensor().to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 1, 2, 3});
  CHECK(first[0]["score"].leaf().tensor().to_vector<float>() == std::vector<float>{0.25f, 0.5f, 0.5f, 3.25f});
  CHECK(first[0]["name"].leaf().string_values() == std::vector<std::string>{"Smith, 0", "say \"hi\"", "multi\nline 2", "?"});
  CHECK(first[0]["count"].leaf().tensor().to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{-1, 1000000007, 2000000014, -1});
  CHECK(check_same_batches(plain, CsvDataset({f}, defaults, csv).batch(4), names, "id") == 6);
  // Another delimiter ("Smith, 0" keeps its comma), and quotes taken literally without use_quote_delim.
  std::string semicolons = text;
  for (std::size_t i = 0, quoted = 0; i < semicolons.size(); ++i) {
    if (semicolons[i] == '"') quoted ^= 1;
    else if (semicolons[i] == ',' && !quoted) semicolons[i] = ';';
  }
  write_file("csv_semicolons.csv", semicolons);
  auto semi = make_csv_dataset("csv_semicolons.csv", 4, {.column_defaults = defaults, .label_name = "id", .field_delim = ';',
                                                         .na_value = "NA", .num_epochs = 1, .shuffle = false});
  auto semi_records = CsvDataset({"csv_semicolons.csv"}, defaults, {.header = true, .field_delim = ';', .na_value = "NA"});
  CHECK(check_same_batches(semi, semi_records.batch(4), names, "id") == 6);
  CHECK(check_same_batches(semi, CsvDataset({f}, defaults, csv).batch(4), names, "id") == 6);
  write_file("csv_unquoted.csv", "a,b\n\"x,\"\"y\"\n");
  const Element literal = make_csv_dataset("csv_unquoted.csv", 2, {.column_defaults = {"", ""}, .use_quote_delim = false,
                                                                  .num_epochs = 1, .shuffle = false})
                              .make_iterator()
                              .get_next();
  CHECK(literal["a"].leaf().string_values() == std::vector<std::string>{"\"x"});
  CHECK(literal["b"].leaf().string_values() == std::vector<std::string>{"\"\"y\""});
  std::filesystem::remove("csv_semicolons.csv");
  std::filesystem::remove("csv_unquoted.csv");

  // Shuffled over 3 epochs, two passes (each pass draws a new order from the seed), a short last batch.
  auto shuffled = make_csv_dataset(f, 5, {.column_defaults = defaults, .label_name = "count", .na_value = "NA",
                                          .num_epochs = 3, .shuffle_buffer_size = 7, .shuffle_seed = 9});
  auto reference = CsvDataset({f}, defaults, csv).repeat(3).shuffle(7, {.seed = 9}).batch(5);
  CHECK(check_same_batches(shuffled, reference, names, "count") == 14);
  CHECK(check_same_batches(shuffled, reference, names, "count") == 14);

  // A batch and a shuffle buffer far larger than the file: room only for the rows read.
  const std::int64_t huge = std::int64_t{1} << 40;
  auto whole = make_csv_dataset(f, 100000, {.column_defaults = defaults, .na_value = "NA", .num_epochs = 1,
                                            .shuffle_buffer_size = huge, .shuffle_seed = 5});
  CHECK(check_same_batches(whole, CsvDataset({f}, defaults, csv).shuffle(huge, {.seed = 5}).batch(100000), names, "") == 1);

  // Selected columns, no label, repeated forever with a buffer larger than the file.
  auto picked = make_csv_dataset(f, 6, {.column_defaults = defaults, .select_columns = {"name", "count"},
                                        .na_value = "NA", .shuffle_seed = 3})
                    .take(9);
  auto picked_reference = CsvDataset({f}, {"?", std::int64_t{-1}}, {.header = true, .na_value = "NA", .select_cols = {2, 3}})
                              .repeat()
                              .shuffle(10000, {.seed = 3})
                              .batch(6)
                              .take(9);
  CHECK(check_same_batches(picked, picked_reference, {"name", "count"}, "") == 9);
  std::filesystem::remove(f);

  // Records across the reader's 64 KiB blocks, gzip-compressed too: every row once, in order.
  std::string big = "i,x,s\n";
  for (int i = 0; i < 6000; ++i) big += fmt::format("{},{}.5,\"row\n{}\"\n", i, i, i);
  write_file("csv_big.csv", big);
  {
    detail::FileSink gz("csv_big.csv.gz", "GZIP");
    gz.write(big.data(), big.size());
  }
  for (const std::string compression : {"", "GZIP"}) {
    INFO(compression);
    std::int64_t next = 0;
    for (const Element& e : make_csv_dataset(compression.empty() ? "csv_big.csv" : "csv_big.csv.gz", 256,
                                             {.num_epochs = 1, .shuffle = false, .compression_type = compression})) {
      const auto i = e["i"].leaf().tensor().to_vector<std::int32_t>();
      const auto x = e["x"].leaf().tensor().to_vector<float>();
      const auto s = e["s"].leaf().string_values();
      for (std::size_t r = 0; r < i.size(); ++r, ++next) {
        REQUIRE(i[r] == next);
        REQUIRE(x[r] == static_cast<float>(next) + 0.5f);
        REQUIRE(s[r] == fmt::format("row\n{}", next));
      }
    }
    CHECK(next == 6000);
  }
  std::filesystem::remove("csv_big.csv");
  std::filesystem::remove("csv_big.csv.gz");
}

TEST_CASE("make_csv_dataset: a field that is not a number is a ValueError naming the file and line", "[data][files][csv]") {
  // Line 4 holds the bad field (line 3 ends a quoted line break that began on line 2).
  const auto f = write_file("csv_bad.csv", "a,b,c\n1,\"two\nlines\",2.5\n5,y,x4.5\n3,x,4.5\n7,z,8.5\n");
  for (const bool shuffle : {false, true}) {
    auto ds = make_csv_dataset(f, 2, {.column_defaults = {0, "", 0.0f}, .num_epochs = 1, .shuffle = shuffle});
    CHECK_THROWS_AS([&] { for (const Element& e : ds) (void)e; }(), ValueError);
    CHECK_THROWS_WITH([&] { for (const Element& e : ds) (void)e; }(),
                      Catch::Contains("csv_bad.csv:4 column 2") && Catch::Contains("cannot parse 'x4.5' as float32"));
  }
  write_file(f, "a,b\n1,2\n3\n");
  CHECK_THROWS_WITH([&] { for (const Element& e : make_csv_dataset(f, 4, {.num_epochs = 1})) (void)e; }(),
                    Catch::Contains("csv_bad.csv:3 has 1 fields but 2 columns"));
  std::filesystem::remove(f);
}

TEST_CASE("CSV float64 columns keep double precision and other types are refused by name", "[data][files][csv]") {
  const auto f = write_file("csv_f64.csv", "x,y\n0.1,1e300\n,2\n");
  const std::vector<RecordDefault> defaults = {RecordDefault(DType::float64), RecordDefault(DType::float64)};
  auto it = CsvDataset({f}, defaults, {.header = true}).make_iterator();
  const Element row = it.get_next();
  CHECK(row[0].leaf().dtype_name() == "float64");
  CHECK(*row[0].leaf().tensor().data<double>() == 0.1);
  CHECK(*row[1].leaf().tensor().data<double>() == 1e300);
  CHECK_THROWS_WITH(it.get_next(), Catch::Contains("csv_f64.csv:3 column 0 is empty"));
  // (a double default makes a float32 column, as 0.5 does in tf)
  auto x = make_csv_dataset(f, 2, {.column_defaults = {0.5, 0.0}, .select_columns = {"x"}, .num_epochs = 1, .shuffle = false});
  CHECK(x.make_iterator().get_next()["x"].leaf().tensor().to_vector<float>() == std::vector<float>{0.1f, 0.5f});
  CHECK_THROWS_WITH(CsvDataset({f}, {RecordDefault(DType::uint8), 0}), Catch::Contains("record_defaults[0] has type uint8"));
  std::filesystem::remove(f);
}
