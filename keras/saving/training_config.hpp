#pragma once
// Keras's training_config (the compile() arguments a saved model carries) read back into compile().
#include "keras/model.hpp"

namespace keras::saving {

/// Compiles `model` with the optimizer, loss and metrics of a training_config written by Keras or us.
void compile_from_training_config(Model& model, const json& training_config);

}  // namespace keras::saving
