#include "data/csv_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include <fmt/format.h>

namespace keras::data::detail {
namespace {

bool odd_quotes(std::string_view s) {
  bool odd = false;
  for (const char* p = s.data(); (p = static_cast<const char*>(std::memchr(p, '"', s.data() + s.size() - p))); ++p) odd = !odd;
  return odd;
}

// The whole of s (after leading spaces) as a number of type T.
template <class T>
bool parse_number(std::string_view s, T& v) {
  const char* b = s.data();
  const char* e = b + s.size();
  while (b < e && *b == ' ') ++b;
  auto r = std::from_chars(b, e, v);
  return r.ec == std::errc() && r.ptr == e;
}

bool parse_value(DType dtype, std::string_view s, unsigned char* out) {
  switch (dtype) {
    case DType::float32: {
      float v = 0;
      if (!parse_number(s, v)) return false;
      std::memcpy(out, &v, sizeof v);
      return true;
    }
    case DType::float64: {
      double v = 0;
      if (!parse_number(s, v)) return false;
      std::memcpy(out, &v, sizeof v);
      return true;
    }
    case DType::int32: {
      std::int64_t v = 0;
      if (!parse_number(s, v) || v < INT32_MIN || v > INT32_MAX) return false;
      const auto v32 = static_cast<std::int32_t>(v);
      std::memcpy(out, &v32, sizeof v32);
      return true;
    }
    case DType::int64: {
      std::int64_t v = 0;
      if (!parse_number(s, v)) return false;
      std::memcpy(out, &v, sizeof v);
      return true;
    }
    default: return false;
  }
}

}  // namespace

void check_csv_arguments(const char* source, const std::vector<std::string>& files,
                         const std::vector<RecordDefault>& defaults, const CsvOptions& o) {
  check_compression_type(o.compression_type);
  if (files.empty()) throw ValueError(fmt::format("{} needs at least one file name", source));
  if (defaults.empty()) throw ValueError(fmt::format("{} needs record_defaults (one per column)", source));
  if (!o.select_cols.empty() && o.select_cols.size() != defaults.size())
    throw ValueError(fmt::format("{}: {} select_cols but {} record_defaults; give one default per selected column",
                                 source, o.select_cols.size(), defaults.size()));
  for (std::size_t i = 1; i < o.select_cols.size(); ++i)
    if (o.select_cols[i] <= o.select_cols[i - 1]) throw ValueError(fmt::format("{}: select_cols must be strictly ascending", source));
  for (std::size_t k = 0; k < defaults.size(); ++k) {
    const std::string& t = defaults[k].dtype();
    if (t != "float32" && t != "float64" && t != "int32" && t != "int64" && t != "string")
      throw ValueError(fmt::format("{}: record_defaults[{}] has type {}; CSV columns are float32, float64, int32, int64 "
                                   "or string", source, k, t));
  }
}

// ---- CsvRecordReader ----

CsvRecordReader::CsvRecordReader(const std::string& path, const CsvOptions& o)
    : in_(path, o.compression_type), use_quote_(o.use_quote_delim), block_(1 << 16) {
  if (o.header && append_line()) ++line_;
}

// Appends the next line (without "\n" or "\r\n") to record_; false when the file had no more bytes.
bool CsvRecordReader::append_line() {
  const std::size_t start = record_.size();
  bool any = false;
  for (;;) {
    if (pos_ == end_) {
      if (eof_) break;
      end_ = in_.read(block_.data(), block_.size());
      pos_ = 0;
      if (end_ < block_.size()) eof_ = true;
      if (end_ == 0) break;
    }
    any = true;
    const char* b = block_.data() + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(b, '\n', end_ - pos_));
    if (nl) {
      record_.append(b, nl);
      pos_ = static_cast<std::size_t>(nl - block_.data()) + 1;
      break;
    }
    record_.append(b, end_ - pos_);
    pos_ = end_;
  }
  if (record_.size() > start && record_.back() == '\r') record_.pop_back();
  return any;
}

bool CsvRecordReader::next(std::string_view& record) {
  for (;;) {
    record_.clear();
    if (!append_line()) return false;
    ++line_;
    bool open = use_quote_ && odd_quotes(record_);
    while (open) {  // a quoted field holds a line break: the record goes on
      const std::size_t joint = record_.size();
      record_.push_back('\n');
      if (!append_line()) {
        record_.pop_back();
        break;
      }
      ++line_;
      open = odd_quotes(std::string_view(record_).substr(joint)) ? !open : open;
    }
    if (record_.empty()) continue;
    record = record_;
    return true;
  }
}

std::string CsvRecordReader::where() const { return fmt::format("{}:{}", in_.path(), line_); }

// ---- CsvFieldSplitter ----

const std::vector<std::string_view>& CsvFieldSplitter::split(std::string_view line, char delim, bool use_quote) {
  fields_.clear();
  unescaped_.clear();
  unescaped_.reserve(line.size());
  const std::size_t n = line.size();
  std::size_t i = 0;
  for (;;) {
    std::string_view field;
    if (use_quote && i < n && line[i] == '"') {
      const std::size_t start = ++i;
      std::size_t escaped_at = std::string::npos;  // where in unescaped_ this field starts, once it has a ""
      for (;;) {
        if (i >= n) throw ValueError("CSV: a quoted field is not closed in record: " + std::string(line));
        if (line[i] == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            if (escaped_at == std::string::npos) {
              escaped_at = unescaped_.size();
              unescaped_.append(line.substr(start, i - start));
            }
            unescaped_.push_back('"');
            i += 2;
            continue;
          }
          break;
        }
        if (escaped_at != std::string::npos) unescaped_.push_back(line[i]);
        ++i;
      }
      field = escaped_at == std::string::npos ? line.substr(start, i - start)
                                              : std::string_view(unescaped_).substr(escaped_at);
      ++i;  // the closing quote
      if (i < n && line[i] != delim)
        throw ValueError("CSV: a quoted field must be followed by the delimiter or the end of the record: " + std::string(line));
    } else {
      const std::size_t start = i;
      const auto* d = static_cast<const char*>(std::memchr(line.data() + i, delim, n - i));
      i = d ? static_cast<std::size_t>(d - line.data()) : n;
      field = line.substr(start, i - start);
    }
    fields_.push_back(field);
    if (i >= n) break;
    ++i;  // the delimiter
  }
  return fields_;
}

// ---- CsvColumns ----

CsvColumns::CsvColumns(const std::vector<RecordDefault>& defaults, const CsvOptions& o, std::size_t rows) : options_(o) {
  for (std::size_t k = 0; k < defaults.size(); ++k) {
    Column c;
    c.dtype = dtype_from_name(defaults[k].dtype());
    c.field = o.select_cols.empty() ? k : static_cast<std::size_t>(o.select_cols[k]);
    c.item = c.dtype == DType::string ? 0 : dtype_size(c.dtype);
    c.default_text = defaults[k].value();
    if (c.default_text && c.dtype != DType::string) c.default_parses = parse_value(c.dtype, *c.default_text, c.default_value);
    columns_.push_back(std::move(c));
  }
  if (rows > 0) make_room(rows - 1, rows);
}

void CsvColumns::make_room(std::size_t row, std::size_t limit) {
  if (row < rows_) return;
  rows_ = std::min(std::max({row + 1, 2 * rows_, std::size_t{64}}), std::max(limit, row + 1));
  for (Column& c : columns_) {
    if (c.dtype == DType::string) c.strings.resize(rows_);
    else c.values.resize(rows_ * c.item);
  }
}

void CsvColumns::parse(std::string_view record, std::size_t row, const CsvRecordReader& reader) {
  const auto& fields = splitter_.split(record, options_.field_delim, options_.use_quote_delim);
  const std::string& na = options_.na_value;
  for (Column& c : columns_) {
    if (c.field >= fields.size() || (options_.select_cols.empty() && fields.size() != columns_.size()))
      throw ValueError(fmt::format("CSV: {} has {} fields but {} columns were expected", reader.where(), fields.size(),
                                   options_.select_cols.empty() ? columns_.size() : c.field + 1));
    std::string_view s = fields[c.field];
    const bool empty = s.empty() || (!na.empty() && s == na);
    if (empty) {
      if (!c.default_text)
        throw ValueError(fmt::format("CSV: {} column {} is empty and the column has no default (it is required)",
                                     reader.where(), c.field));
      if (c.dtype == DType::string) {
        c.strings[row] = *c.default_text;
        continue;
      }
      if (c.default_parses) {
        std::memcpy(c.values.data() + row * c.item, c.default_value, c.item);
        continue;
      }
      s = *c.default_text;  // fails below, naming the default
    }
    if (c.dtype == DType::string) c.strings[row].assign(s);
    else if (!parse_value(c.dtype, s, c.values.data() + row * c.item))
      throw ValueError(fmt::format("CSV: {} column {}: cannot parse '{}' as {}", reader.where(), c.field, s, dtype_name(c.dtype)));
  }
}

void CsvColumns::move_row(std::size_t from, CsvColumns& to, std::size_t row) {
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    Column& a = columns_[k];
    Column& b = to.columns_[k];
    if (a.dtype == DType::string) std::swap(b.strings[row], a.strings[from]);
    else std::memcpy(b.values.data() + row * b.item, a.values.data() + from * a.item, a.item);
  }
}

std::vector<Element> CsvColumns::batch(std::size_t n) {
  std::vector<Element> out;
  out.reserve(columns_.size());
  for (Column& c : columns_) {
    Tensor t = Tensor::empty({static_cast<std::int64_t>(n)}, c.dtype);
    if (c.dtype == DType::string)
      std::swap_ranges(c.strings.begin(), c.strings.begin() + static_cast<std::ptrdiff_t>(n), t.data<std::string>());
    else std::memcpy(t.raw_data(), c.values.data(), n * c.item);
    out.emplace_back(std::move(t));
  }
  return out;
}

std::vector<Element> CsvColumns::scalars() {
  std::vector<Element> out;
  out.reserve(columns_.size());
  for (Column& c : columns_) {
    Tensor t = Tensor::empty({}, c.dtype);
    if (c.dtype == DType::string) std::swap(*t.data<std::string>(), c.strings[0]);
    else std::memcpy(t.raw_data(), c.values.data(), c.item);
    out.emplace_back(std::move(t));
  }
  return out;
}

std::vector<ElementSpec> CsvColumns::specs(bool batched) const {
  std::vector<ElementSpec> out;
  for (const Column& c : columns_) out.emplace_back(TensorSpec{batched ? Shape{-1} : Shape{}, dtype_name(c.dtype)});
  return out;
}

}  // namespace keras::data::detail
