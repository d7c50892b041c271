#include "keras/model.hpp"


#include <algorithm>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "keras/config/codec.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/functional_graph.hpp"

namespace keras {

Model::Model(const std::string& name) : Model(name, "model") {}
Model::Model(const std::string& name, const std::string& default_prefix) : Layer(name, default_prefix) {
  strict_input_shape_ = true;
}

Model::Model(const KerasTensor& input, const KerasTensor& output, const std::string& name)
    : Model(std::vector<KerasTensor>{input}, output, name) {}

Model::Model(const std::vector<KerasTensor>& inputs, const KerasTensor& output, const std::string& name)
    : Model(inputs, std::vector<KerasTensor>{output}, name) {}

Model::Model(const KerasTensor& input, const std::vector<KerasTensor>& outputs, const std::string& name)
    : Model(std::vector<KerasTensor>{input}, outputs, name) {}

Model::Model(const std::vector<KerasTensor>& inputs, const std::vector<KerasTensor>& outputs, const std::string& name)
    : Model(name, "model") {
  graph_ = std::make_shared<FunctionalGraph>(inputs, outputs, this->name());
  // The layers were built when they were called on the symbolic inputs.
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  if (shapes.size() == 1) set_batch_input_shape(shapes[0]);
  ensure_built(shapes);
}

std::string Model::class_name() const { return graph_ ? "Functional" : "Model"; }

std::vector<LayerPtr> Model::layers() const { return graph_ ? graph_->layers() : tracked_; }

bool Model::stateful() const {
  const auto all = layers();
  return std::any_of(all.begin(), all.end(), [](const LayerPtr& l) { return l->stateful(); });
}

void Model::reset_states() {
  for (const auto& l : layers())
    if (l->stateful()) l->reset_states();
}

json Model::get_config() const {
  if (!graph_) return Layer::get_config();  // a subclassed model has no architecture config (as in Keras)
  return graph_->get_config(name());
}

std::shared_ptr<Layer> Model::from_config(const json& config) {
  if (!config.contains("layers") || !config.contains("input_layers") || !config.contains("output_layers"))
    throw ValueError("A Model/Functional config needs \"layers\", \"input_layers\" and \"output_layers\"; "
                     "a subclassed model must be registered under its own class name to be loaded");
  auto endpoints = FunctionalGraph::from_config(config);
  auto model = std::make_shared<Model>(endpoints.inputs, endpoints.outputs, config::value_or(config, "name", std::string()));
  model->graph()->set_forms(std::move(endpoints.input_form), std::move(endpoints.output_form));
  return model;
}

std::vector<Tensor> Model::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (graph_) return graph_->run(inputs, context);
  return Layer::call(inputs, context);  // a subclassed model's call(inputs, training)
}

Tensor Model::call(const Tensor& inputs, bool training) {
  if (graph_) return call(std::vector<Tensor>{inputs}, CallContext{.training = training})[0];
  throw ValueError("Model '" + name() + "' has no call(): a subclassed model must override "
                   "Tensor call(const Tensor& inputs, bool training)");
}

std::vector<Shape> Model::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  if (!graph_) return Layer::compute_output_shape(input_shapes);
  std::vector<Shape> out;
  for (const auto& t : graph_->outputs()) out.push_back(t.shape());
  return out;
}

Shape Model::compute_output_shape(const Shape& input_shape) const {
  return graph_ ? graph_->outputs()[0].shape() : input_shape;
}

void Model::build(const Shape& input_shape) { build(std::vector<Shape>{input_shape}); }

void Model::build(const std::vector<Shape>& input_shapes) {
  if (graph_) return;  // built with its graph
  // A subclassed model builds its layers by running one sample through its call, which also shows how
  // many outputs it has (Keras learns them on the first call).
  std::vector<Tensor> samples;
  for (Shape sample : input_shapes) {
    if (sample.empty()) throw ValueError("Model '" + name() + "' cannot be built for a scalar input shape");
    for (auto& d : sample)
      if (d < 0) d = 1;
    samples.push_back(Tensor::zeros(sample));
  }
  autodiff::NoGradScope no_grad;
  output_count_ = call(samples, CallContext{}).size();
}

std::vector<KerasTensor> Model::inputs() const { return graph_ ? graph_->inputs() : std::vector<KerasTensor>{}; }
std::vector<KerasTensor> Model::outputs() const { return graph_ ? graph_->outputs() : std::vector<KerasTensor>{}; }

DType Model::output_dtype() const {
  const auto outs = outputs();
  return outs.empty() ? DType::float32 : outs.front().dtype();
}

std::vector<std::string> Model::input_names() const {
  if (!graph_) return {"input_1"};
  std::vector<std::string> out;
  for (const auto& t : graph_->inputs()) out.push_back(t.node()->layer->name());
  return out;
}

std::optional<std::size_t> Model::output_count() const {
  if (graph_) return graph_->outputs().size();
  return output_count_;
}

std::vector<std::string> Model::output_names() const {
  if (!graph_) {
    // tf.keras 2.x names a subclassed model's outputs output_1, output_2, ...
    std::vector<std::string> out;
    for (std::size_t i = 0; i < output_count_.value_or(1); ++i) out.push_back(fmt::format("output_{}", i + 1));
    return out;
  }
  // tf.keras 2.x: a repeated layer name gets "_1", "_2", ... appended.
  std::vector<std::string> out;
  std::map<std::string, int> count;
  for (const auto& t : graph_->outputs()) {
    const std::string& base = t.node()->layer->name();
    std::string proposal = base;
    while (std::find(out.begin(), out.end(), proposal) != out.end()) {
      int& n = count.try_emplace(base, 1).first->second;
      proposal = base + "_" + std::to_string(n++);
    }
    out.push_back(proposal);
  }
  return out;
}

LayerPtr Model::get_layer(const std::string& name) const {
  std::string names;
  for (const auto& l : layers()) {
    if (l->name() == name) return l;
    names += (names.empty() ? "" : ", ") + l->name();
  }
  throw ValueError("No such layer: '" + name + "' in model '" + this->name() + "'. Existing layers are: " + names);
}

namespace {
std::string fmt_count(std::int64_t n) {
  std::string s = std::to_string(n), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return out;
}

std::string row(const std::vector<std::string>& fields) {
  const std::size_t positions[] = {29, 55, 65};  // Keras 2: line_length 65 at .45 / .85 / 1.0
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0 && !line.empty()) line.back() = ' ';
    line += (i == 0 ? " " : "") + fields[i];
    if (line.size() > positions[i]) line.resize(positions[i]);
    line += std::string(positions[i] - line.size(), ' ');
  }
  return line;
}
}  // namespace

void Model::summary(std::ostream& out) const {
  if (graph_) return summary_functional(out);
  summary_layers(out);
}

void Model::summary_layers(std::ostream& out) const {
  if (!built() && !batch_input_shape())
    throw ValueError("This model (\"" + name() + "\") has not yet been built. Build the model first by calling "
                     "build(input_shape), by calling it on a batch of data, or by starting it with layers::Input(shape)");
  out << "Model: \"" << name() << "\"\n";
  out << std::string(65, '_') << '\n';
  out << row({"Layer (type)", "Output Shape", "Param #"}) << '\n';
  out << std::string(65, '=') << '\n';
  const auto ls = layers();
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const auto& l = ls[i];
    std::string shape = "multiple";
    if (graph_) {
      const auto shapes = graph_->output_shapes_of(l);
      if (shapes.size() == 1) shape = shape_str(shapes[0]);
    } else if (l->built_input_shape()) {
      shape = shape_str(l->output_shape());
    }
    out << row({l->name() + " (" + l->class_name() + ")", shape, std::to_string(l->count_params())}) << '\n';
    if (i + 1 < ls.size()) out << std::string(65, ' ') << '\n';
  }
  out << std::string(65, '=') << '\n';
  std::int64_t trainable = 0, frozen = 0;
  for (const auto& w : trainable_weights()) trainable += shape_size(w->shape());
  for (const auto& w : non_trainable_weights()) frozen += shape_size(w->shape());
  out << "Total params: " << fmt_count(trainable + frozen) << '\n';
  out << "Trainable params: " << fmt_count(trainable) << '\n';
  out << "Non-trainable params: " << fmt_count(frozen) << '\n';
  out << std::string(65, '_') << '\n';
}

void Model::summary() const { summary(std::cout); }

namespace {
// Keras 2's functional table: line_length 98, columns at .33 / .55 / .67 / 1.0.
std::string functional_row(const std::vector<std::string>& fields) {
  const std::size_t positions[] = {32, 53, 65, 98};
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0 && !line.empty()) line.back() = ' ';
    line += (i == 0 ? " " : "") + fields[i];
    if (line.size() > positions[i]) line.resize(positions[i]);
    line += std::string(positions[i] - line.size(), ' ');
  }
  return line;
}
}  // namespace

void Model::summary_functional(std::ostream& out) const {
  const std::string rule(98, '_'), double_rule(98, '=');
  out << "Model: \"" << name() << "\"\n" << rule << '\n';
  out << functional_row({"Layer (type)", "Output Shape", "Param #", "Connected to"}) << '\n' << double_rule << '\n';
  const auto ls = layers();
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const auto& l = ls[i];
    const bool is_input = l->class_name() == "InputLayer";
    std::string shape;
    if (is_input) {
      shape = fmt::format("[{}]", shape_str(*l->batch_input_shape()));
    } else {
      const auto shapes = graph_->output_shapes_of(l);
      for (std::size_t k = 0; k < shapes.size(); ++k) shape += (k ? ", " : "") + shape_str(shapes[k]);
      if (shapes.size() != 1) shape = "[" + shape + "]";
    }
    std::string connected = "[";
    for (const auto& source : graph_->connected_to(l)) {
      if (connected.size() > 1) connected += ", ";
      connected += fmt::format("'{}'", source);
    }
    connected += "]";
    out << functional_row({l->name() + " (" + l->class_name() + ")", shape, std::to_string(l->count_params()), connected})
        << '\n';
    if (i + 1 < ls.size()) out << std::string(98, ' ') << '\n';
  }
  out << double_rule << '\n';
  std::int64_t trainable = 0, frozen = 0;
  for (const auto& w : trainable_weights()) trainable += shape_size(w->shape());
  for (const auto& w : non_trainable_weights()) frozen += shape_size(w->shape());
  out << "Total params: " << fmt_count(trainable + frozen) << '\n';
  out << "Trainable params: " << fmt_count(trainable) << '\n';
  out << "Non-trainable params: " << fmt_count(frozen) << '\n' << rule << '\n';
}

std::shared_ptr<Layer> Model::move_to_shared() && {
  if (typeid(*this) != typeid(Model)) throw_not_movable();
  return std::make_shared<Model>(std::move(*this));
}

namespace {
const bool registered = register_class<Layer, Model>("Functional", {"Model"});
}

}  // namespace keras
