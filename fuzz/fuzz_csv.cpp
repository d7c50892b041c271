// Fuzzes CSV reading: CsvDataset with typed columns (float, int64, required string, defaults) and
// make_csv_dataset, which reads the header and infers column types from the data.
#include "data/csv_dataset.hpp"
#include "fuzz_input.hpp"

namespace {
constexpr int kMaxRecords = 256;  // enough to reach every code path; keeps each input fast

template <class D>
void drain(const D& dataset) {
  int n = 0;
  for (const keras::data::Element& e : dataset) {
    (void)e;
    if (++n == kMaxRecords) break;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace keras::data;
  const std::string path = keras_fuzz::as_file(data, size, ".csv");
  keras_fuzz::run([&] {
    drain(CsvDataset({path}, {0.0f, std::int64_t{0}, RecordDefault::string(), "x"}, {.header = true}));
  });
  keras_fuzz::run([&] {
    drain(CsvDataset({path}, {keras::DType::float32, 1}, {.field_delim = ';', .na_value = "NA", .select_cols = {1, 3}}));
  });
  return keras_fuzz::run([&] {
    drain(make_csv_dataset(path, 4, {.num_epochs = 1, .shuffle = false, .prefetch_buffer_size = 0}));
  });
}
