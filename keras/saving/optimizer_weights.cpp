// Optimizer state in Keras's HDF5 layout: tf.keras 2.11+ names and the legacy OptimizerV2 names.
#include "keras/saving/optimizer_weights.hpp"

#include <map>

#include "keras/saving/hdf5_format.hpp"

namespace keras::saving {
namespace {

std::string without_suffix(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, ":0") == 0 ? name.substr(0, name.size() - 2) : name;
}

std::vector<std::string> split_path(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == '/') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

}  // namespace

// tf.keras 2.11+ layout: "iteration:0", then "<Optimizer>/<slot>/<layer>/<weight>:0".
void save_optimizer_weights(hdf5::Group& root, optimizers::Optimizer& optimizer, const std::vector<LayerPtr>& layers) {
  hdf5::Group group = root.create_group("optimizer_weights");
  std::vector<std::string> names{"iteration:0"};
  group.write_dataset("iteration:0", Tensor::full({}, double(optimizer.iterations()), DType::int64));
  for (const auto& layer : layers)
    for (const auto& [weight_name, var] : saving::named_weights(*layer))
      for (const auto& [slot_name, slot] : optimizer.slots_of(*var)) {
        const std::string name = optimizer.name() + "/" + slot_name + "/" + without_suffix(weight_name) + ":0";
        group.write_dataset(name, slot->value());
        names.push_back(name);
      }
  group.set_string_list_attr("weight_names", names);
}

// Reads optimizer state by name, in tf.keras 2.11+ names ("Adam/m/dense/kernel:0") or the legacy
// ones ("SGD/dense/kernel/momentum:0"). Returns false (and restores nothing) when the file's state
// does not fit the model's optimizer, as Keras then starts with a fresh optimizer.
bool load_optimizer_weights(const hdf5::Group& root, optimizers::Optimizer& optimizer, const std::vector<LayerPtr>& layers) {
  const hdf5::Group group = root.open_group("optimizer_weights");
  std::map<std::string, std::shared_ptr<Variable>> weights;  // "dense/kernel" → variable
  std::vector<std::shared_ptr<Variable>> trainable;
  for (const auto& layer : layers)
    for (const auto& [name, var] : saving::named_weights(*layer)) {
      weights[without_suffix(name)] = var;
      if (var->trainable()) trainable.push_back(var);
    }
  optimizer.build(trainable);
  std::vector<std::pair<std::shared_ptr<Variable>, Tensor>> assignments;
  std::int64_t iterations = -1;
  for (const auto& name : group.string_list_attr("weight_names")) {
    const auto parts = split_path(without_suffix(name));
    if (parts.back() == "iteration" || parts.back() == "iter") {
      iterations = static_cast<std::int64_t>(group.read_dataset(name).item());
      continue;
    }
    if (parts.size() < 3) return false;
    // New layout: Optimizer/slot/<weight path>; legacy: Optimizer/<weight path>/slot.
    auto join = [&](std::size_t from, std::size_t to) {
      std::string joined;
      for (std::size_t i = from; i < to; ++i) {
        if (!joined.empty()) joined += '/';
        joined += parts[i];
      }
      return joined;
    };
    std::string slot_name = parts[1], weight = join(2, parts.size());
    if (!weights.count(weight)) {
      slot_name = parts.back();
      weight = join(1, parts.size() - 1);
    }
    auto var = weights.find(weight);
    if (var == weights.end()) return false;
    // Keras < 2.11 (OptimizerV2) named some slots differently.
    static const std::map<std::string, std::string> legacy{{"momentum", "m"}, {"rms", "velocity"}, {"mg", "average_gradient"}};
    std::shared_ptr<Variable> target, legacy_target;
    auto renamed = legacy.find(slot_name);
    for (const auto& [sname, slot] : optimizer.slots_of(*var->second)) {
      if (sname == slot_name) target = slot;
      if (renamed != legacy.end() && sname == renamed->second) legacy_target = slot;
    }
    if (!target) target = legacy_target;
    Tensor value = group.read_dataset(name).astype(DType::float32);
    if (!target || target->shape() != value.shape()) return false;
    assignments.emplace_back(target, value);
  }
  for (auto& [slot, value] : assignments) slot->assign(value);
  if (iterations >= 0) optimizer.set_iterations(iterations);
  return true;
}

}  // namespace keras::saving
