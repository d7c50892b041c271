#include "data/csv_dataset.hpp"

#include <charconv>
#include <glob.h>

#include <fmt/format.h>

#include "data/auto_shard.hpp"
#include "data/csv_reader.hpp"
#include "data/file_stream.hpp"

namespace keras::data {
namespace detail {

std::vector<std::string> split_csv_record(const std::string& line, char delim, bool use_quote) {
  CsvFieldSplitter splitter;
  const auto& fields = splitter.split(line, delim, use_quote);
  return {fields.begin(), fields.end()};
}

}  // namespace detail

namespace {

class CsvNode : public DatasetNode {
 public:
  CsvNode(std::vector<std::string> files, std::vector<RecordDefault> defaults, CsvOptions o)
      : files_(std::move(files)), defaults_(std::move(defaults)), o_(std::move(o)) {
    detail::check_csv_arguments("CsvDataset", files_, defaults_, o_);
  }
  ElementSpec element_spec() const override {
    return ElementSpec::tuple(detail::CsvColumns(defaults_, o_, 0).specs(false));
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const CsvNode* n;
      std::vector<std::string> files;  // this replica's (data/auto_shard.hpp)
      std::size_t file = 0;
      std::unique_ptr<detail::CsvRecordReader> in;
      detail::CsvColumns row;
      explicit It(const CsvNode* node)
          : n(node), files(files_of_this_replica(node->files_, "CsvDataset")), row(node->defaults_, node->o_, 1) {}
      const char* kind() const override { return "CsvDataset"; }
      std::optional<Element> next() override {
        std::string_view record;
        while (file < files.size()) {
          if (!in) in = std::make_unique<detail::CsvRecordReader>(files[file], n->o_);
          if (in->next(record)) {
            row.parse(record, 0, *in);
            return Element::tuple(row.scalars());
          }
          in.reset();
          ++file;
        }
        return std::nullopt;
      }
    };
    return std::make_unique<It>(this);
  }

 private:
  std::vector<std::string> files_;
  std::vector<RecordDefault> defaults_;
  CsvOptions o_;
};

std::vector<std::string> glob_files(const std::string& pattern) {
  glob_t g{};
  std::vector<std::string> files;
  if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) files.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (files.empty()) throw IOError("make_csv_dataset: no files match '" + pattern + "'");
  return files;
}

// tf infers int32, then float32, then string from the values seen in the first records.
std::vector<RecordDefault> infer_defaults(const std::string& file, const MakeCsvOptions& o, std::size_t columns) {
  std::vector<int> level(columns, 0);  // 0 int32, 1 float32, 2 string
  detail::CsvRecordReader in(file, {.compression_type = o.compression_type, .header = o.header,
                                    .use_quote_delim = o.use_quote_delim});
  detail::CsvFieldSplitter splitter;
  std::string_view record;
  for (int row = 0; row < 100 && in.next(record); ++row) {
    const auto& fields = splitter.split(record, o.field_delim, o.use_quote_delim);
    for (std::size_t c = 0; c < columns && c < fields.size(); ++c) {
      const std::string_view f = fields[c];
      if (f.empty() || f == o.na_value) continue;
      std::int64_t i = 0;
      float x = 0;
      const char* e = f.data() + f.size();
      auto ri = std::from_chars(f.data(), e, i);
      if (ri.ec == std::errc() && ri.ptr == e && i >= INT32_MIN && i <= INT32_MAX) continue;
      auto rf = std::from_chars(f.data(), e, x);
      level[c] = std::max(level[c], (rf.ec == std::errc() && rf.ptr == e) ? 1 : 2);
    }
  }
  std::vector<RecordDefault> d;
  for (int l : level) d.push_back(l == 0 ? RecordDefault(0) : l == 1 ? RecordDefault(0.0f) : RecordDefault(""));
  return d;
}

}  // namespace

CsvDataset::CsvDataset(std::vector<std::string> filenames, std::vector<RecordDefault> record_defaults, CsvOptions options)
    : Dataset(std::make_shared<CsvNode>(std::move(filenames), std::move(record_defaults), std::move(options))) {}

Dataset make_csv_dataset(const std::string& file_pattern, std::int64_t batch_size, MakeCsvOptions o) {
  const auto files = glob_files(file_pattern);
  std::vector<std::string> names = o.column_names;
  if (names.empty()) {
    if (!o.header) throw ValueError("make_csv_dataset: give column_names when the files have no header");
    detail::FileStream in(files[0], o.compression_type);
    std::string line;
    if (!in.getline(line)) throw IOError("make_csv_dataset: '" + files[0] + "' is empty; it has no header line");
    names = detail::split_csv_record(line, o.field_delim, o.use_quote_delim);
  }
  std::vector<RecordDefault> defaults = o.column_defaults.empty() ? infer_defaults(files[0], o, names.size()) : o.column_defaults;
  if (defaults.size() != names.size())
    throw ValueError(fmt::format("make_csv_dataset: {} column_defaults for {} columns", defaults.size(), names.size()));
  std::vector<std::int64_t> cols;
  std::vector<RecordDefault> kept;
  std::vector<std::string> kept_names;
  for (std::size_t c = 0; c < names.size(); ++c) {
    const bool keep = o.select_columns.empty() || std::find(o.select_columns.begin(), o.select_columns.end(), names[c]) !=
                                                       o.select_columns.end() || names[c] == o.label_name;
    if (!keep) continue;
    cols.push_back(static_cast<std::int64_t>(c));
    kept.push_back(defaults[c]);
    kept_names.push_back(names[c]);
  }
  if (!o.label_name.empty() && std::find(kept_names.begin(), kept_names.end(), o.label_name) == kept_names.end())
    throw ValueError("make_csv_dataset: label_name '" + o.label_name + "' is not one of the columns");
  const std::string label = o.label_name;
  Dataset ds = detail::csv_batches(files, kept,
                                   {.compression_type = o.compression_type, .header = o.header, .field_delim = o.field_delim,
                                    .use_quote_delim = o.use_quote_delim, .na_value = o.na_value, .select_cols = cols},
                                   {.batch_size = batch_size, .num_epochs = o.num_epochs, .shuffle = o.shuffle,
                                    .shuffle_buffer_size = o.shuffle_buffer_size, .shuffle_seed = o.shuffle_seed});
  ds = ds.map([kept_names, label](const Element& e) {  // (column, ...) -> ({name: column}, label)
    std::vector<std::pair<std::string, Element>> features;
    std::optional<Element> y;
    for (std::size_t i = 0; i < kept_names.size(); ++i) {
      if (kept_names[i] == label) y = e[i];
      else features.emplace_back(kept_names[i], e[i]);
    }
    Element dict = Element::dict(std::move(features));
    return y ? Element::tuple({dict, *y}) : dict;
  });
  return ds.prefetch(o.prefetch_buffer_size);
}

}  // namespace keras::data
