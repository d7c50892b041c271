#include "layers/recurrent/conv_lstm2d.hpp"

namespace keras::layers {

ConvLSTM2D::ConvLSTM2D(std::int64_t filters, Size2 kernel_size, ConvLSTM2DOptions options)
    : ConvLSTM2D(conv_lstm_spec(options), filters, Sizes(kernel_size.begin(), kernel_size.end())) {}

ConvLSTM2D::ConvLSTM2D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size)
    : ConvLSTM(2, filters, std::move(kernel_size), std::move(spec), "ConvLSTM2D", "conv_lstm2d") {}

std::shared_ptr<Layer> ConvLSTM2D::from_config(const json& config) {
  return from_config_as<ConvLSTM2D>(config, 2, "ConvLSTM2D");
}

KERAS_REGISTER_LAYER(ConvLSTM2D)

}  // namespace keras::layers
