#include "layers/recurrent/simple_rnn.hpp"

#include "keras/config/codec.hpp"
#include "keras/json.hpp"

namespace keras::layers {
namespace {

/// The cell's arguments among the flat ones (the cell names itself).
SimpleRNNCellOptions cell_options_of(const SimpleRNNOptions& o) {
  SimpleRNNCellOptions cell{.trainable = o.trainable};
  for_each_simple_rnn_cell_field(copy_field, cell, o);
  return cell;
}

}  // namespace

SimpleRNN::SimpleRNN(std::int64_t units, SimpleRNNOptions options)
    : SimpleRNN(units, cell_options_of(options), sequence_options_of(options)) {}

SimpleRNN::SimpleRNN(std::int64_t units, const SimpleRNNCellOptions& cell_options, RNNOptions options)
    : RNN({std::make_shared<SimpleRNNCell>(units, cell_options)}, std::move(options), "simple_rnn") {}

json SimpleRNN::get_config() const { return flat_config(); }

std::shared_ptr<Layer> SimpleRNN::from_config(const json& c) {
  // Keras writes the cell's fields flat, beside the sequence's; the cell names itself.
  auto cell_options = SimpleRNNCell::options_from_config(c);
  cell_options.name.clear();
  auto layer = std::make_shared<SimpleRNN>(config::required<std::int64_t>(c, "units"), cell_options, options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(SimpleRNN)

}  // namespace keras::layers
