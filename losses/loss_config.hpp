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

/// An options struct seen through its base fields only, so that config::write_fields and read_fields
/// apply to them.
template <class Options>
struct BaseFields {
  Options& options;
};
template <class Options, class Visit>
void for_each_field(const BaseFields<Options>& base, Visit&& visit) {
  for_each_base_field(visit, base.options);
}

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
  Options options{};
  BaseFields<Options> base{options};
  config::read_fields(config, base);
  config::read_fields(config, options);
  return std::make_shared<L>(std::move(options));
}

}  // namespace keras::losses
