#pragma once
// ConvLSTM1D: the ConvLSTM (layers/recurrent/conv_lstm.hpp) over [batch, time, steps, channels]:
// kernel [k..., in, 4 * filters], recurrent_kernel [k..., filters, 4 * filters], bias [4 * filters].
#include "layers/recurrent/conv_lstm.hpp"

namespace keras::layers {

/// strides and dilation_rate per spatial axis; the other arguments are every ConvLSTM's.
using ConvLSTM1DOptions = ConvLSTMOptions<std::int64_t>;

class ConvLSTM1D : public ConvLSTM {
 public:
  ConvLSTM1D(std::int64_t filters, std::int64_t kernel_size, ConvLSTM1DOptions options = {});
  /// From the rank-generic arguments (what from_config reads).
  ConvLSTM1D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size);
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(ConvLSTM1D)
};

}  // namespace keras::layers
