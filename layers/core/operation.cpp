#include "layers/core/operation.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"

namespace keras::layers {
namespace {

bool is_ops_module(const std::string& module) {
  return module.rfind("keras.src.ops", 0) == 0 || module.rfind("keras.ops", 0) == 0;
}

}  // namespace

Operation::Operation(std::string class_name, std::string module, json config, const std::string& name)
    : OpLayer(name, to_snake_case(class_name)),
      class_name_(std::move(class_name)),
      module_(std::move(module)),
      config_(std::make_shared<const json>(config.is_object() ? std::move(config) : json::object())) {
  if (!find_keras_op(class_name_))
    throw ValueError(fmt::format("Layer '{}' is the Keras 3 operation {}.{}, which kerascpp cannot run. Supported "
                                 "operations: {}. Replace the op in the Python model with a Keras layer.",
                                 this->name(), module_, class_name_, fmt::join(keras_op_names(), ", ")));
}

std::shared_ptr<Layer> Operation::from_entry(const json& entry) {
  if (!entry.is_object() || !entry.contains("module") || !entry["module"].is_string() ||
      !is_ops_module(entry["module"].get<std::string>()))
    return nullptr;
  const json config = entry.value("config", json::object());
  std::string name = entry.value("name", std::string());
  if (name.empty() && config.is_object()) name = config.value("name", std::string());
  auto op = std::make_shared<Operation>(entry.at("class_name").get<std::string>(), entry["module"].get<std::string>(),
                                        config, name);
  if (entry.contains("registered_name") && entry["registered_name"].is_string())
    op->registered_name_ = entry["registered_name"].get<std::string>();
  return op;
}

json Operation::get_config() const {
  json c = *config_;
  if (c.contains("name")) c["name"] = name();
  return c;
}

json Operation::entry_keys() const {
  json keys = {{"module", module_}};
  keys["registered_name"] = registered_name_.empty() ? json(nullptr) : json(registered_name_);
  return keys;
}

Tensor Operation::evaluate(const std::vector<Tensor>& inputs) const {
  const OpFunction* f = find_keras_op(class_name_);
  json kwargs = *config_;  // the op's init arguments (axis, keepdims, newshape ...), then the call's keywords
  kwargs.erase("name");
  for (auto it = call_kwargs().begin(); it != call_kwargs().end(); ++it) kwargs[it.key()] = it.value();
  return f->run(OpArguments(f->params, call_args(), kwargs, inputs, who()));
}

std::string Operation::who() const { return fmt::format("Layer '{}' (Keras 3 operation {}.{})", name(), module_, class_name_); }

std::shared_ptr<Layer> Operation::move_to_shared() && { return std::make_shared<Operation>(std::move(*this)); }

}  // namespace keras::layers
