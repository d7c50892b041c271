#include "layers/recurrent/simple_rnn.hpp"

#include "keras/json.hpp"

namespace keras::layers {
namespace {

SimpleRNNCellOptions cell_options(const SimpleRNNOptions& o) {
  SimpleRNNCellOptions c;
  c.activation = o.activation;
  c.use_bias = o.use_bias;
  c.kernel_initializer = o.kernel_initializer;
  c.recurrent_initializer = o.recurrent_initializer;
  c.bias_initializer = o.bias_initializer;
  c.dropout = o.dropout;
  c.recurrent_dropout = o.recurrent_dropout;
  c.trainable = o.trainable;
  return c;
}

}  // namespace

SimpleRNN::SimpleRNN(std::int64_t units, SimpleRNNOptions options)
    : RNN({std::make_shared<SimpleRNNCell>(units, cell_options(options))}, sequence_options_of(options), "simple_rnn") {}

json SimpleRNN::get_config() const { return flat_config(); }

std::shared_ptr<Layer> SimpleRNN::from_config(const json& c) {
  json cell_config = c;
  cell_config.erase("name");
  const SimpleRNNCellOptions co = SimpleRNNCell::options_from_config(cell_config);
  const RNNOptions ro = options_from_config(c);
  SimpleRNNOptions o;
  o.activation = co.activation;
  o.use_bias = co.use_bias;
  o.kernel_initializer = co.kernel_initializer;
  o.recurrent_initializer = co.recurrent_initializer;
  o.bias_initializer = co.bias_initializer;
  o.dropout = co.dropout;
  o.recurrent_dropout = co.recurrent_dropout;
  set_sequence_options(o, ro);
  auto layer = std::make_shared<SimpleRNN>(c.at("units").get<std::int64_t>(), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(SimpleRNN)

}  // namespace keras::layers
