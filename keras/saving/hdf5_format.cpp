#include "keras/saving/hdf5_format.hpp"

#include <filesystem>
#include <map>

#include <unistd.h>

#include "keras/model.hpp"

namespace keras::saving {
namespace {

// A model's layers write their own names ("dense/kernel:0"); the sub-layers of any other layer (a
// recurrent layer's cell, Bidirectional's two layers) carry its name first, as tf.keras 2.x writes
// them ("lstm/lstm_cell/kernel:0", "bidirectional/forward_lstm/lstm_cell_1/kernel:0").
void collect(const Layer& layer, std::vector<std::pair<std::string, std::shared_ptr<Variable>>>& out,
             const std::string& prefix = "") {
  auto subs = layer.sublayers();
  const std::string sub_prefix = dynamic_cast<const Model*>(&layer) ? "" : prefix + layer.name() + "/";
  std::vector<std::shared_ptr<Variable>> from_subs;
  for (const auto& s : subs) {
    collect(*s, out, sub_prefix);
    for (const auto& w : s->weights()) from_subs.push_back(w);
  }
  for (const auto& w : layer.weights())
    if (std::find(from_subs.begin(), from_subs.end(), w) == from_subs.end())
      out.emplace_back(prefix + layer.name() + "/" + w->name() + ":0", w);
}

std::vector<std::pair<std::string, Tensor>> read_layer_weights(const hdf5::Group& group, const std::string& layer) {
  hdf5::Group g = group.open_group(layer);
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& name : g.string_list_attr("weight_names")) out.emplace_back(name, g.read_dataset(name));
  return out;
}

void assign_layer(const Layer& layer, const std::vector<std::pair<std::string, Tensor>>& values,
                  const std::string& file_layer, bool skip_mismatch) {
  auto weights = named_weights(layer);
  if (weights.size() != values.size()) {
    if (skip_mismatch) return;
    throw ValueError("Layer '" + layer.name() + "' (" + layer.class_name() + ") expects " +
                     std::to_string(weights.size()) + " weights, but the saved layer '" + file_layer + "' has " +
                     std::to_string(values.size()));
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    Tensor v = values[i].second.astype(DType::float32);
    if (v.shape() != weights[i].second->shape()) {
      if (skip_mismatch) return;
      throw ValueError("Shape mismatch in layer '" + layer.name() + "' for weight '" + weights[i].first +
                       "': the model has " + shape_str(weights[i].second->shape()) + ", the file has " +
                       shape_str(v.shape()) + " (saved as '" + values[i].first + "' of layer '" + file_layer + "')");
    }
  }
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i].second->assign(values[i].second.astype(DType::float32));
}

}  // namespace

std::vector<std::pair<std::string, std::shared_ptr<Variable>>> named_weights(const Layer& layer) {
  std::vector<std::pair<std::string, std::shared_ptr<Variable>>> out;
  collect(layer, out);
  return out;
}

void save_weights_to_group(hdf5::Group& group, const std::vector<LayerPtr>& layers) {
  std::vector<std::string> layer_names;
  for (const auto& l : layers) layer_names.push_back(l->name());
  group.set_string_list_attr("layer_names", layer_names);
  group.set_string_attr("backend", "tensorflow");
  group.set_string_attr("keras_version", kKerasVersion);
  for (const auto& l : layers) {
    hdf5::Group g = group.create_group(l->name());
    std::vector<std::string> names;
    for (const auto& [name, var] : named_weights(*l)) {
      names.push_back(name);
      g.write_dataset(name, var->value());
    }
    g.set_string_list_attr("weight_names", names);
  }
}

void load_weights_from_group(const hdf5::Group& group, const std::vector<LayerPtr>& layers, bool by_name,
                             bool skip_mismatch) {
  std::vector<std::string> file_layers;
  for (const auto& name : group.string_list_attr("layer_names"))
    if (!group.open_group(name).string_list_attr("weight_names").empty()) file_layers.push_back(name);

  if (by_name) {
    for (const auto& l : layers)
      if (std::find(file_layers.begin(), file_layers.end(), l->name()) != file_layers.end())
        assign_layer(*l, read_layer_weights(group, l->name()), l->name(), skip_mismatch);
    return;
  }
  std::vector<LayerPtr> with_weights;
  for (const auto& l : layers)
    if (!l->weights().empty()) with_weights.push_back(l);
  if (with_weights.size() != file_layers.size())
    throw ValueError("Layer count mismatch when loading weights from file (" + group.where() + "): the model has " +
                     std::to_string(with_weights.size()) + " layers with weights, the file has " +
                     std::to_string(file_layers.size()) + ". Load by_name, or build the same architecture.");
  for (std::size_t i = 0; i < with_weights.size(); ++i)
    assign_layer(*with_weights[i], read_layer_weights(group, file_layers[i]), file_layers[i], skip_mismatch);
}

void write_atomically(const std::string& path, const std::function<void(hdf5::File&)>& write) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  try {
    {
      hdf5::File file = hdf5::File::create(tmp);
      write(file);
      file.flush();
    }
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

}  // namespace keras::saving
