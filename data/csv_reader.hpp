#pragma once
// What CsvDataset (one record at a time) and make_csv_dataset (a batch of records at a time) share: the
// records of a file, read in blocks; fields split without allocating; and typed columns that records are
// parsed into (numbers with std::from_chars, std::string only in string columns).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/csv_dataset.hpp"
#include "data/file_stream.hpp"

namespace keras::data::detail {

/// Checks the arguments of a CSV source (files, one default per (selected) column, select_cols ascending).
void check_csv_arguments(const char* source, const std::vector<std::string>& files,
                         const std::vector<RecordDefault>& defaults, const CsvOptions& options);

/// The records of one CSV file: its non-empty lines ("\n" or "\r\n"), a line continuing on the next while
/// a quoted field is open (joined with "\n"); the header line skipped when there is one.
class CsvRecordReader {
 public:
  CsvRecordReader(const std::string& path, const CsvOptions& options);
  /// The next record (a view valid until the next call); false at the end of the file.
  bool next(std::string_view& record);
  /// "file:line" of the last record (its last line), for error messages.
  std::string where() const;

 private:
  FileStream in_;
  bool use_quote_;
  std::vector<char> block_;
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::int64_t line_ = 0;
  std::string record_;
  bool append_line();
};

/// Splits records into fields: quotes removed, "" unescaped. The views stay valid until the next split.
class CsvFieldSplitter {
 public:
  /// Throws a ValueError naming the record for a quoted field that is not closed or is followed by text.
  const std::vector<std::string_view>& split(std::string_view record, char delim, bool use_quote);

 private:
  std::vector<std::string_view> fields_;
  std::string unescaped_;  // the quoted fields that held "" (reserved to the record's size: never moves)
};

/// `rows` rows of typed columns, one per record default, that records are parsed into.
class CsvColumns {
 public:
  /// Room for `rows` rows to begin with (make_room adds more).
  CsvColumns(const std::vector<RecordDefault>& defaults, const CsvOptions& options, std::size_t rows);
  /// Makes room for row `row` (growing geometrically, to `limit` rows at most).
  void make_room(std::size_t row, std::size_t limit);
  /// Parses a record into row `row`; errors name reader.where() and the column.
  void parse(std::string_view record, std::size_t row, const CsvRecordReader& reader);
  /// Moves row `from` into row `row` of `to` (columns of the same types).
  void move_row(std::size_t from, CsvColumns& to, std::size_t row);
  /// Rows [0, n) as one Tensor of shape [n] per column.
  std::vector<Element> batch(std::size_t n);
  /// Row 0 as one scalar per column.
  std::vector<Element> scalars();
  /// One spec per column: shape [-1] (batched) or ().
  std::vector<ElementSpec> specs(bool batched) const;

 private:
  struct Column {
    DType dtype;
    std::size_t field;           // its index among the record's fields
    std::size_t item;            // bytes per value (numeric)
    std::vector<unsigned char> values;  // numeric: rows * item bytes
    std::vector<std::string> strings;   // string columns
    std::optional<std::string> default_text;
    bool default_parses = false;
    unsigned char default_value[8] = {};
  };
  std::vector<Column> columns_;
  std::size_t rows_ = 0;
  CsvOptions options_;
  CsvFieldSplitter splitter_;
};

struct CsvBatchOptions {
  std::int64_t batch_size = 1;
  std::int64_t num_epochs = 1;  // -1: forever
  bool shuffle = false;
  std::int64_t shuffle_buffer_size = 1;
  std::optional<std::uint64_t> shuffle_seed{};
};

/// Batches (tuples of one [n] tensor per column) of what CsvDataset(files, defaults, options)
/// .repeat(num_epochs).shuffle(buffer, seed).batch(batch_size) yields, element for element, with records
/// parsed straight into the batch's columns (make_csv_dataset's reader).
Dataset csv_batches(std::vector<std::string> files, std::vector<RecordDefault> defaults, CsvOptions options,
                    CsvBatchOptions batching);

}  // namespace keras::data::detail
