#include "layers/recurrent/gru.hpp"

#include "keras/json.hpp"

namespace keras::layers {
namespace {

GRUCellOptions cell_options(const GRUOptions& o) {
  GRUCellOptions c;
  c.activation = o.activation;
  c.recurrent_activation = o.recurrent_activation;
  c.use_bias = o.use_bias;
  c.kernel_initializer = o.kernel_initializer;
  c.recurrent_initializer = o.recurrent_initializer;
  c.bias_initializer = o.bias_initializer;
  c.reset_after = o.reset_after;
  c.dropout = o.dropout;
  c.recurrent_dropout = o.recurrent_dropout;
  c.trainable = o.trainable;
  return c;
}

}  // namespace

GRU::GRU(std::int64_t units, GRUOptions options)
    : RNN({std::make_shared<GRUCell>(units, cell_options(options))}, sequence_options_of(options), "gru") {}

json GRU::get_config() const { return flat_config(); }

std::shared_ptr<Layer> GRU::from_config(const json& c) {
  json cell_config = c;
  cell_config.erase("name");
  const GRUCellOptions co = GRUCell::options_from_config(cell_config);
  const RNNOptions ro = options_from_config(c);
  GRUOptions o;
  o.activation = co.activation;
  o.recurrent_activation = co.recurrent_activation;
  o.use_bias = co.use_bias;
  o.kernel_initializer = co.kernel_initializer;
  o.recurrent_initializer = co.recurrent_initializer;
  o.bias_initializer = co.bias_initializer;
  o.reset_after = co.reset_after;
  o.dropout = co.dropout;
  o.recurrent_dropout = co.recurrent_dropout;
  set_sequence_options(o, ro);
  auto layer = std::make_shared<GRU>(c.at("units").get<std::int64_t>(), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(GRU)

}  // namespace keras::layers
