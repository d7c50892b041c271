#pragma once
// An optimizer's config from its options struct: optimizer_config() writes the base fields (name, weight
// decay, clipping, EMA, learning rate) and every field KERAS_FIELDS lists; optimizer_from_config() reads
// them all back. Adam's get_config and from_config are then one line each:
//
//   KERAS_FIELDS(AdamOptions, beta_1, beta_2, epsilon, amsgrad)
//   json Adam::get_config() const { return optimizer_config(*this, options_); }
//   std::shared_ptr<Optimizer> Adam::from_config(const json& c) { return optimizer_from_config<Adam, AdamOptions>(c); }
#include <memory>
#include <utility>

#include "keras/config/codec.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::optimizers {

/// "learning_rate" (or the legacy "lr"): a number or a serialized schedule; absent, `fallback`. A legacy
/// non-zero "decay" becomes the equivalent InverseTimeDecay(lr, 1, decay).
LearningRate read_learning_rate(const json& config, const LearningRate& fallback);

/// The base optimizer's config plus the listed fields of `options`.
template <class Options>
json optimizer_config(const Optimizer& optimizer, const Options& options) {
  json c = optimizer.Optimizer::get_config();
  config::write_fields(c, options);
  return c;
}

/// A new O(options) from `config`: the learning rate, the base fields and the listed ones (absent keys
/// keep the defaults).
template <class O, class Options>
std::shared_ptr<Optimizer> optimizer_from_config(const json& config) {
  Options options = config::read_options<Options>(config);
  options.learning_rate = read_learning_rate(config, options.learning_rate);
  return std::make_shared<O>(std::move(options));
}

}  // namespace keras::optimizers
