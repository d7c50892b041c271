#include "layers/recurrent/lstm.hpp"

#include "keras/config/codec.hpp"
#include "keras/json.hpp"
#include "keras/ops/recurrent.hpp"

namespace keras::layers {
namespace {

/// The cell's arguments among the flat ones (the cell names itself).
LSTMCellOptions cell_options_of(const LSTMOptions& o) {
  LSTMCellOptions cell{.trainable = o.trainable};
  for_each_lstm_cell_field(copy_field, cell, o);
  return cell;
}

}  // namespace

LSTM::LSTM(std::int64_t units, LSTMOptions options)
    : LSTM(units, cell_options_of(options), sequence_options_of(options)) {}

LSTM::LSTM(std::int64_t units, const LSTMCellOptions& cell_options, RNNOptions options)
    : RNN({std::make_shared<LSTMCell>(units, cell_options)}, std::move(options), "lstm") {}

json LSTM::get_config() const { return flat_config(); }

std::shared_ptr<Layer> LSTM::from_config(const json& c) {
  // Keras writes the cell's fields flat, beside the sequence's; the cell names itself.
  auto cell_options = LSTMCell::options_from_config(c);
  cell_options.name.clear();
  auto layer = std::make_shared<LSTM>(config::required<std::int64_t>(c, "units"), cell_options, options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

Tensor LSTM::call_on_tokens(const Tensor& ids, const Tensor& table) {
  const RNNOptions& o = rnn_options();
  const LSTMCell& c = cell();
  if (o.stateful || o.go_backwards || o.return_state || !c.kernel() || c.fused_cell() != kernels::RnnCell::lstm)
    return Tensor();
  return ops::lstm_over_tokens(ids, table, c.kernel()->value(), c.recurrent_kernel()->value(),
                               c.bias() ? c.bias()->value() : Tensor(), o.return_sequences);
}

KERAS_REGISTER_LAYER(LSTM)

}  // namespace keras::layers
