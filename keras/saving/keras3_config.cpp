#include "keras/saving/keras3_config.hpp"

#include <map>

#include "keras/functional_graph.hpp"
#include "keras/model.hpp"
#include "keras/sequential.hpp"

namespace keras::saving {
namespace {

json null_shape(const Shape& shape) {
  json out = json::array();
  for (auto d : shape) out.push_back(d < 0 ? json(nullptr) : json(d));
  return out;
}

json dtype_policy(const json& name) {
  return json{{"module", "keras"}, {"class_name", "DTypePolicy"}, {"config", {{"name", name}}}, {"registered_name", nullptr}};
}

bool is_serialized_object(const json& v) { return v.is_object() && v.contains("class_name") && v.contains("config"); }

json object(const std::string& module, const std::string& class_name, json config) {
  return json{{"module", module}, {"class_name", class_name}, {"config", std::move(config)}, {"registered_name", nullptr}};
}

json layer_object(const json& serialized, const Layer* layer);

// Keys tf.keras 2 wrote that Keras 3's constructors refuse.
bool keras2_only(const std::string& key) {
  static const std::vector<std::string> keys{"batch_input_shape", "time_major", "implementation", "renorm",
                                             "renorm_clipping", "renorm_momentum", "fused", "virtual_batch_size",
                                             "adjustment"};
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::string family_module(const std::string& key) {
  auto ends = [&](const std::string& s) { return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0; };
  if (ends("_initializer")) return "keras.initializers";
  if (ends("_regularizer")) return "keras.regularizers";
  if (ends("_constraint")) return "keras.constraints";
  return "";
}

// A layer's own config: nested objects get their module, sub-layers are converted in turn.
json layer_config(const json& config) {
  json out = json::object();
  for (const auto& [key, value] : config.items()) {
    if (keras2_only(key)) continue;
    if (key == "dtype" && value.is_string()) {
      out[key] = dtype_policy(value);
    } else if (is_serialized_object(value) && !family_module(key).empty()) {
      out[key] = object(family_module(key), value["class_name"], value["config"]);
    } else if (is_serialized_object(value) &&
               (key == "layer" || key == "cell" || key == "forward_layer" || key == "backward_layer")) {
      out[key] = layer_object(value, nullptr);
    } else if (key == "cell" && value.is_array()) {
      json cells = json::array();
      for (const auto& c : value) cells.push_back(layer_object(c, nullptr));
      out[key] = cells;
    } else {
      out[key] = value;
    }
  }
  return out;
}

json layer_object(const json& serialized, const Layer* layer) {
  const std::string cls = serialized.at("class_name");
  if (serialized.contains("module")) {  // already in Keras 3's form (a keras.ops node)
    json out{{"module", serialized["module"]}, {"class_name", cls}, {"config", serialized.at("config")},
             {"registered_name", serialized.value("registered_name", json())}};
    return out;
  }
  if (cls == "InputLayer") {
    json c = serialized.at("config");
    json config{{"batch_shape", c.contains("batch_input_shape") ? c["batch_input_shape"] : c.value("batch_shape", json())},
                {"dtype", c.value("dtype", json("float32"))},
                {"sparse", c.value("sparse", false)},
                {"name", c.value("name", json())}};
    return object("keras.layers", cls, config);
  }
  json config = layer_config(serialized.at("config"));
  // Keras 3 keeps the axis as given (-1, usually); kerascpp stores it resolved ([3]).
  if (cls == "BatchNormalization" && layer && layer->built_input_shape() && config.contains("axis") &&
      config["axis"].is_array() && config["axis"].size() == 1 && config["axis"][0].is_number_integer()) {
    const auto rank = std::int64_t(layer->built_input_shape()->size());
    const std::int64_t axis = config["axis"][0];
    config["axis"] = axis == rank - 1 ? -1 : axis;
  }
  // Keras 3 writes Bidirectional's backward layer even when it was made from the forward one.
  if (cls == "Bidirectional" && layer && !config.contains("backward_layer") && layer->sublayers().size() == 2) {
    const LayerPtr backward = layer->sublayers()[1];
    config["backward_layer"] = layer_object(serialize_object(backward->class_name(), backward->get_config()), nullptr);
  }
  // Keras 3's Bidirectional writes its directions, which output zeros at masked steps when they return sequences.
  if (cls == "Bidirectional")
    for (const char* key : {"layer", "backward_layer"})
      if (config.contains(key) && config[key].contains("config")) {
        json& c = config[key]["config"];
        c["zero_output_for_mask"] = c.value("return_sequences", false);
      }
  json out = object("keras.layers", cls, config);
  // Keras 3 records build_config for the layers that build something (those with weights).
  if (layer && layer->built_input_shape() && !layer->weights().empty())
    out["build_config"] = {{"input_shape", null_shape(*layer->built_input_shape())}};
  return out;
}

// ["dense", 0, 0, {kwargs}] → {"class_name": "__keras_tensor__", "config": {"shape", "dtype", "keras_history"}}.
json keras_tensor(const json& ref, const FunctionalGraph& graph, const std::map<std::string, LayerPtr>& by_name) {
  const std::string name = ref.at(0);
  const int tensor_index = ref.at(2);
  json shape = nullptr;
  if (auto it = by_name.find(name); it != by_name.end()) {
    const auto shapes = graph.output_shapes_of(it->second);
    if (tensor_index < int(shapes.size())) shape = null_shape(shapes[tensor_index]);
  }
  return json{{"class_name", "__keras_tensor__"},
              {"config", {{"shape", shape}, {"dtype", "float32"}, {"keras_history", {name, ref.at(1), tensor_index}}}}};
}

json functional_config(const Model& model) {
  const FunctionalGraph& graph = *model.graph();
  std::map<std::string, LayerPtr> by_name;
  for (const auto& l : graph.layers()) by_name[l->name()] = l;
  json keras2 = graph.get_config(model.name(), /*keras3_ops=*/true);
  json layers = json::array();
  for (const auto& entry : keras2.at("layers")) {
    const std::string name = entry.at("name");
    auto it = by_name.find(name);
    json out = layer_object(entry, it == by_name.end() ? nullptr : it->second.get());
    out["name"] = name;
    json nodes = json::array();
    for (const auto& node : entry.value("inbound_nodes", json::array())) {
      if (!node.is_array()) {  // already Keras 3's form
        nodes.push_back(node);
        continue;
      }
      json tensors = json::array(), kwargs = json::object();
      for (const auto& ref : node) {
        tensors.push_back(keras_tensor(ref, graph, by_name));
        if (ref.size() > 3 && ref[3].is_object()) kwargs.update(ref[3]);
      }
      json args = tensors.size() == 1 ? json::array({tensors[0]}) : json::array({tensors});
      nodes.push_back({{"args", args}, {"kwargs", kwargs}});
    }
    out["inbound_nodes"] = nodes;
    layers.push_back(out);
  }
  // One input or output is written as its own [name, node, tensor], as Keras 3 writes Model(x, y), unless
  // the model was given it in a list.
  auto single = [](const json& refs, const FunctionalGraph::Form& form) {
    return refs.is_array() && refs.size() == 1 && refs[0].is_array() && !form.list ? refs[0] : refs;
  };
  json config{{"name", model.name()}, {"trainable", model.trainable()}, {"layers", layers},
              {"input_layers", single(keras2.at("input_layers"), graph.input_form())},
              {"output_layers", single(keras2.at("output_layers"), graph.output_form())}};
  json out{{"module", "keras.src.models.functional"}, {"class_name", "Functional"}, {"config", config},
           {"registered_name", "Functional"}, {"build_config", {{"input_shape", nullptr}}}};
  return out;
}

json sequential_config(const Sequential& model) {
  json keras2 = model.get_config();
  json layers = json::array();
  const auto model_layers = model.layers();
  std::size_t k = 0;
  for (const auto& entry : keras2.at("layers")) {
    const bool input = entry.at("class_name") == "InputLayer";
    if (input) {
      layers.push_back(layer_object(entry, nullptr));
      continue;
    }
    if (k == 0 && layers.empty() && entry.at("config").contains("batch_input_shape"))  // an input_shape option
      layers.push_back(object("keras.layers", "InputLayer",
                              {{"batch_shape", entry["config"]["batch_input_shape"]}, {"dtype", "float32"},
                               {"sparse", false}, {"name", "input_layer"}}));
    layers.push_back(layer_object(entry, k < model_layers.size() ? model_layers[k].get() : nullptr));
    ++k;
  }
  json config{{"name", model.name()}, {"trainable", model.trainable()}, {"dtype", dtype_policy("float32")}, {"layers", layers}};
  json out = object("keras", "Sequential", config);
  if (model.built() && model.built_input_shape()) {
    config["build_input_shape"] = null_shape(*model.built_input_shape());
    out["config"] = config;
    out["build_config"] = {{"input_shape", null_shape(*model.built_input_shape())}};
  }
  return out;
}

json with_module(const json& serialized, const std::string& module) {
  if (!is_serialized_object(serialized)) return serialized;
  return object(module, serialized["class_name"], serialized["config"]);
}

// A loss or metric entry: a string stays; an object gets its module, and Keras 2's reduction "auto"
// becomes Keras 3's "sum_over_batch_size".
json loss_or_metric(const json& v, const std::string& module) {
  if (v.is_array()) {
    json out = json::array();
    for (const auto& e : v) out.push_back(loss_or_metric(e, module));
    return out;
  }
  if (v.is_object() && !is_serialized_object(v)) {
    json out = json::object();
    for (const auto& [k, e] : v.items()) out[k] = loss_or_metric(e, module);
    return out;
  }
  json out = with_module(v, module);
  if (out.is_object() && out["config"].is_object() && out["config"].value("reduction", "") == "auto")
    out["config"]["reduction"] = "sum_over_batch_size";
  return out;
}

}  // namespace

json keras3_model_config(const Model& model) {
  if (auto sequential = dynamic_cast<const Sequential*>(&model)) return sequential_config(*sequential);
  if (model.graph()) return functional_config(model);
  // A subclassed model: its registered class and its own config, as Keras 3 writes custom objects.
  return json{{"module", nullptr}, {"class_name", model.class_name()}, {"config", model.get_config()},
              {"registered_name", model.class_name()}};
}

json keras3_compile_config(const json& tc, const std::string& optimizer_identifier) {
  json optimizer = with_module(tc.at("optimizer_config"), "keras.optimizers");
  for (const char* key : {"jit_compile", "is_legacy_optimizer"}) optimizer["config"].erase(key);
  return json{{"optimizer", optimizer_identifier.empty() ? optimizer : json(optimizer_identifier)},
              {"loss", loss_or_metric(tc.at("loss"), "keras.losses")},
              {"loss_weights", tc.value("loss_weights", json())},
              {"metrics", loss_or_metric(tc.value("metrics", json()), "keras.metrics")},
              {"weighted_metrics", loss_or_metric(tc.value("weighted_metrics", json()), "keras.metrics")},
              {"run_eagerly", false},
              {"steps_per_execution", 1},
              {"jit_compile", false}};
}

json training_config_from_keras3(const json& cc) {
  json tc{{"loss", cc.value("loss", json())}, {"loss_weights", cc.value("loss_weights", json())}};
  if (cc.contains("optimizer") && !cc["optimizer"].is_null()) {
    const json& o = cc["optimizer"];
    tc["optimizer_config"] = o.is_string() ? json{{"class_name", o}, {"config", json::object()}} : o;
  }
  for (const char* key : {"metrics", "weighted_metrics"})
    if (cc.contains(key) && !cc[key].is_null()) tc[key] = cc[key];
  return tc;
}

}  // namespace keras::saving
