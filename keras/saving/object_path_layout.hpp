#pragma once
// Keras 3's weights layout (`model.weights.h5` inside a `.keras` archive, and `*.weights.h5` files):
// each object's own variables in a group `<object path>/vars` as datasets "0", "1", ... (trainable first).
// Object paths follow the model's structure as Keras 3 walks it: `layers/<snake_case class>[_N]` for a
// model's layers (numbered per class name, in order), `cell` for a recurrent layer's cell,
// `forward_layer`/`backward_layer` for Bidirectional, `layer` for TimeDistributed, `_query_dense` ... for
// MultiHeadAttention, and `optimizer` for the optimizer (iterations, learning rate, then its slots in
// the order Keras creates them). tf.keras 2.13-2.15 named a model's layer list
// `_layer_checkpoint_dependencies`; both are read. Groups are created only for objects with variables,
// as Keras 3.10 and later write them (older Keras 3 readers accept that too).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "keras/hdf5/file.hpp"
#include "keras/variable.hpp"

namespace keras {
class Layer;
class Model;
}  // namespace keras

namespace keras::saving {

/// Keras's naming.to_snake_case: "Conv2D" → "conv2d", "BatchNormalization" → "batch_normalization",
/// "SimpleRNN" → "simple_rnn", "PReLU" → "p_re_lu".
std::string to_snake_case(const std::string& class_name);

/// One object's own variables and where they go.
struct VariableGroup {
  std::string path;   // "layers/lstm/cell"; "" for the model itself
  std::string owner;  // the layer's name and class, for messages
  std::vector<std::shared_ptr<Variable>> variables;
};

/// The model's variables, grouped by Keras 3 object path (objects without variables are left out).
std::vector<VariableGroup> object_path_groups(const Model& model);

/// What save_object_path_weights writes: each `.../vars` group's path and values, in order.
std::vector<std::pair<std::string, std::vector<Tensor>>> object_path_values(const Model& model, bool optimizer);

/// Writes the model's variables, and with `optimizer` the compiled optimizer's state, under `root`.
void save_object_path_weights(hdf5::Group& root, const Model& model, bool optimizer);

/// Reads the values in a `.../vars` group ("layers/dense/vars"), under tf.keras 2.13-2.15's names too;
/// none when the file has no such group.
std::vector<Tensor> read_object_vars(const hdf5::Group& root, const std::string& vars_path);

/// Reads the model's variables, each group's through read(vars_path) (a sharded file reads several files).
using VarsReader = std::function<std::vector<Tensor>(const std::string& vars_path)>;
void load_object_path_weights(const VarsReader& read, const Model& model, bool skip_mismatch);

/// Reads the model's variables. A group the model needs but the file lacks, or a count or shape that
/// differs, is a ValueError naming the layer (skip_mismatch leaves that layer as it is).
void load_object_path_weights(const hdf5::Group& root, const Model& model, bool skip_mismatch);

/// Restores the compiled optimizer's state from `optimizer/vars`; false (nothing changed) when the file
/// has none or it does not fit the optimizer, as Keras then warns and starts afresh.
bool load_object_path_optimizer(const hdf5::Group& root, Model& model);

/// Whether a weights file's root is in this layout (rather than Keras 2's `layer_names` layout).
bool is_object_path_layout(const hdf5::Group& root);

}  // namespace keras::saving
