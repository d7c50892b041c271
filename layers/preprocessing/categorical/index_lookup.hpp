#pragma once
// IndexLookup: what StringLookup and IntegerLookup share, as Keras's IndexLookup is their one base. Tokens
// (strings or int64) map to contiguous indices: with output_mode "int", [mask_token] (when set) at 0, then
// num_oov_indices out-of-vocabulary indices, then the vocabulary; in the other modes the mask token is
// dropped and the OOV indices come first. output_mode "int" gives int64 indices of the input's shape;
// "one_hot", "multi_hot", "count" and "tf_idf" (count times idf_weights; the OOV slots take the mean weight
// unless the vocabulary gives the special tokens) give float32 [batch, depth], depth being the vocabulary
// size or max_tokens with pad_to_max_tokens. A token not in the vocabulary goes to an OOV index (how is
// the token type's rule: a hash for strings, floormod or a hash for integers); with num_oov_indices=0 it
// is an error. invert=true maps int64 indices back to tokens. The vocabulary is a list, a text file (one
// token a line), or learned by adapt() (most frequent first, ties by the larger token, as Keras sorts).
//
// Saving: get_config writes the vocabulary and idf_weights (what .h5 files and tf.keras read); a .keras
// archive also holds an adapted vocabulary in assets/<object path>/vocabulary.txt and the idf weights as the
// variable "idf_weights", as Keras 3 does (save_assets/load_assets; keras/saving/layer_assets.cpp visits
// every IndexLookupBase).
#include <optional>
#include <string>
#include <vector>

#include "keras/config/layer_config.hpp"
#include "keras/layer.hpp"
#include "layers/preprocessing/categorical/lookup_token.hpp"
#include "layers/preprocessing/categorical/token_counts.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers {

/// The part of a lookup layer that does not depend on its token type: its idf weights and Keras 3's assets.
class IndexLookupBase : public Layer {
 public:
  template <class Options>
  IndexLookupBase(const Options& options, const std::string& default_prefix) : Layer(options, default_prefix) {}

  /// The idf weights over every output slot (tf_idf only; empty otherwise).
  const std::vector<float>& idf_weights() const { return idf_; }
  /// Whether the vocabulary came from the arguments (Keras keeps it in the config) rather than adapt().
  bool has_input_vocabulary() const { return has_input_vocabulary_; }
  /// Keras 3's assets: the vocabulary.txt text (written when the vocabulary was adapted, none otherwise)...
  virtual std::optional<std::string> save_assets() const = 0;
  /// ...and its reading, with the idf weights of every output slot (tf_idf; Keras 3's variable "idf_weights").
  virtual void load_assets(const std::string& vocabulary_txt, const std::vector<float>& idf_weights = {}) = 0;

 protected:
  std::vector<float> idf_;
  bool has_input_vocabulary_ = false;
};

/// The lookup over tokens of type Token (std::string or std::int64_t) configured by Options, whose fields
/// are Keras's arguments (max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, vocabulary_file,
/// idf_weights, invert, output_mode, pad_to_max_tokens, sparse, salt).
template <class Token, class Options>
class IndexLookup : public IndexLookupBase {
 public:
  using Traits = preprocessing::LookupToken<Token>;
  using View = typename Traits::View;

  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  /// int64 indices (output_mode "int"), float32 encodings, or tokens with invert=true.
  DType output_dtype() const override;

  /// Learns the vocabulary (and idf weights for tf_idf) from tokens: an array of rank 1 is one token a
  /// document, of rank 2 a document per row.
  void adapt(const Tensor& data);
  /// The same over the batches of a Dataset (a batch of rank 1 is one document, as Keras's update_state).
  void adapt(const data::Dataset& dataset);
  /// Replaces the vocabulary (and idf weights, required for tf_idf).
  void set_vocabulary(const std::vector<Token>& vocabulary,
                      const std::optional<std::vector<float>>& idf_weights = std::nullopt);
  /// The vocabulary with the mask and OOV tokens in front (include_special_tokens), as Keras's.
  std::vector<Token> get_vocabulary(bool include_special_tokens = true) const;
  std::int64_t vocabulary_size() const;

  /// The index of one token: the mask (0 in int mode, -1 = dropped otherwise), its vocabulary slot, or an OOV slot.
  std::int64_t index_of(View token) const;
  /// The width of encoded outputs (the vocabulary size, or max_tokens with pad_to_max_tokens).
  std::int64_t depth() const;
  /// The vocabulary size a config records (Keras's `vocabulary_size`) for a layer whose vocabulary comes
  /// later, from the assets of a Keras 3 archive: the output width until then, and what the assets must hold.
  void expect_vocabulary_size(std::int64_t size) { expected_size_ = size; }
  /// Encodes rows of indices (-1 dropped) as one_hot/multi_hot/count/tf_idf vectors [rows, depth].
  Tensor encode_rows(const std::vector<std::vector<std::int64_t>>& rows) const;
  /// adapt()'s steps: count documents, then build the vocabulary.
  void reset_state();
  void update_state(const std::vector<View>& document);
  void finalize_state();

  std::optional<std::string> save_assets() const override;
  void load_assets(const std::string& vocabulary_txt, const std::vector<float>& idf_weights = {}) override;

  /// The options get_config writes: the current vocabulary (with the special tokens in front when idf
  /// weights go with it) and idf weights.
  Options config_options() const;

 protected:
  /// Checks Keras's argument rules and sets the given vocabulary; `label` names the class in errors.
  IndexLookup(Options options, const std::string& default_prefix, const std::string& label);
  std::string who() const;

  Options options_;

 private:
  std::int64_t oov_start() const { return options_.mask_token && options_.output_mode == "int" ? 1 : 0; }
  std::int64_t token_start() const { return oov_start() + options_.num_oov_indices; }
  std::int64_t oov_index(View token) const;
  std::vector<Token> special_tokens() const;
  void set_tokens(const std::vector<Token>& tokens);
  void set_idf(const std::vector<float>& weights, bool includes_special);
  Tensor lookup(const Tensor& tokens) const;
  Tensor invert_lookup(const Tensor& indices) const;

  std::string label_;
  std::vector<Token> tokens_;  // the vocabulary without the special tokens
  std::optional<std::int64_t> expected_size_;
  typename Traits::template Map<std::int64_t> index_;
  preprocessing::TokenCounts<Token> counts_;
};

/// Keras's config of a lookup layer (call it where the class's KERAS_FIELDS is visible): its options, the
/// vocabulary and idf weights it holds, and vocabulary_size.
template <class L>
json lookup_config(const L& layer) {
  json c = layer_config(layer, layer.config_options());
  c["vocabulary_size"] = layer.vocabulary_size();
  return c;
}

/// The lookup layer L from Keras's config: a `vocabulary` given as a path is a vocabulary file, one salt
/// number is the pair (salt, salt), and the Keras-only keys (vocabulary_size, oov_method's default) are ignored.
template <class L, class Options>
std::shared_ptr<Layer> lookup_from_config(const json& c) {
  json config = c;
  std::string file;
  if (auto it = config.find("vocabulary"); it != config.end() && it->is_string()) {
    file = it->template get<std::string>();
    config.erase(it);
  }
  if (auto it = config.find("salt"); it != config.end() && it->is_number()) *it = json::array({*it, *it});
  auto options = options_from_config<Options>(config);
  options.vocabulary_file = file;
  const bool vocabulary_later = file.empty() && !options.vocabulary;
  auto layer = std::make_shared<L>(std::move(options));
  layer->read_base_config(config);
  if (auto it = config.find("vocabulary_size"); vocabulary_later && it != config.end() && it->is_number_integer())
    layer->expect_vocabulary_size(it->template get<std::int64_t>());
  return layer;
}

}  // namespace keras::layers
