#pragma once
// GlobalAveragePooling1D/2D/3D and GlobalMaxPooling1D/2D/3D: the mean / max over every spatial axis
// of channels_last inputs, (batch, spatial..., c) → (batch, c), or (batch, 1..., c) with keepdims.
#include "keras/layer.hpp"

namespace keras::layers {

struct GlobalPoolingOptions {
  bool keepdims = false;
  std::string data_format = "channels_last";  // or "channels_first": the channels on axis 1
  KERAS_LAYER_OPTIONS
};
using GlobalPooling1DOptions = GlobalPoolingOptions;
using GlobalPooling2DOptions = GlobalPoolingOptions;
using GlobalPooling3DOptions = GlobalPoolingOptions;

/// What the six global pooling layers share.
class BaseGlobalPooling : public Layer {
 public:
  Tensor call(const Tensor& inputs, bool training) override;
  /// GlobalAveragePooling1D under a Keras mask averages the unmasked steps only, as Keras does.
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  json get_config() const override;
  bool keepdims() const { return options_.keepdims; }
  /// The max of relus is the relu of the max (training then runs the relu over the pooled values).
  bool commutes_with_relu() const override { return kind_ == Kind::max; }

 protected:
  enum class Kind { max, average };
  BaseGlobalPooling(Kind kind, const std::string& class_name, std::int64_t rank, GlobalPoolingOptions options);
  /// A new L from Keras's config.
  template <class L>
  static std::shared_ptr<Layer> from_config_as(const json& config, const std::string& class_name);

 private:
  void check_rank(const Shape& shape) const;

  bool channels_first_ = false;
  Kind kind_;
  std::string cls_;
  std::int64_t rank_;
  GlobalPoolingOptions options_;
};

#define KERAS_GLOBAL_POOLING_CLASS(Name, kind, rank)                                          \
  class Name : public BaseGlobalPooling {                                                      \
   public:                                                                                     \
    explicit Name(GlobalPoolingOptions options = {})                                           \
        : BaseGlobalPooling(Kind::kind, #Name, rank, std::move(options)) {}                    \
    static std::shared_ptr<Layer> from_config(const json& config);                            \
    KERAS_LAYER(Name)                                                                          \
  };
KERAS_GLOBAL_POOLING_CLASS(GlobalAveragePooling1D, average, 1)
KERAS_GLOBAL_POOLING_CLASS(GlobalAveragePooling2D, average, 2)
KERAS_GLOBAL_POOLING_CLASS(GlobalAveragePooling3D, average, 3)
KERAS_GLOBAL_POOLING_CLASS(GlobalMaxPooling1D, max, 1)
KERAS_GLOBAL_POOLING_CLASS(GlobalMaxPooling2D, max, 2)
KERAS_GLOBAL_POOLING_CLASS(GlobalMaxPooling3D, max, 3)
#undef KERAS_GLOBAL_POOLING_CLASS

}  // namespace keras::layers
