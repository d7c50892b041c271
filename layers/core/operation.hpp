#pragma once
// Operation: a Keras 3 keras.ops node in a functional config (`keras.ops.add(a, b)`, `x[:, 0]`,
// `ops.mean(x, axis=1)`), an entry {"module": "keras.src.ops.numpy", "class_name": "Add", "config":
// {"name": "add"}, "inbound_nodes": [{"args": [...], "kwargs": {}}]}. Its class_name is the op's ("Add":
// the module tells it from the Add layer); the config holds the op's init arguments (axis, newshape, ...).
#include <memory>

#include "layers/core/op_layer.hpp"

namespace keras::layers {

class Operation : public OpLayer {
 public:
  Operation(std::string class_name, std::string module, json config, const std::string& name);
  /// The layer for a functional-config entry whose "module" is a keras.ops module ("keras.src.ops.numpy",
  /// "keras.src.ops.nn", "keras.src.ops.core", ...); nullptr for any other entry.
  static std::shared_ptr<Layer> from_entry(const json& entry);
  std::string class_name() const override { return class_name_; }
  const std::string& module() const { return module_; }
  /// The op's config as Keras wrote it (its name kept in step with the layer's).
  json get_config() const override;
  json entry_keys() const override;

 protected:
  Tensor evaluate(const std::vector<Tensor>& inputs) const override;
  std::string who() const override;

 private:
  std::string class_name_, module_;
  std::shared_ptr<const json> config_;
  std::string registered_name_;

  KERAS_LAYER_MOVE(Operation)
};

}  // namespace keras::layers
