#include "layers/recurrent/bidirectional.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"

namespace keras::layers {

// No fields beyond the base layer's: merge_mode is written by hand (Keras writes "none" as None), the
// wrapped layer as a nested config.
KERAS_FIELDS(BidirectionalOptions)

namespace {

std::shared_ptr<RNN> make_direction(const std::string& class_name, json config, const std::string& prefix,
                                    bool flip) {
  // Keras 3 writes the wrapped layer as the forward one ("forward_lstm"): the directions are named from "lstm".
  std::string name = config.value("name", std::string("rnn"));
  if (name.rfind("forward_", 0) == 0) name = name.substr(8);
  config["name"] = prefix + name;
  if (flip) config["go_backwards"] = !config.value("go_backwards", false);
  // As Keras: each direction outputs zeros at masked steps when it returns sequences.
  config["zero_output_for_mask"] = config.value("return_sequences", false);
  config.erase("batch_input_shape");
  auto layer = std::dynamic_pointer_cast<RNN>(Layer::deserialize({{"class_name", class_name}, {"config", config}}));
  if (!layer) throw ValueError("Bidirectional needs a recurrent layer (LSTM, GRU, SimpleRNN, RNN), got " + class_name);
  return layer;
}

}  // namespace

Bidirectional::Bidirectional(const LayerRef& layer, BidirectionalOptions options)
    : Layer(options, "bidirectional"), merge_mode_(options.merge_mode) {
  const LayerPtr& l = layer.ptr();
  if (!l || !std::dynamic_pointer_cast<RNN>(l))
    throw ValueError("Bidirectional needs a recurrent layer (LSTM, GRU, SimpleRNN, RNN), got " +
                     (l ? l->class_name() : std::string("null")));
  if (merge_mode_ != "concat" && merge_mode_ != "sum" && merge_mode_ != "mul" && merge_mode_ != "ave" &&
      merge_mode_ != "none")
    throw ValueError("Invalid merge mode. Merge mode should be one of {\"sum\", \"mul\", \"ave\", \"concat\", \"none\"}, "
                     "received " + merge_mode_);
  layer_class_ = l->class_name();
  layer_config_ = std::make_shared<const json>(l->get_config());
  if (l->batch_input_shape() && options.input_shape.empty()) set_batch_input_shape(*l->batch_input_shape());
  forward_ = make_direction(layer_class_, *layer_config_, "forward_", false);
  backward_ = make_direction(layer_class_, *layer_config_, "backward_", true);
  supports_masking_ = true;
}

void Bidirectional::build(const Shape& input_shape) {
  forward_->ensure_built(input_shape);
  backward_->ensure_built(input_shape);
}

std::vector<Tensor> Bidirectional::call_both(const Tensor& inputs, const Tensor& mask, bool training) {
  ensure_built(inputs.shape());
  const auto f = forward_->call_with_state(inputs, {}, mask, training);
  const auto b = backward_->call_with_state(inputs, {}, mask, training);
  return {f[0], backward_->rnn_options().return_sequences ? ops::reverse_time(b[0]) : b[0]};
}

std::vector<Tensor> Bidirectional::merged_outputs(const Tensor& forward, Tensor backward) const {
  if (backward_->rnn_options().return_sequences) backward = ops::reverse_time(backward);
  if (merge_mode_ == "none") return {forward, backward};
  if (merge_mode_ == "concat") return {ops::concat_last({forward, backward})};
  if (merge_mode_ == "sum") return {ops::add(forward, backward)};
  if (merge_mode_ == "mul") return {ops::multiply(forward, backward)};
  return {ops::multiply(ops::add(forward, backward), Tensor::scalar(0.5f))};  // "ave"
}

std::vector<Tensor> Bidirectional::call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state,
                                                   const Tensor& mask, bool training) {
  if (!inputs.defined()) throw ValueError("Layer '" + name() + "' was called on an undefined tensor");
  ensure_built(inputs.shape());
  std::size_t per_direction = 0;
  for (const auto& c : forward_->cells()) per_direction += static_cast<std::size_t>(c->state_count());
  if (!initial_state.empty() && initial_state.size() != 2 * per_direction)
    throw ValueError(fmt::format("Layer \"{}\" (Bidirectional) got {} initial state tensors; it needs {}: the {} states "
                                 "of the forward layer, then the {} of the backward layer",
                                 name(), initial_state.size(), 2 * per_direction, per_direction, per_direction));
  std::vector<Tensor> forward_state, backward_state;
  if (!initial_state.empty()) {
    forward_state.assign(initial_state.begin(), initial_state.begin() + static_cast<std::ptrdiff_t>(per_direction));
    backward_state.assign(initial_state.begin() + static_cast<std::ptrdiff_t>(per_direction), initial_state.end());
  }
  const auto f = forward_->call_with_state(inputs, forward_state, mask, training);
  const auto b = backward_->call_with_state(inputs, backward_state, mask, training);
  std::vector<Tensor> out = merged_outputs(f[0], b[0]);
  out.insert(out.end(), f.begin() + 1, f.end());
  out.insert(out.end(), b.begin() + 1, b.end());
  return out;
}

void Bidirectional::reset_states() {
  if (!stateful())
    throw ValueError("Layer \"" + name() + "\" (Bidirectional) is not stateful: reset_states() needs a wrapped layer "
                     "with stateful=true");
  forward_->reset_states();
  backward_->reset_states();
}

void Bidirectional::reset_states(const std::vector<Tensor>& states) {
  if (!stateful())
    throw ValueError("Layer \"" + name() + "\" (Bidirectional) is not stateful: reset_states(states) needs a wrapped "
                     "layer with stateful=true");
  if (states.size() % 2 != 0)
    throw ValueError(fmt::format("Layer \"{}\" (Bidirectional) got {} states; it needs the forward layer's, then as "
                                 "many for the backward layer",
                                 name(), states.size()));
  const auto half = static_cast<std::ptrdiff_t>(states.size() / 2);
  forward_->reset_states({states.begin(), states.begin() + half});
  backward_->reset_states({states.begin() + half, states.end()});
}

std::vector<Tensor> Bidirectional::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  std::vector<Tensor> out =
      call_with_state(inputs.at(0), {inputs.begin() + 1, inputs.end()}, context.mask(0), context.training);
  if (!forward_->rnn_options().return_state) out.resize(merge_mode_ == "none" ? 2 : 1);
  return out;
}

std::vector<Shape> Bidirectional::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  std::vector<Shape> out;
  if (merge_mode_ == "none") out.assign(2, forward_->compute_output_shape(input_shapes.at(0)));
  else out.push_back(compute_output_shape(input_shapes.at(0)));
  if (forward_->rnn_options().return_state)
    for (int direction = 0; direction < 2; ++direction)
      for (const auto& c : forward_->cells())
        for (int i = 0; i < c->state_count(); ++i) out.push_back({input_shapes.at(0).at(0), c->units()});
  return out;
}

std::vector<Tensor> Bidirectional::compute_mask(const std::vector<Tensor>& inputs,
                                                const std::vector<Tensor>& masks) const {
  return {compute_mask(inputs.at(0), masks.empty() ? Tensor() : masks[0])};
}

Tensor Bidirectional::compute_mask(const Tensor&, const Tensor& mask) const {
  return forward_->rnn_options().return_sequences ? mask : Tensor();
}

Shape Bidirectional::compute_output_shape(const Shape& input_shape) const {
  Shape s = forward_->compute_output_shape(input_shape);
  if (merge_mode_ == "concat") s.back() *= 2;
  return s;
}

json Bidirectional::get_config() const {
  json c = Layer::get_config();
  c["layer"] = serialize_object(layer_class_, *layer_config_);
  c["merge_mode"] = merge_mode_ == "none" ? json(nullptr) : json(merge_mode_);
  return c;
}

std::shared_ptr<Layer> Bidirectional::from_config(const json& c) {
  auto o = options_from_config<BidirectionalOptions>(c);
  o.merge_mode = c.contains("merge_mode") && c["merge_mode"].is_string() ? c["merge_mode"].get<std::string>() : "none";
  const json& lc = c.at("layer");
  auto inner = Layer::deserialize(lc);
  auto layer = std::make_shared<Bidirectional>(inner, o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Bidirectional)

}  // namespace keras::layers
