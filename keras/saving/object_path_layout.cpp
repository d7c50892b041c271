#include "keras/saving/object_path_layout.hpp"

#include <cctype>
#include <iostream>
#include <map>

#include "keras/model.hpp"
#include "layers/recurrent/bidirectional.hpp"
#include "layers/recurrent/rnn.hpp"
#include "layers/recurrent/time_distributed.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::saving {
namespace {

using Vars = std::vector<std::shared_ptr<Variable>>;

std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "/" + b; }

// Names a list's objects as Keras 3 does: by class, numbered from the second of a class on.
class ContainerNames {
 public:
  std::string next(const std::string& class_name) {
    const std::string base = to_snake_case(class_name);
    auto [it, first] = used_.emplace(base, 0);
    if (first) return base;
    return base + "_" + std::to_string(++it->second);
  }

 private:
  std::map<std::string, int> used_;
};

// The layer's variables that none of its sublayers owns, in its own order.
Vars own_variables(const Layer& layer) {
  Vars from_subs;
  for (const auto& s : layer.sublayers())
    for (const auto& w : s->weights()) from_subs.push_back(w);
  Vars own;
  for (const auto& w : layer.weights())
    if (std::find(from_subs.begin(), from_subs.end(), w) == from_subs.end()) own.push_back(w);
  return own;
}

std::string describe(const Layer& layer) { return "'" + layer.name() + "' (" + layer.class_name() + ")"; }

void walk(const Layer& layer, const std::string& path, std::vector<VariableGroup>& out);

void add(std::vector<VariableGroup>& out, std::string path, const Layer& layer, Vars vars) {
  if (!vars.empty()) out.push_back({std::move(path), describe(layer), std::move(vars)});
}

void walk_container(const std::vector<LayerPtr>& layers, const std::string& path, std::vector<VariableGroup>& out) {
  ContainerNames names;
  for (const auto& l : layers) walk(*l, join(path, names.next(l->class_name())), out);
}

void walk(const Layer& layer, const std::string& path, std::vector<VariableGroup>& out) {
  if (auto model = dynamic_cast<const Model*>(&layer)) {
    add(out, path, layer, own_variables(layer));
    walk_container(model->layers(), join(path, "layers"), out);
    return;
  }
  if (dynamic_cast<const layers::RNN*>(&layer)) {
    add(out, path, layer, own_variables(layer));
    const auto cells = layer.sublayers();
    if (cells.size() == 1) {
      walk(*cells[0], join(path, "cell"), out);
    } else {  // StackedRNNCells: its list attribute `cells`
      walk_container(cells, join(path, "cell/cells"), out);
    }
    return;
  }
  if (dynamic_cast<const layers::Bidirectional*>(&layer)) {
    const auto subs = layer.sublayers();
    walk(*subs.at(0), join(path, "forward_layer"), out);
    walk(*subs.at(1), join(path, "backward_layer"), out);
    return;
  }
  const std::string cls = layer.class_name();
  if (dynamic_cast<const layers::TimeDistributed*>(&layer) || cls == "SpectralNormalization") {  // Keras's Wrapper
    add(out, path, layer, own_variables(layer));
    walk(*layer.sublayers().at(0), join(path, "layer"), out);
    return;
  }
  if (cls == "MultiHeadAttention") {
    // Keras 3 keeps the four projections as EinsumDense sublayers; kerascpp names the weights "query/kernel".
    static const std::vector<std::pair<std::string, std::string>> parts{
        {"query/", "_query_dense"}, {"key/", "_key_dense"}, {"value/", "_value_dense"}, {"attention_output/", "_output_dense"}};
    for (const auto& [prefix, attr] : parts) {
      Vars vars;
      for (const auto& w : layer.weights())
        if (w->name().rfind(prefix, 0) == 0) vars.push_back(w);
      add(out, join(path, attr), layer, vars);
    }
    return;
  }
  if (cls.rfind("ConvLSTM", 0) == 0) {  // Keras 3's ConvLSTM layers keep their variables in a cell
    add(out, join(path, "cell"), layer, own_variables(layer));
    return;
  }
  add(out, path, layer, own_variables(layer));
  // Sublayers of other layers (custom ones): Keras names them by attribute, which C++ cannot know; the
  // sublayer's own name stands in for it.
  for (const auto& s : layer.sublayers()) walk(*s, join(path, s->name()), out);
}

// Where the file keeps a `.../vars` group: as Keras 3 names it; under tf.keras 2.13's
// `_layer_checkpoint_dependencies`; or, for archives tf.keras 2.15 wrote on Windows, in one top-level group
// whose name joins the object path with backslashes ("layers\\dense/vars").
std::string resolve(const hdf5::Group& root, const std::string& vars_path) {
  if (root.has(vars_path)) return vars_path;
  if (vars_path.ends_with("/vars")) {
    std::string windows = vars_path.substr(0, vars_path.size() - 5);
    std::replace(windows.begin(), windows.end(), '/', '\\');
    if (root.has(windows + "/vars")) return windows + "/vars";
  }
  if (!root.has("_layer_checkpoint_dependencies")) return vars_path;
  std::string legacy = vars_path;
  for (std::size_t at = 0; (at = legacy.find("layers", at)) != std::string::npos;) {
    const bool whole = (at == 0 || legacy[at - 1] == '/') && (at + 6 == legacy.size() || legacy[at + 6] == '/');
    if (whole) {
      legacy.replace(at, 6, "_layer_checkpoint_dependencies");
      at += 30;
    } else {
      at += 6;
    }
  }
  return legacy;
}

}  // namespace

std::string to_snake_case(const std::string& class_name) {
  std::string name;
  for (char c : class_name)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') name += c;
  // "(.)([A-Z][a-z]+)" → "\1_\2", then "([a-z])([A-Z])" → "\1_\2", then lower case.
  std::string first;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (i > 0 && std::isupper(static_cast<unsigned char>(name[i])) && i + 1 < name.size() &&
        std::islower(static_cast<unsigned char>(name[i + 1])))
      first += '_';
    first += name[i];
  }
  std::string out;
  for (std::size_t i = 0; i < first.size(); ++i) {
    if (i > 0 && std::islower(static_cast<unsigned char>(first[i - 1])) && std::isupper(static_cast<unsigned char>(first[i])))
      out += '_';
    out += char(std::tolower(static_cast<unsigned char>(first[i])));
  }
  return out;
}

std::vector<Tensor> read_object_vars(const hdf5::Group& root, const std::string& path) {
  std::vector<Tensor> values;
  const std::string vars_path = resolve(root, path);
  if (!root.has(vars_path)) return values;
  const hdf5::Group group = root.open_group(vars_path);
  const auto children = group.children();
  for (std::size_t i = 0; i < children.size(); ++i) {
    const std::string key = std::to_string(i);
    if (std::find(children.begin(), children.end(), key) == children.end())
      throw IOError("The weights group " + group.where() + " has " + std::to_string(children.size()) +
                    " entries but no '" + key + "': its entries must be numbered 0, 1, ...");
    values.push_back(group.read_dataset(key));
  }
  return values;
}

std::vector<VariableGroup> object_path_groups(const Model& model) {
  std::vector<VariableGroup> out;
  walk(model, "", out);
  return out;
}

bool is_object_path_layout(const hdf5::Group& root) {
  return !root.has_attr("layer_names") &&
         (root.has("layers") || root.has("vars") || root.has("_layer_checkpoint_dependencies") || root.has("optimizer"));
}

std::vector<std::pair<std::string, std::vector<Tensor>>> object_path_values(const Model& model, bool optimizer) {
  std::vector<std::pair<std::string, std::vector<Tensor>>> out;
  for (const auto& group : object_path_groups(model)) {
    std::vector<Tensor> values;
    for (const auto& v : group.variables) values.push_back(v->value());
    out.emplace_back(join(group.path, "vars"), std::move(values));
  }
  if (!optimizer || !model.compiled()) return out;
  // An optimizer that has not been built yet (compiled, never trained) has only its counter and learning
  // rate, as Keras writes it.
  const optimizers::Optimizer& opt = model.optimizer();
  std::vector<Tensor> values{Tensor::full({}, double(opt.iterations_variable()), DType::int64)};
  if (!opt.learning_rate_schedule()) values.push_back(Tensor::full({}, opt.learning_rate()));
  for (const auto& v : opt.variables()) values.push_back(v->value());
  out.emplace_back("optimizer/vars", std::move(values));
  return out;
}

void save_object_path_weights(hdf5::Group& root, const Model& model, bool optimizer) {
  for (const auto& [path, values] : object_path_values(model, optimizer))
    for (std::size_t i = 0; i < values.size(); ++i) root.write_dataset(path + "/" + std::to_string(i), values[i]);
}

void load_object_path_weights(const hdf5::Group& root, const Model& model, bool skip_mismatch) {
  load_object_path_weights([&](const std::string& vars_path) { return read_object_vars(root, vars_path); }, model,
                           skip_mismatch);
}

void load_object_path_weights(const VarsReader& read, const Model& model, bool skip_mismatch) {
  const auto groups = object_path_groups(model);
  std::vector<std::pair<std::shared_ptr<Variable>, Tensor>> assignments;
  for (const auto& group : groups) {
    const std::string vars_path = join(group.path, "vars");
    const std::vector<Tensor> values = read(vars_path);
    if (values.size() != group.variables.size()) {
      if (skip_mismatch) continue;
      throw ValueError("Layer " + group.owner + " has " + std::to_string(group.variables.size()) +
                       " variables, but the weights file has " + std::to_string(values.size()) + " at '" + vars_path +
                       "'. Is the file from a different architecture? (load with skip_mismatch to skip such layers)");
    }
    bool fits = true;
    for (std::size_t i = 0; i < values.size() && fits; ++i)
      if (values[i].shape() != group.variables[i]->shape()) {
        if (skip_mismatch) {
          fits = false;
          break;
        }
        throw ValueError("Shape mismatch in layer " + group.owner + " for variable '" + group.variables[i]->name() +
                         "': the model has " + shape_str(group.variables[i]->shape()) + ", the file has " +
                         shape_str(values[i].shape()) + " at '" + vars_path + "/" + std::to_string(i) + "'");
      }
    if (!fits) continue;
    for (std::size_t i = 0; i < values.size(); ++i)
      assignments.emplace_back(group.variables[i], values[i].astype(DType::float32));
  }
  for (auto& [var, value] : assignments) var->assign(value);
}

bool load_object_path_optimizer(const hdf5::Group& root, Model& model) {
  if (!model.compiled() || !root.has("optimizer/vars")) return false;
  const std::vector<Tensor> values = read_object_vars(root, "optimizer/vars");
  optimizers::Optimizer& opt = model.optimizer();
  const bool has_lr = !opt.learning_rate_schedule();
  const std::size_t first = has_lr ? 2 : 1;
  if (values.size() < first) return false;
  if (values.size() > first) {  // else saved before the first step: the counter and learning rate only
    opt.build(model.trainable_weights());
    const Vars slots = opt.variables();
    if (values.size() != first + slots.size()) return false;
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (values[first + i].shape() != slots[i]->shape()) return false;
    for (std::size_t i = 0; i < slots.size(); ++i) slots[i]->assign(values[first + i].astype(DType::float32));
  }
  opt.set_iterations_variable(static_cast<std::int64_t>(values[0].item()));
  if (has_lr) opt.set_learning_rate(double(values[1].item()));
  return true;
}

}  // namespace keras::saving
