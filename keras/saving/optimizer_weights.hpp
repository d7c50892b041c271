#pragma once
// Optimizer state in Keras's HDF5 layout (the `optimizer_weights` group of a model file): written in
// tf.keras 2.11+ names, read in those, in the OptimizerV2 names and, by position, in Keras 2.0-2.3's.
#include <vector>

#include "keras/layer.hpp"
#include "keras/hdf5/file.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::saving {

/// Writes group `optimizer_weights` under root: "iteration:0", then "<Optimizer>/<slot>/<layer>/<weight>:0".
void save_optimizer_weights(hdf5::Group& root, optimizers::Optimizer& optimizer, const std::vector<LayerPtr>& layers);

/// Restores the optimizer state of root's `optimizer_weights` group. Returns false (restoring nothing)
/// when the saved state does not fit the optimizer, as Keras then starts with a fresh optimizer.
bool load_optimizer_weights(const hdf5::Group& root, optimizers::Optimizer& optimizer, const std::vector<LayerPtr>& layers);

}  // namespace keras::saving
