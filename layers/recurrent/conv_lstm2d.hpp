#pragma once
// ConvLSTM2D: the ConvLSTM (layers/recurrent/conv_lstm.hpp) over [batch, time, rows, cols, channels]:
// kernel [k..., in, 4 * filters], recurrent_kernel [k..., filters, 4 * filters], bias [4 * filters].
#include "layers/recurrent/conv_lstm.hpp"

namespace keras::layers {

/// strides and dilation_rate per spatial axis; the other arguments are every ConvLSTM's.
using ConvLSTM2DOptions = ConvLSTMOptions<Size2>;

class ConvLSTM2D : public ConvLSTM {
 public:
  ConvLSTM2D(std::int64_t filters, Size2 kernel_size, ConvLSTM2DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  ConvLSTM2D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size);
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(ConvLSTM2D)
};

}  // namespace keras::layers
