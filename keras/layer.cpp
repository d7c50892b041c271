#include "keras/layer.hpp"


#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <unordered_set>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/codec.hpp"
#include "keras/config/dtype_policy.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/profiler/trace_hooks.hpp"

namespace keras {

namespace backend {
namespace {
std::mutex name_mutex;
std::map<std::string, int>& counters() {
  static std::map<std::string, int> c;
  return c;
}
}  // namespace

std::string unique_name(const std::string& prefix, bool zero_based) {
  std::lock_guard lock(name_mutex);
  int& n = counters()[prefix];
  const std::string name = (n == 0 && zero_based) ? prefix : prefix + "_" + std::to_string(zero_based ? n : n + 1);
  ++n;
  return name;
}

void clear_session() {
  std::lock_guard lock(name_mutex);
  counters().clear();
}
}  // namespace backend

std::string to_snake_case(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      const bool prev_lower = i > 0 && (std::islower(static_cast<unsigned char>(s[i - 1])) || std::isdigit(static_cast<unsigned char>(s[i - 1])));
      const bool next_lower = i + 1 < s.size() && std::islower(static_cast<unsigned char>(s[i + 1]));
      const bool prev_upper = i > 0 && std::isupper(static_cast<unsigned char>(s[i - 1]));
      if (i > 0 && (prev_lower || (prev_upper && next_lower)) && !std::isdigit(static_cast<unsigned char>(s[i - 1])))
        out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

Layer::Layer(const std::string& name, const std::string& default_prefix, bool trainable)
    : name_(name.empty() ? backend::unique_name(default_prefix) : name), trainable_(trainable) {}

void Layer::build(const Shape&) {}

namespace {
ValueError one_input_error(const Layer& layer, std::size_t count) {
  return ValueError("Layer \"" + layer.name() + "\" (" + layer.class_name() +
                    ") expects one input, but it was called on " + std::to_string(count) + " inputs");
}
}  // namespace

void Layer::build(const std::vector<Shape>& input_shapes) {
  if (input_shapes.size() != 1) throw one_input_error(*this, input_shapes.size());
  build(input_shapes[0]);
}

Tensor Layer::call(const Tensor&, bool) {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") has no call(): override Tensor call(const Tensor& "
                   "inputs, bool training), or std::vector<Tensor> call(const std::vector<Tensor>& inputs, const "
                   "CallContext& context) for several inputs or outputs");
}

std::vector<Tensor> Layer::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (inputs.size() != 1) throw one_input_error(*this, inputs.size());
  return {call(inputs[0], context.training)};
}

std::vector<Shape> Layer::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  if (input_shapes.size() != 1) throw one_input_error(*this, input_shapes.size());
  return {compute_output_shape(input_shapes[0])};
}

Tensor Layer::compute_mask(const Tensor&, const Tensor& mask) const { return supports_masking_ ? mask : Tensor(); }

std::vector<Tensor> Layer::compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const {
  if (inputs.size() != 1) return {};
  return {compute_mask(inputs[0], masks.empty() ? Tensor() : masks[0])};
}

void Layer::ensure_built(const Shape& input_shape) { ensure_built(std::vector<Shape>{input_shape}); }

void Layer::ensure_built(const std::vector<Shape>& input_shapes) {
  if (built_) return;
  std::vector<Shape> shapes = input_shapes;
  const bool keep_batch = stateful();  // a stateful layer keeps one state per sample: its batch size is fixed
  for (auto& s : shapes)
    if (!s.empty() && !keep_batch) s[0] = -1;
  build(shapes);
  if (shapes.size() == 1) built_input_shape_ = shapes[0];
  built_ = true;
}

namespace {
// The one output of a call through operator(), or an error pointing to call_all().
template <class T>
const T& only_output(const Layer& layer, const std::vector<T>& outputs) {
  if (outputs.size() != 1)
    throw ValueError("Layer \"" + layer.name() + "\" (" + layer.class_name() + ") returns " +
                     std::to_string(outputs.size()) + " outputs; call_all() gives each of them");
  return outputs[0];
}
}  // namespace

Tensor Layer::operator()(const Tensor& inputs, bool training) {
  return only_output(*this, call_all(std::vector<Tensor>{inputs}, CallContext{.training = training}));
}

Tensor Layer::operator()(const std::vector<Tensor>& inputs, bool training) {
  return only_output(*this, call_all(inputs, CallContext{.training = training}));
}

std::vector<Tensor> Layer::call_all(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (inputs.empty()) throw ValueError("Layer '" + name_ + "' was called on an empty list of tensors");
  std::vector<Shape> shapes;
  for (const auto& t : inputs) {
    if (!t.defined()) throw ValueError("Layer '" + name_ + "' was called on an undefined tensor");
    if (t.dtype() == DType::string && !accepts_strings()) throw_string_input(shapes.size());
    shapes.push_back(t.shape());
  }
  if (built_ && shapes.size() == 1) check_built_shape(shapes[0]);
  ensure_built(shapes);
  std::vector<Tensor> out = run_call(inputs, context);
  if (out.empty()) throw ValueError("Layer '" + name_ + "' (" + class_name() + ") returned no outputs");
  return out;
}

KerasTensor Layer::operator()(const KerasTensor& input) & { return (*this)(std::vector<KerasTensor>{input}); }
KerasTensor Layer::operator()(const std::vector<KerasTensor>& inputs) & { return only_output(*this, call_all(inputs)); }
KerasTensor Layer::operator()(const KerasTensor& input) && { return std::move(*this)(std::vector<KerasTensor>{input}); }
KerasTensor Layer::operator()(const std::vector<KerasTensor>& inputs) && {
  // The layer may be moved into the graph; the error names the layer still held by the graph's node.
  std::vector<KerasTensor> out = std::move(*this).call_all(inputs);
  return only_output(*out.at(0).node()->layer, out);
}

std::vector<KerasTensor> Layer::call_all(const std::vector<KerasTensor>& inputs) && {
  if (!weak_from_this().expired()) return call_all(inputs);
  return std::move(*this).move_to_shared()->call_all(inputs);  // a temporary joins the graph
}

std::shared_ptr<Layer> Layer::move_to_shared() && { throw_not_movable(); }

void Layer::throw_string_input(std::size_t index) const {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") received input " + std::to_string(index) +
                   " of dtype string, but it computes on numbers; turn the strings into numbers first (StringLookup, "
                   "TextVectorization or Hashing)");
}

void Layer::throw_not_movable() const {
  throw ValueError("Layer '" + name_ + "' (" + class_name() + ") cannot be moved into a functional graph: its class "
                   "body needs a last line KERAS_LAYER(" + class_name() + ") of its own and its source file a line "
                   "KERAS_REGISTER_LAYER(" + class_name() + "); or hold the layer in a "
                   "std::shared_ptr (std::make_shared<...>(...))");
}

std::vector<KerasTensor> Layer::call_all(const std::vector<KerasTensor>& inputs) & {
  std::shared_ptr<Layer> self = weak_from_this().lock();
  if (!self)
    throw ValueError("Layer '" + name_ + "' must be held by a std::shared_ptr to be called on symbolic tensors "
                     "(create it with std::make_shared<...>(...), or call a temporary: layers::Dense(8)(x))");
  if (inputs.empty()) throw ValueError("Layer '" + name_ + "' was called on an empty list of symbolic tensors");
  std::vector<Shape> shapes;
  for (const auto& t : inputs) {
    if (!t.defined()) throw ValueError("Layer '" + name_ + "' was called on an undefined KerasTensor");
    if (t.dtype() == DType::string && !accepts_strings()) throw_string_input(shapes.size());
    shapes.push_back(t.shape());
  }
  ensure_built(shapes);
  auto node = std::make_shared<Node>(Node{self, inputs, compute_output_shape(shapes)});
  const DType dtype = output_dtype();
  std::vector<KerasTensor> out;
  for (std::size_t i = 0; i < node->output_shapes.size(); ++i)
    out.emplace_back(node->output_shapes[i], dtype, node, static_cast<int>(i));
  return out;
}

void Layer::check_built_shape(const Shape& got) const {
  if (!strict_input_shape_ || !built_input_shape_) return;
  const Shape& want = *built_input_shape_;
  bool ok = want.size() == got.size();
  for (std::size_t i = 1; ok && i < want.size(); ++i) ok = want[i] < 0 || want[i] == got[i];
  if (!ok)
    throw ValueError("Input 0 of layer \"" + name_ + "\" is incompatible with the layer: expected shape=" +
                     shape_str(want) + ", found shape=" + shape_str(got));
}

namespace {
thread_local int call_depth = 0;  // nesting of Layer calls on this thread
}

std::vector<Tensor> Layer::run_call(const std::vector<Tensor>& inputs, const CallContext& context) {
  if (call_depth == 0) clear_losses();
  struct Depth {
    Depth() { ++call_depth; }
    ~Depth() { --call_depth; }
  } depth;
  profiler::Scope scope(name_);  // the layer's name scope while a tracer listens (keras/profiler)
  if (scope.listener())
    for (const auto& w : own_weights_) scope.listener()->variable(w->value(), w->name());
  std::vector<Tensor> out = call(inputs, context);
  if (activity_regularizer_ && !out.empty() && out[0].defined()) {
    // As tf.keras 2.x: the penalty of the output, divided by the batch size.
    const float batch = out[0].ndim() > 0 ? static_cast<float>(out[0].dim(0)) : 1.f;
    add_loss((*activity_regularizer_)(out[0]) / batch);
  }
  return out;
}

void Layer::add_loss(const Tensor& loss) { added_losses_.push_back(loss); }

void Layer::clear_losses() {
  added_losses_.clear();
  for (const auto& l : sublayers()) l->clear_losses();
}

std::vector<Tensor> Layer::losses() const {
  std::vector<Tensor> out;
  std::vector<const Layer*> seen;
  collect_losses(out, seen);
  return out;
}

void Layer::collect_losses(std::vector<Tensor>& out, std::vector<const Layer*>& seen) const {
  if (std::find(seen.begin(), seen.end(), this) != seen.end()) return;  // a shared layer counts once
  seen.push_back(this);
  out.insert(out.end(), added_losses_.begin(), added_losses_.end());
  for (const auto& [var, reg] : weight_regularizers_) out.push_back((*reg)(var->value()));
  for (const auto& l : sublayers()) l->collect_losses(out, seen);
}

json Layer::get_config() const {
  json c{{"name", name_}, {"trainable", trainable_}, {"dtype", "float32"}};
  if (batch_input_shape_) {
    json s = json::array();
    for (auto d : *batch_input_shape_) s.push_back(d < 0 ? json(nullptr) : json(d));
    c["batch_input_shape"] = s;
  }
  return c;
}

// Null means the default for every base field; "trainable" may be 1/0; "dtype" may be a policy object.
void Layer::read_base_config(const json& c) {
  if (auto t = c.find("trainable"); t != c.end() && !t->is_null()) set_trainable(config::value_or(c, "trainable", true));
  if (auto d = c.find("dtype"); d != c.end()) config::dtype_policy_name(*d);  // validated; computed in float32
  const char* key = c.contains("batch_input_shape") && !c["batch_input_shape"].is_null() ? "batch_input_shape"
                                                                                         : "batch_shape";
  if (c.contains(key) && !c[key].is_null()) {
    if (!c[key].is_array())
      throw ValueError("Config field \"" + std::string(key) + "\" = " + c[key].dump() +
                       ": expected a list of sizes (null for an unknown size)");
    Shape s;
    for (const auto& d : c[key]) {
      if (!d.is_null() && !d.is_number())
        throw ValueError("Config field \"" + std::string(key) + "\" = " + c[key].dump() + ": sizes must be integers or null");
      s.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
    }
    batch_input_shape_ = s;
  }
}

std::shared_ptr<Layer> Layer::deserialize(const json& config) {
  return Registry<Layer>::instance().deserialize(config, "layer");
}

std::shared_ptr<Variable> Layer::add_weight(const std::string& name, const Shape& shape,
                                            const initializers::InitializerRef& initializer, bool trainable,
                                            const regularizers::RegularizerRef& regularizer,
                                            const constraints::ConstraintRef& constraint) {
  autodiff::NoGradScope no_grad;
  auto v = std::make_shared<Variable>(name, (*initializer)(shape), trainable && trainable_);
  if (constraint) v->set_constraint(constraint.ptr());
  if (regularizer) weight_regularizers_.emplace_back(v, regularizer.ptr());
  own_weights_.push_back(v);
  own_weight_trainable_.push_back(trainable);
  return v;
}

std::vector<std::shared_ptr<Variable>> Layer::weights() const {
  std::vector<std::shared_ptr<Variable>> out = own_weights_;
  std::unordered_set<const Variable*> seen;
  for (const auto& w : out) seen.insert(w.get());
  for (const auto& l : sublayers())
    for (const auto& w : l->weights())
      if (seen.insert(w.get()).second) out.push_back(w);  // shared layers count once
  return out;
}

std::vector<std::shared_ptr<Variable>> Layer::trainable_weights() const {
  std::vector<std::shared_ptr<Variable>> out;
  for (const auto& w : weights())
    if (w->trainable()) out.push_back(w);
  return out;
}

std::vector<std::shared_ptr<Variable>> Layer::non_trainable_weights() const {
  std::vector<std::shared_ptr<Variable>> out;
  for (const auto& w : weights())
    if (!w->trainable()) out.push_back(w);
  return out;
}

std::vector<Tensor> Layer::get_weights() const {
  std::vector<Tensor> out;
  for (const auto& w : weights()) out.push_back(w->numpy());
  return out;
}

void Layer::set_weights(const std::vector<Tensor>& values) {
  auto ws = weights();
  if (values.size() != ws.size())
    throw ValueError("Layer '" + name_ + "' expects " + std::to_string(ws.size()) + " weights, but set_weights got " +
                     std::to_string(values.size()));
  for (std::size_t i = 0; i < ws.size(); ++i) {
    if (values[i].shape() != ws[i]->shape())
      throw ValueError("Layer '" + name_ + "' weight " + std::to_string(i) + " ('" + ws[i]->name() + "') has shape " +
                       shape_str(ws[i]->shape()) + ", but set_weights got " + shape_str(values[i].shape()));
  }
  for (std::size_t i = 0; i < ws.size(); ++i) ws[i]->assign(values[i]);
}

std::int64_t Layer::count_params() const {
  std::int64_t n = 0;
  for (const auto& w : weights()) n += shape_size(w->shape());
  return n;
}

void Layer::set_trainable(bool trainable) {
  trainable_ = trainable;
  for (std::size_t i = 0; i < own_weights_.size(); ++i) own_weights_[i]->set_trainable(trainable && own_weight_trainable_[i]);
  for (const auto& l : sublayers()) l->set_trainable(trainable);
}

Tensor Layer::call_with_epilogue(const Tensor&, const Epilogue&) {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") cannot run a fused epilogue (takes_epilogue() is false)");
}

Tensor Layer::call_without_relu(const Tensor&) {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") has no relu to leave out (defers_relu() is false)");
}

Tensor Layer::train_with_epilogue(const Tensor&, const Epilogue&) {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") cannot train with a fused epilogue "
                   "(trains_with_epilogue() is false)");
}

void Layer::reset_states() {
  throw ValueError("Layer \"" + name_ + "\" (" + class_name() + ") is not stateful: reset_states() applies to recurrent "
                   "layers made with stateful=true and to models holding them");
}

Shape Layer::output_shape() const {
  if (!built_input_shape_) throw ValueError("Layer '" + name_ + "' has no defined output shape: it is not built yet");
  return compute_output_shape(std::vector<Shape>{*built_input_shape_}).at(0);
}

}  // namespace keras
