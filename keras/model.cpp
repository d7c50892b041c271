#include "keras/model.hpp"

#include <iostream>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/functional_graph.hpp"
#include "keras/ops/math.hpp"
#include "keras/training/array_batcher.hpp"
#include "keras/training/compiled_metrics.hpp"

namespace keras {

Model::Model(const std::string& name) : Model(name, "model") {}
Model::Model(const std::string& name, const std::string& default_prefix) : Layer(name, default_prefix) {
  strict_input_shape_ = true;
}

Model::Model(const KerasTensor& input, const KerasTensor& output, const std::string& name)
    : Model(std::vector<KerasTensor>{input}, output, name) {}

Model::Model(const std::vector<KerasTensor>& inputs, const KerasTensor& output, const std::string& name)
    : Model(name, "model") {
  graph_ = std::make_shared<FunctionalGraph>(inputs, std::vector<KerasTensor>{output}, this->name());
  // The layers were built when they were called on the symbolic inputs.
  if (inputs.size() == 1) {
    set_batch_input_shape(inputs[0].shape());
    ensure_built(inputs[0].shape());
  } else {
    std::vector<Shape> shapes;
    for (const auto& t : inputs) shapes.push_back(t.shape());
    ensure_built(shapes);
  }
}

std::string Model::class_name() const { return graph_ ? "Functional" : "Model"; }

std::vector<LayerPtr> Model::layers() const { return graph_ ? graph_->layers() : tracked_; }

json Model::get_config() const {
  if (!graph_) return Layer::get_config();  // a subclassed model has no architecture config (as in Keras)
  return graph_->get_config(name());
}

std::shared_ptr<Layer> Model::from_config(const json& config) {
  if (!config.contains("layers") || !config.contains("input_layers") || !config.contains("output_layers"))
    throw ValueError("A Model/Functional config needs \"layers\", \"input_layers\" and \"output_layers\"; "
                     "a subclassed model must be registered under its own class name to be loaded");
  auto [inputs, outputs] = FunctionalGraph::from_config(config);
  if (outputs.size() != 1)
    throw ValueError("Models with " + std::to_string(outputs.size()) + " outputs are not supported yet");
  return std::make_shared<Model>(inputs, outputs[0], config.value("name", ""));
}

Tensor Model::call_multi(const std::vector<Tensor>& inputs, bool training) {
  if (graph_) return graph_->run(inputs, training)[0];
  return Layer::call_multi(inputs, training);
}

Shape Model::compute_output_shape(const Shape& input_shape) const {
  return compute_output_shape_multi({input_shape});
}

Shape Model::compute_output_shape_multi(const std::vector<Shape>& input_shapes) const {
  if (graph_) return graph_->outputs()[0].shape();
  if (input_shapes.size() != 1) return Layer::compute_output_shape_multi(input_shapes);
  return input_shapes[0];
}

Tensor Model::call(const Tensor& inputs, bool training) {
  if (graph_) return graph_->run({inputs}, training)[0];
  throw ValueError("Model '" + name() + "' has no call(): a subclassed model must override "
                   "Tensor call(const Tensor& inputs, bool training)");
}

void Model::build_multi(const std::vector<Shape>& input_shapes) {
  if (graph_) return;  // built with its graph
  Layer::build_multi(input_shapes);
}

void Model::build(const Shape& input_shape) {
  if (graph_) return;  // built with its graph
  // A subclassed model builds its layers by running one sample through call().
  Shape sample = input_shape;
  for (auto& d : sample) {
    if (d < 0) d = 1;
  }
  if (sample.empty()) throw ValueError("Model '" + name() + "' cannot be built for a scalar input shape");
  autodiff::NoGradScope no_grad;
  call(Tensor::zeros(sample), false);
}

void Model::compile(CompileOptions options) {
  if (!options.loss)
    throw ValueError("Model '" + name() + "': compile() needs a loss, e.g. "
                     "{.loss = \"sparse_categorical_crossentropy\"} or a losses:: object");
  if (!options.optimizer) throw ValueError("Model '" + name() + "': compile() needs an optimizer");
  state_ = std::make_shared<TrainingState>(TrainingState{.optimizer = options.optimizer.ptr(),
                                                         .loss = options.loss.ptr(),
                                                         .metrics = CompiledMetrics(options.metrics)});
  compiled_ = true;
}

void Model::check_compiled(const char* what) const {
  if (!compiled_)
    throw ValueError(std::string("You must call compile() before using the model in ") + what + " (model '" +
                     name() + "')");
}

optimizers::Optimizer& Model::optimizer() const {
  check_compiled("optimizer()");
  return *state_->optimizer;
}

losses::Loss& Model::loss() const {
  check_compiled("loss()");
  return *state_->loss;
}

std::vector<std::string> Model::metrics_names() const {
  std::vector<std::string> names{"loss"};
  if (state_)
    for (auto& n : state_->metrics.names()) names.push_back(n);
  return names;
}

Logs Model::current_logs() const {
  Logs logs;
  logs["loss"] = state_->loss_tracker.result();
  state_->metrics.write(logs);
  return logs;
}

void Model::reset_metrics() {
  if (!state_) return;
  state_->loss_tracker.reset_state();
  state_->metrics.reset_state();
}

Tensor Model::compute_loss(const Tensor& x, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight) {
  check_compiled("compute_loss");
  Tensor loss = (*state_->loss)(y, y_pred, sample_weight);
  // As Keras: the layers' losses (regularization penalties, add_loss) join the compiled loss.
  for (const Tensor& extra : losses()) loss = loss + extra;
  state_->loss_tracker.update(loss, Tensor::full({1}, double(x.dim(0))));  // weighted by batch size, as Keras
  return loss;
}

Logs Model::compute_metrics(const Tensor&, const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight) {
  check_compiled("compute_metrics");
  autodiff::NoGradScope no_grad;
  state_->metrics.update_state(y, y_pred, sample_weight, state_->loss->class_name());
  return current_logs();
}

Logs Model::train_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  GradientTape tape;
  Tensor y_pred = (*this)(x, true);
  Tensor loss = compute_loss(x, y, y_pred, sample_weight);
  auto vars = trainable_weights();
  state_->optimizer->apply_gradients(tape.gradient(loss, vars), vars);
  return compute_metrics(x, y, y_pred, sample_weight);
}

Logs Model::test_step(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  Tensor y_pred = (*this)(x, false);
  compute_loss(x, y, y_pred, sample_weight);
  return compute_metrics(x, y, y_pred, sample_weight);
}

Logs Model::train_on_batch(const Tensor& x, const Tensor& y, const Tensor& sample_weight, bool reset) {
  check_compiled("train_on_batch");
  check_same_samples(x, y, sample_weight);
  Logs logs = train_step(x, y, sample_weight);
  if (reset) reset_metrics();
  return logs;
}

Logs Model::test_on_batch(const Tensor& x, const Tensor& y, const Tensor& sample_weight, bool reset) {
  check_compiled("test_on_batch");
  check_same_samples(x, y, sample_weight);
  Logs logs = test_step(x, y, sample_weight);
  if (reset) reset_metrics();
  return logs;
}

Tensor Model::predict_on_batch(const Tensor& x) {
  autodiff::NoGradScope no_grad;
  return (*this)(x, false);
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
    const std::string shape = l->built_input_shape() ? shape_str(l->output_shape()) : "multiple";
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
    const std::string shape = is_input ? fmt::format("[{}]", shape_str(*l->batch_input_shape())) : shape_str(l->output_shape());
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

namespace {
const bool registered = register_class<Layer, Model>("Functional", {"Model"});
}

}  // namespace keras
