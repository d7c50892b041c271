#pragma once
// Hashing: integer tokens to num_bins buckets as tf.keras 2.x does it: each token's decimal text (what
// tf.strings.as_string gives) hashed with FarmHash Fingerprint64, or with SipHash-2-4 keyed by `salt`
// (one value v stands for (v, v)), modulo num_bins. With mask_value, that token goes to 0 and the others
// to 1 + hash mod (num_bins - 1). output_mode "int" (int64, the input's shape), "one_hot", "multi_hot" or
// "count" over num_bins. String inputs hash their UTF-8 bytes; their mask is `mask_string` (Keras's
// mask_value given as a string, written as "mask_value" in the config).
#include <optional>
#include <vector>

#include "keras/layer.hpp"

namespace keras::layers {

struct HashingOptions {
  std::optional<std::int64_t> mask_value{};
  std::optional<std::string> mask_string{};
  std::optional<std::vector<std::uint64_t>> salt{};
  std::string output_mode = "int";
  bool sparse = false;
  KERAS_LAYER_OPTIONS
};

class Hashing : public Layer {
 public:
  explicit Hashing(std::int64_t num_bins, HashingOptions options = {});
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  /// int64 bins (output_mode "int") or float32 encodings.
  bool accepts_strings() const override { return true; }
  DType output_dtype() const override { return options_.output_mode == "int" ? DType::int64 : DType::float32; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t num_bins_;
  HashingOptions options_;

  KERAS_LAYER(Hashing)
};

}  // namespace keras::layers
