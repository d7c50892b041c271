#pragma once
// The regularizer and constraint arguments of layers with a kernel and a bias (Dense, Conv*): their
// options structs hold kernel_regularizer, bias_regularizer, activity_regularizer, kernel_constraint and
// bias_constraint; these two helpers write and read them in Keras's JSON shape (null when unset).
// Json is keras::json, a template parameter so that this header needs only keras/json_fwd.hpp.
#include "keras/constraints/constraint.hpp"
#include "keras/regularizers/regularizer.hpp"

namespace keras::regularizers {

template <class Options, class Json>
void write_penalty_config(Json& c, const Options& o) {
  c["kernel_regularizer"] = serialize(o.kernel_regularizer);
  c["bias_regularizer"] = serialize(o.bias_regularizer);
  c["activity_regularizer"] = serialize(o.activity_regularizer);
  c["kernel_constraint"] = constraints::serialize(o.kernel_constraint);
  c["bias_constraint"] = constraints::serialize(o.bias_constraint);
}

template <class Options, class Json>
void read_penalty_config(const Json& c, Options& o) {
  auto at = [&](const char* key) { return c.contains(key) ? c[key] : Json(); };
  o.kernel_regularizer = deserialize_or_null(at("kernel_regularizer"));
  o.bias_regularizer = deserialize_or_null(at("bias_regularizer"));
  o.activity_regularizer = deserialize_or_null(at("activity_regularizer"));
  o.kernel_constraint = constraints::deserialize_or_null(at("kernel_constraint"));
  o.bias_constraint = constraints::deserialize_or_null(at("bias_constraint"));
}

}  // namespace keras::regularizers
