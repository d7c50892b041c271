#include "layers/recurrent/gru.hpp"

#include "keras/config/codec.hpp"
#include "keras/json.hpp"

namespace keras::layers {
namespace {

/// The cell's arguments among the flat ones (the cell names itself).
GRUCellOptions cell_options_of(const GRUOptions& o) {
  GRUCellOptions cell{.trainable = o.trainable};
  for_each_gru_cell_field(copy_field, cell, o);
  return cell;
}

}  // namespace

GRU::GRU(std::int64_t units, GRUOptions options)
    : GRU(units, cell_options_of(options), sequence_options_of(options)) {}

GRU::GRU(std::int64_t units, const GRUCellOptions& cell_options, RNNOptions options)
    : RNN({std::make_shared<GRUCell>(units, cell_options)}, std::move(options), "gru") {}

json GRU::get_config() const { return flat_config(); }

std::shared_ptr<Layer> GRU::from_config(const json& c) {
  // Keras writes the cell's fields flat, beside the sequence's; the cell names itself.
  auto cell_options = GRUCell::options_from_config(c);
  cell_options.name.clear();
  auto layer = std::make_shared<GRU>(config::required<std::int64_t>(c, "units"), cell_options, options_from_config(c));
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(GRU)

}  // namespace keras::layers
