#include "data/csv_dataset.hpp"

#include <charconv>
#include <glob.h>

#include <fmt/format.h>

#include "data/auto_shard.hpp"
#include "data/file_stream.hpp"

namespace keras::data {
namespace detail {

bool csv_quote_open(const std::string& text, bool use_quote) {
  if (!use_quote) return false;
  bool open = false;
  for (char c : text)
    if (c == '"') open = !open;
  return open;
}

std::vector<std::string> split_csv_record(const std::string& line, char delim, bool use_quote) {
  std::vector<std::string> fields;
  std::string cur;
  std::size_t i = 0;
  for (;;) {
    cur.clear();
    if (use_quote && i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) throw ValueError("CSV: a quoted field is not closed in record: " + line);
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            cur.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        cur.push_back(line[i++]);
      }
      if (i < line.size() && line[i] != delim)
        throw ValueError("CSV: a quoted field must be followed by the delimiter or the end of the record: " + line);
    } else {
      while (i < line.size() && line[i] != delim) cur.push_back(line[i++]);
    }
    fields.push_back(cur);
    if (i >= line.size()) break;
    ++i;  // the delimiter
  }
  return fields;
}

}  // namespace detail

namespace {

Component parse_field(const std::string& field, const RecordDefault& d, const std::string& na, const std::string& where) {
  const bool empty = field.empty() || (!na.empty() && field == na);
  if (empty && !d.value()) throw ValueError("CSV: " + where + " is empty and the column has no default (it is required)");
  const std::string& s = empty ? *d.value() : field;
  if (d.dtype() == "string") return Component(s);
  auto bad = [&] { return ValueError("CSV: " + where + ": cannot parse '" + s + "' as " + d.dtype()); };
  const char* b = s.data();
  const char* e = s.data() + s.size();
  while (b < e && *b == ' ') ++b;
  if (d.dtype() == "float32") {
    float v = 0;
    auto r = std::from_chars(b, e, v);
    if (r.ec != std::errc() || r.ptr != e) throw bad();
    return Tensor::full({}, v);
  }
  std::int64_t v = 0;
  auto r = std::from_chars(b, e, v);
  if (r.ec != std::errc() || r.ptr != e) throw bad();
  if (d.dtype() == "int32") {
    if (v < INT32_MIN || v > INT32_MAX) throw bad();
    return Tensor::full({}, double(v), DType::int32);
  }
  if (d.dtype() != "int64") throw ValueError("CSV: unsupported column type " + d.dtype());
  Tensor t = Tensor::empty({}, DType::int64);
  *t.data<std::int64_t>() = v;
  return t;
}

class CsvNode : public DatasetNode {
 public:
  CsvNode(std::vector<std::string> files, std::vector<RecordDefault> defaults, CsvOptions o)
      : files_(std::move(files)), defaults_(std::move(defaults)), o_(std::move(o)) {
    detail::check_compression_type(o_.compression_type);
    if (files_.empty()) throw ValueError("CsvDataset needs at least one file name");
    if (defaults_.empty()) throw ValueError("CsvDataset needs record_defaults (one per column)");
    if (!o_.select_cols.empty() && o_.select_cols.size() != defaults_.size())
      throw ValueError(fmt::format("CsvDataset: {} select_cols but {} record_defaults; give one default per selected column",
                                   o_.select_cols.size(), defaults_.size()));
    for (std::size_t i = 1; i < o_.select_cols.size(); ++i)
      if (o_.select_cols[i] <= o_.select_cols[i - 1]) throw ValueError("CsvDataset: select_cols must be strictly ascending");
  }
  ElementSpec element_spec() const override {
    std::vector<ElementSpec> cols;
    for (const auto& d : defaults_) cols.push_back(TensorSpec{{}, d.dtype()});
    return ElementSpec::tuple(cols);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::vector<std::string> files;  // this replica's (data/auto_shard.hpp)
      const CsvNode* n;
      std::size_t file = 0;
      std::int64_t line_no = 0;
      std::unique_ptr<detail::FileStream> in;
      const char* kind() const override { return "CsvDataset"; }
      std::optional<Element> next() override {
        std::string line;
        while (file < files.size()) {
          if (!in) {
            in = std::make_unique<detail::FileStream>(files[file], n->o_.compression_type);
            line_no = 0;
            if (n->o_.header && in->getline(line)) ++line_no;
          }
          if (in->getline(line)) {
            ++line_no;
            std::string more;
            while (detail::csv_quote_open(line, n->o_.use_quote_delim) && in->getline(more)) {
              ++line_no;
              line += "\n" + more;
            }
            if (line.empty()) continue;
            return n->parse(line, fmt::format("{}:{}", files[file], line_no));
          }
          in.reset();
          ++file;
        }
        return std::nullopt;
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    it->files = files_of_this_replica(files_, "CsvDataset");
    return it;
  }

 private:
  std::vector<std::string> files_;
  std::vector<RecordDefault> defaults_;
  CsvOptions o_;

  Element parse(const std::string& line, const std::string& where) const {
    const auto fields = detail::split_csv_record(line, o_.field_delim, o_.use_quote_delim);
    std::vector<Element> out;
    for (std::size_t k = 0; k < defaults_.size(); ++k) {
      const std::size_t col = o_.select_cols.empty() ? k : static_cast<std::size_t>(o_.select_cols[k]);
      if (col >= fields.size() || (o_.select_cols.empty() && fields.size() != defaults_.size()))
        throw ValueError(fmt::format("CSV: {} has {} fields but {} columns were expected", where, fields.size(),
                                     o_.select_cols.empty() ? defaults_.size() : col + 1));
      out.push_back(parse_field(fields[col], defaults_[k], o_.na_value, fmt::format("{} column {}", where, col)));
    }
    return Element::tuple(std::move(out));
  }
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

// tf infers int32, then float32, then string from the values seen in the first rows.
std::vector<RecordDefault> infer_defaults(const std::string& file, const MakeCsvOptions& o, std::size_t columns) {
  std::vector<int> level(columns, 0);  // 0 int32, 1 float32, 2 string
  detail::FileStream in(file, o.compression_type);
  std::string line;
  if (o.header) in.getline(line);
  for (int row = 0; row < 100 && in.getline(line); ++row) {
    const auto fields = detail::split_csv_record(line, o.field_delim, o.use_quote_delim);
    for (std::size_t c = 0; c < columns && c < fields.size(); ++c) {
      const std::string& f = fields[c];
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
  Dataset ds = CsvDataset(files, kept, {.compression_type = o.compression_type, .header = o.header,
                                        .field_delim = o.field_delim, .use_quote_delim = o.use_quote_delim,
                                        .na_value = o.na_value, .select_cols = cols});
  const std::string label = o.label_name;
  ds = ds.map([kept_names, label](const Element& e) {
    std::vector<std::pair<std::string, Element>> features;
    std::optional<Element> y;
    for (std::size_t i = 0; i < kept_names.size(); ++i) {
      if (kept_names[i] == label) y = e[i];
      else features.emplace_back(kept_names[i], e[i]);
    }
    Element dict = Element::dict(std::move(features));
    return y ? Element::tuple({dict, *y}) : dict;
  });
  if (o.num_epochs != 1) ds = ds.repeat(o.num_epochs);
  if (o.shuffle) ds = ds.shuffle(o.shuffle_buffer_size, {.seed = o.shuffle_seed});
  return ds.batch(batch_size).prefetch(o.prefetch_buffer_size);
}

}  // namespace keras::data
