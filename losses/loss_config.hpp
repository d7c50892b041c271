#pragma once
// A loss's config from its options struct: loss_config() writes the base fields (reduction, name) and
// every field KERAS_FIELDS lists; loss_from_config() reads them all back. Huber's are then one line each:
//
//   KERAS_FIELDS(HuberOptions, delta)
//   json Huber::get_config() const { return loss_config(*this, options_); }
//   std::shared_ptr<Loss> Huber::from_config(const json& c) { return loss_from_config<Huber, HuberOptions>(c); }
//
// A loss without fields of its own says so with `KERAS_FIELDS(MeanSquaredErrorOptions)`.
#include <memory>
#include <utility>

#include "keras/config/codec.hpp"
#include "losses/loss.hpp"

namespace keras::losses {

/// The base loss's config plus the listed fields of `options`.
template <class Options>
json loss_config(const Loss& loss, const Options& options) {
  json c = loss.Loss::get_config();
  config::write_fields(c, options);
  return c;
}

/// A new L(options) from `config`: the base fields and the listed ones (absent keys keep the defaults).
template <class L, class Options>
std::shared_ptr<Loss> loss_from_config(const json& config) {
  return std::make_shared<L>(config::read_options<Options>(config));
}

}  // namespace keras::losses
