#pragma once
// StringLookup: string tokens to contiguous indices, laid out as Keras's IndexLookup: with output_mode "int",
// [mask_token] (when set) at 0, then num_oov_indices out-of-vocabulary indices, then the vocabulary; in the
// other modes the mask token is dropped and the OOV indices come first. A token not in the vocabulary goes
// to an OOV index chosen by FarmHash Fingerprint64 of its bytes mod num_oov_indices (SipHash-2-4 with a
// salt), as tf.strings.to_hash_bucket_fast/strong. output_mode "int" (int64, the input's shape),
// "one_hot", "multi_hot", "count" or "tf_idf" (count times idf_weights; the OOV slots take the mean weight
// unless the vocabulary gives the special tokens). invert=true maps int64 indices back to string tokens.
// The vocabulary is a list, a text file (one token a line), or learned by adapt() (most frequent first,
// ties by the larger token bytes, as Keras sorts them).
//
// Saving: get_config writes the vocabulary and idf_weights (what .h5 files and tf.keras read); a .keras
// archive writes an adapted vocabulary to assets/<object path>/vocabulary.txt and the idf weights as the
// variable "idf_weights", as Keras 3 does (save_assets/load_assets).
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "keras/layer.hpp"
#include "layers/preprocessing/categorical/token_counts.hpp"

namespace keras::data {
class Dataset;
}

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

class StringLookup : public Layer {
 public:
  explicit StringLookup(StringLookupOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  /// int64 indices (output_mode "int"), float32 encodings, or strings with invert=true.
  DType output_dtype() const;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// Learns the vocabulary (and idf weights for tf_idf) from string tokens; each row is a document.
  void adapt(const Tensor& data);
  void adapt(const data::Dataset& dataset);
  /// Replaces the vocabulary (and idf weights, required for tf_idf).
  void set_vocabulary(const std::vector<std::string>& vocabulary,
                      const std::optional<std::vector<float>>& idf_weights = std::nullopt);
  /// The vocabulary with the mask and OOV tokens in front (include_special_tokens), as Keras's.
  std::vector<std::string> get_vocabulary(bool include_special_tokens = true) const;
  std::int64_t vocabulary_size() const;
  /// The idf weights over every output slot (tf_idf only; empty otherwise).
  const std::vector<float>& idf_weights() const { return idf_; }
  /// Whether the vocabulary came from the arguments (Keras keeps it in the config) rather than adapt().
  bool has_input_vocabulary() const { return has_input_vocabulary_; }

  // The pieces TextVectorization shares.
  /// The index of one token: the mask (0 in int mode, -1 = dropped otherwise), its vocabulary slot, or an OOV slot.
  std::int64_t index_of(std::string_view token) const;
  /// The width of encoded outputs (the vocabulary size, or max_tokens with pad_to_max_tokens).
  std::int64_t depth() const;
  /// Encodes rows of indices (-1 dropped) as multi_hot/count/tf_idf vectors [rows, depth].
  Tensor encode_rows(const std::vector<std::vector<std::int64_t>>& rows) const;
  /// adapt()'s steps: count documents, then build the vocabulary.
  void reset_state();
  void update_state(const std::vector<std::string_view>& document);
  void finalize_state();
  /// Keras 3's assets: the vocabulary.txt text (written when the vocabulary was adapted) and its reading,
  /// with the idf weights of every output slot (tf_idf; Keras 3's variable "idf_weights").
  std::optional<std::string> save_assets() const;
  void load_assets(const std::string& vocabulary_txt, const std::vector<float>& idf_weights = {});

 private:
  std::int64_t oov_start() const { return options_.mask_token && options_.output_mode == "int" ? 1 : 0; }
  std::int64_t token_start() const { return oov_start() + options_.num_oov_indices; }
  std::vector<std::string> special_tokens() const;
  void set_tokens(const std::vector<std::string>& tokens);
  void set_idf(const std::vector<float>& weights, bool includes_special);
  Tensor lookup(const Tensor& tokens) const;
  Tensor invert_lookup(const Tensor& indices) const;
  std::string who() const;

  StringLookupOptions options_;
  std::vector<std::string> tokens_;  // the vocabulary without the special tokens
  preprocessing::StringMap<std::int64_t> index_;
  std::vector<float> idf_;
  bool has_input_vocabulary_ = false;
  preprocessing::TokenCounts counts_;

  KERAS_LAYER(StringLookup)
};

}  // namespace keras::layers
