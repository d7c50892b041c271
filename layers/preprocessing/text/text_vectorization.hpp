#pragma once
// TextVectorization: a batch of strings ([batch] or [batch, 1]) to token indices or token vectors, as Keras's:
// 1. standardize: "lower_and_strip_punctuation" (default), "lower", "strip_punctuation", none, or a function;
// 2. split: "whitespace" (default), "character", none, or a function;
// 3. ngrams: widths 1..n (ngrams = n) or the listed widths, joined by " ";
// 4. the tokens go through a StringLookup with mask_token "" and one OOV index "[UNK]";
// 5. output_mode "int": int64 [batch, length], padded with 0 at the end (or cut) to output_sequence_length,
//    else to the longest row of the batch; "multi_hot", "count", "tf_idf": float32 [batch, vocabulary size]
//    (max_tokens with pad_to_max_tokens).
// adapt() learns the vocabulary (and idf weights) from strings. Lowercasing is ASCII-only, as Keras's
// tf.strings.lower call is (text_ops.hpp). Functions given for standardize/split are kept under the name
// in `standardize`/`split` in the config; loading such a config needs the same function given again.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keras/layer.hpp"
#include "layers/preprocessing/categorical/string_lookup.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers {

struct TextVectorizationOptions {
  std::optional<std::int64_t> max_tokens{};
  std::optional<std::string> standardize = "lower_and_strip_punctuation";
  std::optional<std::string> split = "whitespace";
  /// The n-gram widths (Keras's `ngrams=n` is {1, ..., n}).
  std::optional<std::vector<std::int64_t>> ngrams{};
  std::string output_mode = "int";
  std::optional<std::int64_t> output_sequence_length{};
  bool pad_to_max_tokens = false;
  std::optional<std::vector<std::string>> vocabulary{};
  std::string vocabulary_file{};
  std::optional<std::vector<float>> idf_weights{};
  bool sparse = false;
  bool ragged = false;
  std::string encoding = "utf-8";
  /// A custom standardization (then `standardize` is its name in the config).
  std::function<std::string(const std::string&)> standardize_fn{};
  /// A custom split (then `split` is its name in the config).
  std::function<std::vector<std::string>(const std::string&)> split_fn{};
  KERAS_LAYER_OPTIONS
};

class TextVectorization : public Layer {
 public:
  explicit TextVectorization(TextVectorizationOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  /// int64 indices (output_mode "int") or float32 encodings.
  bool accepts_strings() const override { return true; }
  DType output_dtype() const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  void adapt(const Tensor& data);
  void adapt(const data::Dataset& dataset);
  void set_vocabulary(const std::vector<std::string>& vocabulary,
                      const std::optional<std::vector<float>>& idf_weights = std::nullopt);
  std::vector<std::string> get_vocabulary(bool include_special_tokens = true) const;
  std::int64_t vocabulary_size() const { return lookup_.vocabulary_size(); }
  /// The lookup inside (its vocabulary, idf weights and assets).
  StringLookup& lookup_layer() { return lookup_; }
  const StringLookup& lookup_layer() const { return lookup_; }

  /// Steps 1-3 for each sample: its tokens (a sample of a [batch, 1] input is its one string).
  std::vector<std::vector<std::string>> tokenize(const Tensor& inputs) const;

 private:
  std::string standardized(const std::string& text) const;
  std::string who() const;

  TextVectorizationOptions options_;
  StringLookup lookup_;

  KERAS_LAYER(TextVectorization)
};

}  // namespace keras::layers
