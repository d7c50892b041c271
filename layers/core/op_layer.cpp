#include "layers/core/op_layer.hpp"

#include <functional>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"

namespace keras::layers {
namespace {

constexpr const char* kConstant = "_CONSTANT_VALUE";  // tf.keras 2.x: a first argument that is no KerasTensor

// Keras 2's reference to a layer output: ["dense", 0, 0] or ["dense", 0, 0, {kwargs}] (or a constant entry).
bool is_keras2_entry(const json& j) {
  return j.is_array() && (j.size() == 3 || (j.size() == 4 && (j[3].is_object() || j[3].is_null()))) &&
         j[0].is_string() && j[1].is_number_integer();
}

// A tensor reference inside keyword arguments: exactly [name, node, index].
bool is_keras2_kwarg_ref(const json& j) {
  return j.is_array() && j.size() == 3 && j[0].is_string() && j[1].is_number_integer() &&
         j[2].is_number_integer() && j[0].get<std::string>() != kConstant;
}

bool is_keras3_tensor(const json& j) {
  return j.is_object() && j.value("class_name", "") == "__keras_tensor__" && j.contains("config");
}

OpTensorRef ref_from(const json& h) {
  if (!h.is_array() || h.size() < 3 || !h[0].is_string() || !h[1].is_number_integer() || !h[2].is_number_integer())
    throw ValueError("An op node's tensor reference should be [layer name, node index, tensor index], got " + h.dump());
  return {h[0].get<std::string>(), h[1].get<int>(), h[2].get<int>()};
}

// Replaces each value `is_ref` accepts by a placeholder, depth first (object keys in sorted order).
json map_refs(const json& j, const std::function<bool(const json&)>& is_ref,
              const std::function<json(const json&)>& replace) {
  if (is_ref(j)) return replace(j);
  if (j.is_array()) {
    json out = json::array();
    for (const auto& e : j) out.push_back(map_refs(e, is_ref, replace));
    return out;
  }
  if (j.is_object()) {
    json out = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = map_refs(it.value(), is_ref, replace);
    return out;
  }
  return j;
}

// The first entry of a Keras 2 node, whose 4th element holds the call's keyword arguments.
const json* first_entry(const json& node) {
  if (is_keras2_entry(node)) return &node;
  if (node.is_array())
    for (const auto& e : node)
      if (const json* f = first_entry(e)) return f;
  return nullptr;
}

struct Parsed {
  json args, kwargs;
  OpLayer::NodeForm form;
  std::vector<OpTensorRef> refs;
};

Parsed parse_node(const json& node) {
  Parsed p;
  auto placeholder_for = [&](const OpTensorRef& r) {
    p.refs.push_back(r);
    return input_placeholder(static_cast<int>(p.refs.size()) - 1);
  };
  if (node.is_object() && (node.contains("args") || node.contains("kwargs"))) {
    p.form = OpLayer::NodeForm::keras3;
    auto replace = [&](const json& t) { return placeholder_for(ref_from(t.at("config").at("keras_history"))); };
    p.args = map_refs(node.value("args", json::array()), is_keras3_tensor, replace);
    p.kwargs = map_refs(node.value("kwargs", json::object()), is_keras3_tensor, replace);
    if (!p.args.is_array()) p.args = json::array({p.args});
    if (!p.kwargs.is_object()) throw ValueError("An op node's \"kwargs\" should be an object, got " + node.dump());
    return p;
  }
  if (!node.is_array()) throw ValueError("An op node should be a list (Keras 2) or {\"args\", \"kwargs\"}, got " + node.dump());
  p.form = OpLayer::NodeForm::keras2;
  const json* entry = first_entry(node);
  // The first argument: its tensors and constants, in their structure (a list for tf.concat).
  json first = map_refs(node, is_keras2_entry, [&](const json& e) {
    if (e[0].get<std::string>() == kConstant) return json{{"__constant__", e[2]}};
    return placeholder_for(ref_from(e));
  });
  p.args = json::array({first});
  json kwargs = entry && entry->size() == 4 && (*entry)[3].is_object() ? (*entry)[3] : json::object();
  p.kwargs = map_refs(kwargs, is_keras2_kwarg_ref, [&](const json& r) { return placeholder_for(ref_from(r)); });
  return p;
}

json shape_json(const Shape& s) {
  json out = json::array();
  for (auto d : s) out.push_back(d < 0 ? json(nullptr) : json(d));
  return out;
}

}  // namespace

bool is_input_placeholder(const json& v) { return v.is_object() && v.size() == 1 && v.contains("__input__"); }
json input_placeholder(int index) { return json{{"__input__", index}}; }

// ---- OpArguments ----

OpArguments::OpArguments(const std::vector<std::string>& params, const json& args, const json& kwargs,
                         const std::vector<Tensor>& inputs, std::string who)
    : inputs_(inputs), who_(std::move(who)) {
  if (args.size() > params.size())
    throw ValueError(fmt::format("{} got {} positional arguments; it takes at most {}", who_, args.size(), params.size()));
  for (std::size_t i = 0; i < args.size(); ++i) bound_[params[i]] = args[i];
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it) bound_[it.key()] = it.value();
}

bool OpArguments::has(const std::string& name) const { return !value(name).is_null(); }

const json& OpArguments::value(const std::string& name) const {
  static const json null_value;
  auto it = bound_.find(name);
  return it == bound_.end() ? null_value : *it;
}

namespace {
void flatten_numbers(const json& v, std::vector<float>& out, Shape& shape, std::size_t depth, const std::string& who) {
  if (v.is_number() || v.is_boolean()) {
    if (depth != shape.size()) throw ValueError(who + ": a constant argument is a ragged nested list");
    out.push_back(v.is_boolean() ? (v.get<bool>() ? 1.f : 0.f) : v.get<float>());
    return;
  }
  if (!v.is_array()) throw ValueError(who + ": a constant argument should be a number or a nested list, got " + v.dump());
  if (depth == shape.size()) shape.push_back(static_cast<std::int64_t>(v.size()));
  else if (shape[depth] != static_cast<std::int64_t>(v.size()))
    throw ValueError(who + ": a constant argument is a ragged nested list");
  for (const auto& e : v) flatten_numbers(e, out, shape, depth + 1, who);
}
}  // namespace

Tensor OpArguments::resolve(const json& v, const std::string& name) const {
  if (is_input_placeholder(v)) {
    const auto i = v["__input__"].get<std::size_t>();
    if (i >= inputs_.size())
      throw ValueError(fmt::format("{}: argument '{}' reads input {}, but the call has {} input(s)", who_, name, i,
                                   inputs_.size()));
    return inputs_[i];
  }
  if (v.is_object() && v.contains("__constant__")) return resolve(v["__constant__"], name);
  if (v.is_object() && (v.value("class_name", "") == "__tensor__" || v.value("class_name", "") == "__numpy__"))
    return resolve(v.at("config").at("value"), name);
  if (v.is_array() && v.size() == 1 && is_input_placeholder(v[0])) return resolve(v[0], name);  // [x] for x
  if (v.is_null()) throw ValueError(fmt::format("{} needs the argument '{}'", who_, name));
  std::vector<float> values;
  Shape shape;
  flatten_numbers(v, values, shape, 0, fmt::format("{}, argument '{}'", who_, name));
  return Tensor::from_vector(values, shape);
}

Tensor OpArguments::tensor(const std::string& name) const { return resolve(value(name), name); }

std::vector<Tensor> OpArguments::tensors(const std::string& name) const {
  const json& v = value(name);
  std::vector<Tensor> out;
  if (v.is_array() && !v.empty() && (is_input_placeholder(v[0]) || v[0].is_object()))
    for (const auto& e : v) out.push_back(resolve(e, name));
  else
    out.push_back(resolve(v, name));
  return out;
}

int OpArguments::integer(const std::string& name, int fallback) const {
  const json& v = value(name);
  if (v.is_null()) return fallback;
  if (v.is_array() && v.size() == 1 && v[0].is_number_integer()) return v[0].get<int>();
  if (!v.is_number_integer()) throw ValueError(fmt::format("{}: argument '{}' should be an integer, got {}", who_, name, v.dump()));
  return v.get<int>();
}

std::vector<int> OpArguments::integers(const std::string& name) const {
  const json& v = value(name);
  if (v.is_null()) return {};
  if (v.is_number_integer()) return {v.get<int>()};
  std::vector<int> out;
  if (v.is_array())
    for (const auto& e : v) {
      if (!e.is_number_integer()) break;
      out.push_back(e.get<int>());
    }
  if (!v.is_array() || out.size() != v.size())
    throw ValueError(fmt::format("{}: argument '{}' should be an integer or a list of integers, got {}", who_, name,
                                 v.dump()));
  return out;
}

bool OpArguments::flag(const std::string& name, bool fallback) const {
  const json& v = value(name);
  if (v.is_null()) return fallback;
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer()) return v.get<int>() != 0;
  throw ValueError(fmt::format("{}: argument '{}' should be a boolean, got {}", who_, name, v.dump()));
}

// ---- OpLayer ----

OpLayer::OpLayer(const std::string& name, const std::string& default_prefix, bool trainable)
    : Layer(name, default_prefix, trainable),
      args_(std::make_shared<const json>(json::array({input_placeholder(0)}))),
      kwargs_(std::make_shared<const json>(json::object())) {}

json OpLayer::entry_keys() const { return json::object(); }

std::vector<OpTensorRef> OpLayer::tensor_refs(const json& node) { return parse_node(node).refs; }

void OpLayer::set_call_arguments(const json& node) {
  Parsed p = parse_node(node);
  if (has_arguments_ && (p.args != *args_ || p.kwargs != *kwargs_))
    throw ValueError(who() + " is called twice with different arguments (" + args_->dump() + " " + kwargs_->dump() +
                     ", then " + p.args.dump() + " " + p.kwargs.dump() + "); an op layer holds one set of arguments");
  set_call_arguments(std::move(p.args), std::move(p.kwargs), p.form);
}

void OpLayer::set_call_arguments(json args, json kwargs, NodeForm form) {
  if (!args.is_array() || !kwargs.is_object())
    throw ValueError(who() + ": the call arguments should be a list and an object");
  if (form == NodeForm::keras2 && args.size() != 1)
    throw ValueError(who() + ": tf.keras 2.x nodes hold one positional argument (the rest are keyword arguments)");
  args_ = std::make_shared<const json>(std::move(args));
  kwargs_ = std::make_shared<const json>(std::move(kwargs));
  form_ = form;
  has_arguments_ = true;
}

json OpLayer::keras3_node(const json& args, const json& kwargs, const std::vector<KerasTensor>& inputs,
                          const std::vector<json>& refs) const {
  auto tensor = [&](const json& p) {
    const auto i = p["__input__"].get<std::size_t>();
    if (i >= refs.size())
      throw ValueError(who() + ": its arguments read input " + std::to_string(i) + " of " + std::to_string(refs.size()));
    json shape = i < inputs.size() ? shape_json(inputs[i].shape()) : json(nullptr);
    std::string dtype = i < inputs.size() ? dtype_name(inputs[i].dtype()) : "float32";
    return json{{"class_name", "__keras_tensor__"},
                {"config", {{"shape", shape}, {"dtype", dtype}, {"keras_history", refs[i]}}}};
  };
  return {{"args", map_refs(args, is_input_placeholder, tensor)}, {"kwargs", map_refs(kwargs, is_input_placeholder, tensor)}};
}

json OpLayer::node_config(const std::vector<KerasTensor>& inputs, const std::vector<json>& refs) const {
  if (form_ == NodeForm::keras3) return keras3_node(*args_, *kwargs_, inputs, refs);
  auto ref = [&](const json& p) -> const json& {
    const auto i = p["__input__"].get<std::size_t>();
    if (i >= refs.size()) throw ValueError(who() + ": its arguments read input " + std::to_string(i) + " of " +
                                           std::to_string(refs.size()));
    return refs[i];
  };
  json kwargs = map_refs(*kwargs_, is_input_placeholder, [&](const json& p) { return ref(p); });
  auto is_leaf = [](const json& v) { return is_input_placeholder(v) || (v.is_object() && v.contains("__constant__")); };
  json first = map_refs(args_->at(0), is_leaf, [&](const json& v) {
    if (v.contains("__constant__")) return json::array({kConstant, -1, v["__constant__"], kwargs});
    json r = ref(v);
    r.push_back(kwargs);
    return r;
  });
  return first;
}

void OpLayer::set_keras3_call(std::string op_class, json args) {
  keras3_op_ = std::move(op_class);
  keras3_args_ = std::make_shared<const json>(std::move(args));
}

json OpLayer::keras3_entry(const std::vector<KerasTensor>& inputs, const std::vector<json>& refs) const {
  if (keras3_op_.empty()) throw ValueError(who() + " has no Keras 3 form");
  return {{"module", "keras.src.ops.numpy"}, {"class_name", keras3_op_}, {"config", {{"name", name()}}},
          {"registered_name", keras3_op_}, {"name", name()},
          {"inbound_nodes", json::array({keras3_node(*keras3_args_, json::object(), inputs, refs)})}};
}

std::string OpLayer::who() const { return "Layer '" + name() + "' (" + class_name() + ")"; }

std::vector<Tensor> OpLayer::call(const std::vector<Tensor>& inputs, const CallContext&) { return {evaluate(inputs)}; }

std::vector<Shape> OpLayer::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  autodiff::NoGradScope no_grad;
  Shape a, b;
  for (int probe : {2, 3}) {
    std::vector<Tensor> zeros;
    for (Shape s : input_shapes) {
      for (auto& d : s)
        if (d < 0) d = probe;
      zeros.push_back(Tensor::zeros(s));
    }
    Shape out;
    try {
      out = evaluate(zeros).shape();
    } catch (const Error& e) {
      std::string shapes;
      for (const auto& s : input_shapes) shapes += (shapes.empty() ? "" : ", ") + shape_str(s);
      throw ValueError(fmt::format("{} cannot run on inputs of shape {}: {}", who(), shapes, e.what()));
    }
    (probe == 2 ? a : b) = out;
  }
  if (a.size() != b.size()) throw ValueError(who() + ": the output rank depends on the unknown input dimensions");
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) a[i] = -1;
  return {a};
}

}  // namespace keras::layers
