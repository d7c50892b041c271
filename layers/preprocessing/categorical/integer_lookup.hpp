#pragma once
// IntegerLookup: integer tokens to contiguous indices, as tf.keras 2.x lays them out: [mask_token] (when
// set), then num_oov_indices out-of-vocabulary indices (a token not in the vocabulary goes to
// oov_start + token mod num_oov_indices), then the vocabulary in order. invert maps indices back to tokens.
// output_mode "int" gives the indices (int64); "one_hot", "multi_hot" and "count" encode them over the
// vocabulary size (or max_tokens with pad_to_max_tokens). adapt() learns the vocabulary from data, most
// frequent first, ties broken by the larger token first (Keras's lexsort). The vocabulary is written in the
// config, which Keras reads back.
#include <optional>
#include <unordered_map>
#include <vector>

#include "keras/layer.hpp"

namespace keras::data {
class Dataset;
}

namespace keras::layers {

struct IntegerLookupOptions {
  std::optional<std::int64_t> max_tokens{};
  std::int64_t num_oov_indices = 1;
  std::optional<std::int64_t> mask_token{};
  std::int64_t oov_token = -1;
  std::optional<std::vector<std::int64_t>> vocabulary{};
  std::string vocabulary_dtype = "int64";
  bool invert = false;
  std::string output_mode = "int";
  bool sparse = false;
  bool pad_to_max_tokens = false;
  KERAS_LAYER_OPTIONS
};

class IntegerLookup : public Layer {
 public:
  explicit IntegerLookup(IntegerLookupOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  /// Learns the vocabulary from `data` (replacing the one given), most frequent first.
  void adapt(const Tensor& data);
  /// The same over every batch of `dataset` (the first component of a tuple element).
  void adapt(const data::Dataset& dataset);
  /// The vocabulary with the mask and OOV tokens in front, as Keras's get_vocabulary().
  std::vector<std::int64_t> get_vocabulary() const;
  std::int64_t vocabulary_size() const;

 private:
  void set_vocabulary(const std::vector<std::int64_t>& vocabulary);
  void learn(const std::unordered_map<std::int64_t, std::int64_t>& counts);
  std::int64_t token_start() const { return (options_.mask_token ? 1 : 0) + options_.num_oov_indices; }
  Tensor lookup(const Tensor& tokens) const;
  Tensor invert_lookup(const Tensor& indices) const;

  IntegerLookupOptions options_;
  std::unordered_map<std::int64_t, std::int64_t> index_of_;

  KERAS_LAYER(IntegerLookup)
};

}  // namespace keras::layers
