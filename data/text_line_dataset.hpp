#pragma once
// tf.data.TextLineDataset: the lines of one or more text files (plain or gzip), as scalar strings.
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace keras::data {

struct TextLineOptions {
  std::string compression_type = "";  // "" or "GZIP"
};

class TextLineDataset : public Dataset {
 public:
  /// Lines without their line ending, file after file. Skip a header with `.skip(1)` (per file:
  /// `Dataset::from_tensor_slices(files).flat_map(...)`).
  TextLineDataset(std::vector<std::string> filenames, TextLineOptions options = {});
  TextLineDataset(const std::string& filename, TextLineOptions options = {})
      : TextLineDataset(std::vector<std::string>{filename}, options) {}
};

}  // namespace keras::data
