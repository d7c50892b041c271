#pragma once
// tf.data.experimental.CsvDataset and make_csv_dataset: records of CSV files as tuples of scalars.
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace keras::data {

/// The type of a CSV column and its value for empty fields: `0.0f`, `0`, `std::int64_t{0}`, `""`, or a
/// bare DType / `RecordDefault::string()` for a required column (an empty field is then an error).
class RecordDefault {
 public:
  RecordDefault(float v) : dtype_("float32"), value_(std::to_string(v)) {}            // NOLINT
  RecordDefault(double v) : RecordDefault(static_cast<float>(v)) {}                     // NOLINT
  RecordDefault(int v) : dtype_("int32"), value_(std::to_string(v)) {}                  // NOLINT
  RecordDefault(std::int64_t v) : dtype_("int64"), value_(std::to_string(v)) {}         // NOLINT
  RecordDefault(const char* v) : dtype_("string"), value_(v) {}                         // NOLINT
  RecordDefault(std::string v) : dtype_("string"), value_(std::move(v)) {}              // NOLINT
  RecordDefault(DType required) : dtype_(dtype_name(required)) {}                       // NOLINT
  static RecordDefault string() { RecordDefault d(""); d.value_.reset(); return d; }
  const std::string& dtype() const { return dtype_; }
  const std::optional<std::string>& value() const { return value_; }

 private:
  std::string dtype_;
  std::optional<std::string> value_;
};

struct CsvOptions {
  std::string compression_type = "";
  bool header = false;  // skip the first line of each file
  char field_delim = ',';
  bool use_quote_delim = true;  // double quotes enclose fields that hold delimiters ("" is a quote)
  std::string na_value = "";    // a field equal to this counts as empty
  /// Column indices to keep, ascending; record_defaults then describe only these.
  std::vector<std::int64_t> select_cols{};
};

class CsvDataset : public Dataset {
 public:
  /// One tuple of scalars per record, one per (selected) column.
  CsvDataset(std::vector<std::string> filenames, std::vector<RecordDefault> record_defaults, CsvOptions options = {});
};

struct MakeCsvOptions {
  std::vector<std::string> column_names{};  // default: the header line
  std::vector<RecordDefault> column_defaults{};  // default: inferred (int32, float32 or string) from the data
  std::string label_name = "";  // the label column; empty: features only
  std::vector<std::string> select_columns{};
  char field_delim = ',';
  bool use_quote_delim = true;
  std::string na_value = "";
  bool header = true;
  std::int64_t num_epochs = -1;  // -1: repeat forever, as tf's None
  bool shuffle = true;
  std::int64_t shuffle_buffer_size = 10000;
  std::optional<std::uint64_t> shuffle_seed{};
  std::int64_t prefetch_buffer_size = AUTOTUNE;
  std::string compression_type = "";
};

/// Batches of ({column name: values}, label) (or just the dict without label_name) from CSV files
/// matching file_pattern, as tf.data.experimental.make_csv_dataset.
Dataset make_csv_dataset(const std::string& file_pattern, std::int64_t batch_size, MakeCsvOptions options = {});

namespace detail {
/// Splits one CSV record into fields (quotes removed, "" unescaped). Throws on a stray quote.
std::vector<std::string> split_csv_record(const std::string& line, char delim, bool use_quote);
}  // namespace detail

}  // namespace keras::data
