#include "callbacks/csv_logger.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "callbacks/monitor.hpp"
#include "keras/model.hpp"

namespace keras::callbacks {

CSVLogger::CSVLogger(std::string filename, CSVLoggerOptions options) : filename_(std::move(filename)), o_(std::move(options)) {
  if (filename_.empty()) throw ValueError("CSVLogger needs a file name");
  if (o_.separator.empty()) throw ValueError("CSVLogger's separator must not be empty");
}

void CSVLogger::on_train_begin(Logs&) {
  write_header_ = true;
  keys_.clear();
  if (o_.append) {
    std::ifstream in(filename_);
    std::string first;
    if (in && std::getline(in, first) && !first.empty()) write_header_ = false;
  }
  const auto dir = std::filesystem::path(filename_).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  std::FILE* f = std::fopen(filename_.c_str(), o_.append ? "a" : "w");
  if (!f) throw IOError("CSVLogger cannot open '" + filename_ + "' for writing: " + std::strerror(errno));
  file_.reset(f, [](std::FILE* p) { std::fclose(p); });
}

// Quotes a field as Python's csv module does (excel dialect): when it holds the separator, a quote or a newline.
void CSVLogger::write_row(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (i) line += o_.separator;
    if (f.find(o_.separator) != std::string::npos || f.find_first_of("\"\r\n") != std::string::npos) {
      line += '"';
      for (char c : f) line += c == '"' ? std::string("\"\"") : std::string(1, c);
      line += '"';
    } else {
      line += f;
    }
  }
  line += "\r\n";  // Python's csv writer ends rows with \r\n
  if (std::fwrite(line.data(), 1, line.size(), file_.get()) != line.size() || std::fflush(file_.get()) != 0)
    throw IOError("CSVLogger could not write to '" + filename_ + "': " + std::strerror(errno));
}

void CSVLogger::on_epoch_end(int epoch, Logs& logs) {
  if (!file_) on_train_begin(logs);  // used outside fit(): open on first use
  if (keys_.empty()) {
    for (const auto& [k, v] : logs) keys_.push_back(k);
    std::sort(keys_.begin(), keys_.end());
    if (write_header_) {
      std::vector<std::string> header{"epoch"};
      header.insert(header.end(), keys_.begin(), keys_.end());
      write_row(header);
    }
  }
  std::vector<std::string> row{std::to_string(epoch)};
  for (const auto& k : keys_) row.push_back(logs.contains(k) ? python_float(logs.at(k)) : "NA");
  write_row(row);
}

void CSVLogger::on_train_end(Logs&) { file_.reset(); }

}  // namespace keras::callbacks
