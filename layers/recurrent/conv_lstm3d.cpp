#include "layers/recurrent/conv_lstm3d.hpp"

namespace keras::layers {

ConvLSTM3D::ConvLSTM3D(std::int64_t filters, Size3 kernel_size, ConvLSTM3DOptions options)
    : ConvLSTM3D(conv_lstm_spec(options), filters, Sizes(kernel_size.begin(), kernel_size.end())) {}

ConvLSTM3D::ConvLSTM3D(ConvLSTMSpec spec, std::int64_t filters, Sizes kernel_size)
    : ConvLSTM(3, filters, std::move(kernel_size), std::move(spec), "ConvLSTM3D", "conv_lstm3d") {}

std::shared_ptr<Layer> ConvLSTM3D::from_config(const json& config) {
  return from_config_as<ConvLSTM3D>(config, 3, "ConvLSTM3D");
}

KERAS_REGISTER_LAYER(ConvLSTM3D)

}  // namespace keras::layers
