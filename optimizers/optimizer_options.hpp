#pragma once
// The arguments every optimizer takes (Keras's names and defaults), declared once. An options struct starts
// with its learning rate (Keras's default differs per optimizer), then its own arguments, and ends with
// KERAS_OPTIMIZER_OPTIONS("Adam"), so that `Adam({.learning_rate = 1e-3, .beta_1 = 0.8, .clipnorm = 1.0})`
// stays one flat designated initializer (C++ cannot designate the fields of a base struct). The Optimizer
// base keeps them (CommonOptions) and writes and reads them in every config (for_each_base_field).
#include <cstdint>
#include <optional>
#include <string>

#define KERAS_OPTIMIZER_OPTIONS(default_name)                                                            \
  std::optional<double> weight_decay{}; /* decoupled: var -= var * weight_decay * lr before each update */ \
  KERAS_OPTIMIZER_OPTIONS_AFTER_WEIGHT_DECAY(default_name)

/// The same without weight_decay, for an optimizer that takes it earlier (AdamW: its second argument).
#define KERAS_OPTIMIZER_OPTIONS_AFTER_WEIGHT_DECAY(default_name)                                      \
  std::optional<double> clipnorm{};        /* clip each gradient to this L2 norm */                   \
  std::optional<double> clipvalue{};       /* clip each gradient element to [-v, v] */                \
  std::optional<double> global_clipnorm{}; /* clip all gradients together to this L2 norm */          \
  bool use_ema = false;                    /* keep an exponential moving average of the variables */  \
  double ema_momentum = 0.99; /* average = ema_momentum * average + (1 - ema_momentum) * var */        \
  /* copy the averages into the variables every n steps (unset or 0: only finalize_variable_values) */ \
  std::optional<std::int64_t> ema_overwrite_frequency{};                                              \
  /* Keras 3: sum the gradients of n calls (n >= 2) and update with their mean on every n-th call */   \
  std::optional<std::int64_t> gradient_accumulation_steps{};                                          \
  std::string name = default_name;

namespace keras::optimizers {

/// The base arguments on their own: what the Optimizer base keeps, and what a custom optimizer passes it.
struct CommonOptions {
  KERAS_OPTIMIZER_OPTIONS("")
};

/// The base fields, under the keys Keras writes in every optimizer's config, listed once: calls
/// visit(key, options.field...) for each, on one options struct (to write or read its config) or on two
/// (to copy one into the other). The learning rate is not among them: the base reads it with Keras's
/// legacy keys and writes a callable's current value (Optimizer::get_config).
template <class Visit, class... Options>
void for_each_base_field(Visit&& visit, Options&... options) {
  visit("name", options.name...);
  visit("weight_decay", options.weight_decay...);
  visit("clipnorm", options.clipnorm...);
  visit("global_clipnorm", options.global_clipnorm...);
  visit("clipvalue", options.clipvalue...);
  visit("use_ema", options.use_ema...);
  visit("ema_momentum", options.ema_momentum...);
  visit("ema_overwrite_frequency", options.ema_overwrite_frequency...);
  visit("gradient_accumulation_steps", options.gradient_accumulation_steps...);  // written only when set
}

}  // namespace keras::optimizers
