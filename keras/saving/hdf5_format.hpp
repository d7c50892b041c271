#pragma once
// Keras's HDF5 layout for weights: a group with attribute `layer_names`, and per layer a group
// with attribute `weight_names` whose entries are dataset paths inside that layer's group
// ("dense/kernel:0" in Keras 2, "sequential/dense/kernel" in Keras 3).
#include <memory>
#include <string>
#include <vector>

#include "keras/layer.hpp"
#include "keras/hdf5/file.hpp"

namespace keras::saving {

/// The Keras release whose file layout we write.
inline constexpr const char* kKerasVersion = "2.13.1";

/// The Keras 2 name of each weight of a layer ("dense/kernel:0"), sub-layers included.
std::vector<std::pair<std::string, std::shared_ptr<Variable>>> named_weights(const Layer& layer);

/// Writes `layers`' weights into `group` (the model_weights group, or a weights-only file's root).
void save_weights_to_group(hdf5::Group& group, const std::vector<LayerPtr>& layers);

/// Reads weights into `layers`: by position over the layers that have weights (Keras's default), or
/// by layer name. skip_mismatch skips layers whose weight count or shapes differ instead of failing.
void load_weights_from_group(const hdf5::Group& group, const std::vector<LayerPtr>& layers, bool by_name,
                             bool skip_mismatch);

/// Writes to `path` through a temporary file that replaces it only when complete.
void write_atomically(const std::string& path, const std::function<void(hdf5::File&)>& write);

}  // namespace keras::saving
