#pragma once
// StringLookup: string tokens to contiguous indices, an IndexLookup over UTF-8 strings (index_lookup.hpp has
// the layout, output modes, adapt and saving). A token not in the vocabulary goes to an OOV index chosen by
// FarmHash Fingerprint64 of its bytes mod num_oov_indices (SipHash-2-4 with a salt), as
// tf.strings.to_hash_bucket_fast/strong. invert=true maps int64 indices back to string tokens.
#include <optional>
#include <string>
#include <vector>

#include "layers/preprocessing/categorical/index_lookup.hpp"

namespace keras::layers {

struct StringLookupOptions {
  std::optional<std::int64_t> max_tokens{};
  std::int64_t num_oov_indices = 1;
  std::optional<std::string> mask_token{};
  std::string oov_token = "[UNK]";
  /// The vocabulary tokens (with or without the special tokens in front, as get_vocabulary() gives them).
  std::optional<std::vector<std::string>> vocabulary{};
  /// Or a text file with one token a line (Keras's `vocabulary` given as a path).
  std::string vocabulary_file{};
  std::optional<std::vector<float>> idf_weights{};
  bool invert = false;
  std::string output_mode = "int";
  bool pad_to_max_tokens = false;
  bool sparse = false;
  std::string encoding = "utf-8";
  std::optional<std::vector<std::uint64_t>> salt{};
  KERAS_LAYER_OPTIONS
};

class StringLookup : public IndexLookup<std::string, StringLookupOptions> {
 public:
  explicit StringLookup(StringLookupOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);
  bool accepts_strings() const override { return true; }

  KERAS_LAYER(StringLookup)
};

}  // namespace keras::layers
