#include "layers/recurrent/conv_lstm1d.hpp"

namespace keras::layers {

ConvLSTM1D::ConvLSTM1D(std::int64_t filters, std::int64_t kernel_size, ConvLSTM1DOptions options)
    : ConvLSTM1D(conv_lstm_spec(options), filters, {kernel_size}) {}

ConvLSTM1D::ConvLSTM1D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size)
    : ConvLSTM(1, filters, std::move(kernel_size), std::move(spec), "ConvLSTM1D", "conv_lstm1d") {}

std::shared_ptr<Layer> ConvLSTM1D::from_config(const json& config) {
  return from_config_as<ConvLSTM1D>(config, 1, "ConvLSTM1D");
}

KERAS_REGISTER_LAYER(ConvLSTM1D)

}  // namespace keras::layers
