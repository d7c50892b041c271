#pragma once
// ConvLSTM3D: the ConvLSTM (layers/recurrent/conv_lstm.hpp) over [batch, time, depth, rows, cols, channels]:
// kernel [k..., in, 4 * filters], recurrent_kernel [k..., filters, 4 * filters], bias [4 * filters].
#include "layers/recurrent/conv_lstm.hpp"

namespace keras::layers {

/// strides and dilation_rate per spatial axis; the other arguments are every ConvLSTM's.
using ConvLSTM3DOptions = ConvLSTMOptions<Size3>;

class ConvLSTM3D : public ConvLSTM {
 public:
  ConvLSTM3D(std::int64_t filters, Size3 kernel_size, ConvLSTM3DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  ConvLSTM3D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size);
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(ConvLSTM3D)
};

}  // namespace keras::layers
