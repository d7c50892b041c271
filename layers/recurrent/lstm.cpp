#include "layers/recurrent/lstm.hpp"

#include "keras/json.hpp"

namespace keras::layers {
namespace {

LSTMCellOptions cell_options(const LSTMOptions& o) {
  LSTMCellOptions c;
  c.activation = o.activation;
  c.recurrent_activation = o.recurrent_activation;
  c.use_bias = o.use_bias;
  c.kernel_initializer = o.kernel_initializer;
  c.recurrent_initializer = o.recurrent_initializer;
  c.bias_initializer = o.bias_initializer;
  c.unit_forget_bias = o.unit_forget_bias;
  c.dropout = o.dropout;
  c.recurrent_dropout = o.recurrent_dropout;
  c.trainable = o.trainable;
  return c;
}

}  // namespace

LSTM::LSTM(std::int64_t units, LSTMOptions options)
    : RNN({std::make_shared<LSTMCell>(units, cell_options(options))}, sequence_options_of(options), "lstm") {}

json LSTM::get_config() const { return flat_config(); }

std::shared_ptr<Layer> LSTM::from_config(const json& c) {
  json cell_config = c;
  cell_config.erase("name");
  const LSTMCellOptions co = LSTMCell::options_from_config(cell_config);
  const RNNOptions ro = options_from_config(c);
  LSTMOptions o;
  o.activation = co.activation;
  o.recurrent_activation = co.recurrent_activation;
  o.use_bias = co.use_bias;
  o.kernel_initializer = co.kernel_initializer;
  o.recurrent_initializer = co.recurrent_initializer;
  o.bias_initializer = co.bias_initializer;
  o.unit_forget_bias = co.unit_forget_bias;
  o.dropout = co.dropout;
  o.recurrent_dropout = co.recurrent_dropout;
  set_sequence_options(o, ro);
  auto layer = std::make_shared<LSTM>(c.at("units").get<std::int64_t>(), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(LSTM)

}  // namespace keras::layers
