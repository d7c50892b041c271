#pragma once
// HashedCrossing: crosses two or more categorical features (integers or strings, each of shape [batch],
// [batch, 1] or a scalar) into num_bins buckets, as tf.sparse.cross_hashed does for Keras: starting from the
// key 0xDECAFCAFFE, each feature's value (a string's FarmHash Fingerprint64, an integer itself) is folded in
// with FingerprintCat64, and the result taken mod num_bins. output_mode "int" (int64, the first input's shape)
// or "one_hot" ([batch, num_bins]).
#include "keras/layer.hpp"

namespace keras::layers {

struct HashedCrossingOptions {
  std::string output_mode = "int";
  bool sparse = false;
  KERAS_LAYER_OPTIONS
};

class HashedCrossing : public Layer {
 public:
  explicit HashedCrossing(std::int64_t num_bins, HashedCrossingOptions options = {});
  using Layer::build;
  using Layer::call;
  /// Nothing to build; it takes two or more inputs.
  void build(const std::vector<Shape>& /*input_shapes*/) override {}
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  /// int64 bins (output_mode "int") or float32 encodings.
  bool accepts_strings() const override { return true; }
  DType output_dtype() const override { return options_.output_mode == "int" ? DType::int64 : DType::float32; }
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::int64_t num_bins_;
  HashedCrossingOptions options_;

  KERAS_LAYER(HashedCrossing)
};

/// TensorFlow's FingerprintCat64: the fingerprint of two fingerprints.
std::uint64_t fingerprint_cat64(std::uint64_t fp1, std::uint64_t fp2);

}  // namespace keras::layers
