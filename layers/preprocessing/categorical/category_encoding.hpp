#pragma once
// CategoryEncoding: integer token ids in [0, num_tokens) to vectors of num_tokens floats: "one_hot" (one
// id per sample), "multi_hot" (1 where an id occurs; the default) or "count" (how often it occurs). Input
// [batch] or [batch, ids]; output [batch, num_tokens] (as tf.keras 2.x: at most rank 2, dense only).
#include "keras/layer.hpp"

namespace keras::layers {

struct CategoryEncodingOptions {
  std::string output_mode = "multi_hot";
  bool sparse = false;
  KERAS_LAYER_OPTIONS
};

class CategoryEncoding : public Layer {
 public:
  explicit CategoryEncoding(std::int64_t num_tokens, CategoryEncodingOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t num_tokens_;
  CategoryEncodingOptions options_;

  KERAS_LAYER(CategoryEncoding)
};

/// The encoding of integer ids `ids` ([batch] or [batch, n]) as CategoryEncoding does it; `layer` names the
/// caller in errors (Discretization and the lookups encode through it).
Tensor encode_categories(const Tensor& ids, std::int64_t depth, const std::string& output_mode, const std::string& layer);
/// Throws a ValueError naming `layer` unless `mode` is "one_hot", "multi_hot", "count" or (when allowed) "int".
void check_output_mode(const std::string& mode, bool allow_int, const std::string& layer);
/// The output shape for output_mode over `depth` bins: the input's for "int", else [batch, depth].
Shape encoded_shape(const Shape& input_shape, const std::string& output_mode, std::int64_t depth);

}  // namespace keras::layers
