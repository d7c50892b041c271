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
  group.write_dataset("iteration:0", Tensor::full({}, double(optimizer.iterations_variable()), DType::int64));
  for (const auto& layer : layers)
    for (const auto& [weight_name, var] : saving::named_weights(*layer))
      for (const auto& [slot_name, slot] : optimizer.slots_of(*var)) {
        const std::string name = optimizer.name() + "/" + slot_name + "/" + without_suffix(weight_name) + ":0";
        group.write_dataset(name, slot->value());
        names.push_back(name);
      }
  group.set_string_list_attr("weight_names", names);
}

namespace {

using Assignments = std::vector<std::pair<std::shared_ptr<Variable>, Tensor>>;

/// The iteration counter's entry: "iteration:0" (tf.keras 2.11+), "Adam/iter:0" (OptimizerV2),
/// "Adam/iterations:0" or "Adam_1/iterations:0" (Keras 2.0-2.3).
bool is_iteration_counter(const std::vector<std::string>& parts) {
  return parts.back() == "iteration" || parts.back() == "iter" || parts.back() == "iterations";
}

// By name, in tf.keras 2.11+ names ("Adam/m/dense/kernel:0") or OptimizerV2's ("SGD/dense/kernel/momentum:0").
bool assign_by_name(const hdf5::Group& group, const std::vector<std::string>& names, optimizers::Optimizer& optimizer,
                    const std::map<std::string, std::shared_ptr<Variable>>& weights, Assignments& assignments,
                    std::int64_t& iterations) {
  for (const auto& name : names) {
    const auto parts = split_path(without_suffix(name));
    if (is_iteration_counter(parts)) {
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
  return true;
}

/// Keras 2.0-2.3 (keras.optimizers before OptimizerV2) named its slots "training/Adam/Variable_10:0" or
/// "m_3:0", and saved them as the optimizer's `weights` list: the iteration counter (absent from RMSprop,
/// Adagrad and Adadelta before 2.3), then one group per slot kind, each holding one array per trainable
/// weight in the model's order. The kinds, in order, for each optimizer; "" marks a kind kerascpp does not
/// keep (Adam's vhat of shape (1,) without amsgrad).
std::vector<std::string> legacy_slot_groups(const optimizers::Optimizer& optimizer) {
  const std::string cls = optimizer.class_name();
  if (cls == "SGD") return {"m"};
  if (cls == "Adam" || cls == "AdamW") return {"m", "v", "vhat"};
  if (cls == "Nadam") return {"m", "v"};
  if (cls == "Adamax") return {"m", "u"};
  if (cls == "RMSprop") return {"velocity"};
  if (cls == "Adagrad") return {"accumulator"};
  if (cls == "Adadelta") return {"accumulated_grad", "accumulated_delta_var"};
  return {};
}

// By position, in the order of the weight_names attribute (not by name: Variable_10 precedes Variable_2).
bool assign_by_position(const hdf5::Group& group, const std::vector<std::string>& names, optimizers::Optimizer& optimizer,
                        const std::vector<std::shared_ptr<Variable>>& trainable, Assignments& assignments,
                        std::int64_t& iterations) {
  std::vector<std::string> arrays;
  for (const auto& name : names) {
    const auto parts = split_path(without_suffix(name));
    if (is_iteration_counter(parts) && group.read_dataset(name).shape().empty())
      iterations = static_cast<std::int64_t>(group.read_dataset(name).item());
    else
      arrays.push_back(name);
  }
  const auto kinds = legacy_slot_groups(optimizer);
  const std::size_t n = trainable.size();
  if (n == 0 || arrays.size() % n != 0 || arrays.size() / n > kinds.size()) return false;
  for (std::size_t k = 0; k < arrays.size() / n; ++k)
    for (std::size_t i = 0; i < n; ++i) {
      const std::string& name = arrays[k * n + i];
      Tensor value = group.read_dataset(name).astype(DType::float32);
      std::shared_ptr<Variable> target;
      for (const auto& [sname, slot] : optimizer.slots_of(*trainable[i]))
        if (sname == kinds[k]) target = slot;
      if (!target) {
        // A kind this optimizer does not keep (SGD without momentum, Adam without amsgrad): Keras 2 saved a
        // placeholder or a state the update never reads. Anything else of the weight's shape is a mismatch.
        if (kinds[k] == "vhat" && value.shape() == Shape{1}) continue;
        if (value.shape() == trainable[i]->shape() && (kinds[k] == "m" || kinds[k] == "vhat")) continue;
        return false;
      }
      if (target->shape() != value.shape()) return false;
      assignments.emplace_back(target, value);
    }
  return true;
}

}  // namespace

// Reads optimizer state by name (tf.keras 2.11+ and OptimizerV2 names), else by position (Keras 2.0-2.3).
// Returns false (and restores nothing) when the file's state does not fit the model's optimizer, as Keras
// then starts with a fresh optimizer.
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
  const auto names = group.string_list_attr("weight_names");
  Assignments assignments;
  std::int64_t iterations = -1;
  if (!assign_by_name(group, names, optimizer, weights, assignments, iterations)) {
    assignments.clear();
    iterations = -1;
    if (!assign_by_position(group, names, optimizer, trainable, assignments, iterations)) return false;
  }
  for (auto& [slot, value] : assignments) slot->assign(value);
  if (iterations >= 0) optimizer.set_iterations_variable(iterations);
  return true;
}

}  // namespace keras::saving
