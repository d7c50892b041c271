#pragma once
// A layer's config from its options struct: layer_config() writes the base fields (name, trainable,
// dtype, batch_input_shape) and every field KERAS_FIELDS lists; options_from_config() and
// make_from_config() read them back. Dense's get_config and from_config are then one line each:
//
//   json Dense::get_config() const { json c = layer_config(*this, options_); c["units"] = units_; return c; }
//   std::shared_ptr<Layer> Dense::from_config(const json& c) {
//     return make_from_config<Dense, DenseOptions>(c, c.at("units").get<std::int64_t>());
//   }
#include <memory>
#include <utility>

#include "keras/config/codec.hpp"
#include "keras/layer.hpp"

namespace keras {

/// The base layer's config plus the listed fields of `options`.
template <class Options>
json layer_config(const Layer& layer, const Options& options) {
  json c = layer.Layer::get_config();
  config::write_fields(c, options);
  return c;
}

/// Options with the listed fields and the name (trainable and the input shape are read by read_base_config).
template <class Options>
Options options_from_config(const json& config) {
  return config::read_options<Options>(config);
}

/// A new L(positional..., options) from `config`, with the base fields read back.
template <class L, class Options, class... Positional>
std::shared_ptr<Layer> make_from_config(const json& config, Positional&&... positional) {
  auto layer = std::make_shared<L>(std::forward<Positional>(positional)..., options_from_config<Options>(config));
  layer->read_base_config(config);
  return layer;
}

}  // namespace keras
