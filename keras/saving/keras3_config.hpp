#pragma once
// A model's description as Keras 3 writes it in a `.keras` archive's config.json: every object as
// {"module", "class_name", "config", "registered_name"} (layers with "build_config"), dtypes as
// DTypePolicy objects, InputLayer's "batch_shape", functional "inbound_nodes" as {"args", "kwargs"} with
// "__keras_tensor__" references, and compile() as "compile_config". It is made from the Keras 2 form
// kerascpp's get_config() returns; reading needs no counterpart, as the registries read both forms.
#include "keras/json.hpp"

namespace keras {
class Model;
}

namespace keras::saving {

/// The model's config.json object, without compile_config.
json keras3_model_config(const Model& model);

/// Keras 3's compile_config from a training_config (Keras 2's form of compile()'s arguments); the
/// optimizer by its identifier when it was given by one ("adam"), else serialized.
json keras3_compile_config(const json& training_config, const std::string& optimizer_identifier);

/// The training_config form compile_from_training_config reads, from a Keras 3 compile_config.
json training_config_from_keras3(const json& compile_config);

}  // namespace keras::saving
