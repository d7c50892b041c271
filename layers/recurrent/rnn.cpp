#include "layers/recurrent/rnn.hpp"

#include <random>
#include <type_traits>

#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"
#include "keras/ops/shape.hpp"
#include "keras/utils/random.hpp"
#include "layers/recurrent/step_masks.hpp"

namespace keras::layers {

template <class Options, class Visit>
  requires std::is_same_v<std::remove_const_t<Options>, RNNOptions>
void for_each_field(Options& options, Visit&& visit) {
  for_each_rnn_sequence_field(visit, options);
}

namespace {

using detail::dropout_mask;
using detail::select;

}  // namespace

RNN::RNN(CellPtr cell, RNNOptions options) : RNN(std::vector<CellPtr>{std::move(cell)}, std::move(options), "rnn") {}

RNN::RNN(std::vector<CellPtr> cells, RNNOptions options) : RNN(std::move(cells), std::move(options), "rnn") {}

RNN::RNN(std::vector<CellPtr> cells, RNNOptions options, const std::string& prefix)
    : Layer(options, prefix), cells_(std::move(cells)), options_(std::move(options)) {
  if (cells_.empty()) throw ValueError("RNN needs at least one cell");
  for (const auto& c : cells_)
    if (!c) throw ValueError("RNN received a null cell");
  supports_masking_ = true;
}

std::vector<std::shared_ptr<Layer>> RNN::sublayers() const { return {cells_.begin(), cells_.end()}; }

void RNN::build(const Shape& input_shape) {
  if (input_shape.size() != 3 || input_shape[2] <= 0)
    throw ValueError("Layer \"" + name() + "\" (" + class_name() + ") expects inputs shaped [batch, time, features] with "
                     "known features, got " + shape_str(input_shape));
  std::int64_t features = input_shape[2];
  for (const auto& c : cells_) {
    c->ensure_built({-1, features});
    features = c->units();
  }
  if (options_.stateful) {
    std::vector<Shape> shapes;
    for (const auto& c : cells_)
      for (int s = 0; s < c->state_count(); ++s) shapes.push_back({input_shape[0], c->units()});
    states_.build("Layer \"" + name() + "\" (" + class_name() + ")", shapes);
  }
}

void RNN::reset_states() {
  if (!options_.stateful)
    throw ValueError("Layer \"" + name() + "\" (" + class_name() + ") is not stateful: reset_states() needs "
                     "stateful=true");
  states_.reset();
}

void RNN::reset_states(const std::vector<Tensor>& states) {
  if (!options_.stateful)
    throw ValueError("Layer \"" + name() + "\" (" + class_name() + ") is not stateful: reset_states(states) needs "
                     "stateful=true");
  states_.reset(states);
}

std::vector<Tensor> RNN::call(const std::vector<Tensor>& inputs, const CallContext& context) {
  std::vector<Tensor> out = run(inputs.at(0), {inputs.begin() + 1, inputs.end()}, context.mask(0), context.training);
  if (!options_.return_state) out.resize(1);
  return out;
}

std::vector<Tensor> RNN::call_with_state(const Tensor& inputs, const std::vector<Tensor>& initial_state,
                                         const Tensor& mask, bool training) {
  if (!inputs.defined()) throw ValueError("Layer '" + name() + "' was called on an undefined tensor");
  ensure_built(inputs.shape());
  return run(inputs, initial_state, mask, training);
}

std::vector<Tensor> RNN::run(const Tensor& inputs, const std::vector<Tensor>& initial_state, const Tensor& mask,
                             bool training) {
  if (!options_.stateful || inputs.ndim() != 3) return run_from(inputs, initial_state, mask, training);
  // Keras: an explicit initial_state wins; otherwise the carried states. Either way the final states are kept.
  std::vector<Tensor> out =
      run_from(inputs, initial_state.empty() ? states_.current(inputs.dim(0)) : initial_state, mask, training);
  states_.update({out.begin() + 1, out.end()});
  return out;
}

std::vector<Tensor> RNN::run_from(const Tensor& inputs, const std::vector<Tensor>& initial_state, const Tensor& mask,
                                  bool training) {
  const Tensor x = inputs.dtype() == DType::float32 ? inputs : inputs.astype(DType::float32);
  const auto features = cells_.front()->kernel()->shape()[0];
  if (x.ndim() != 3 || x.dim(2) != features)
    throw ValueError("Input 0 of layer \"" + name() + "\" is incompatible with the layer: expected shape=(None, None, " +
                     std::to_string(features) + "), found shape=" + shape_str(x.shape()));
  if (x.dim(1) == 0) throw ValueError("Layer \"" + name() + "\" received a sequence of length 0");
  const auto N = x.dim(0);
  std::size_t total = 0;
  for (const auto& c : cells_) total += static_cast<std::size_t>(c->state_count());
  if (!initial_state.empty() && initial_state.size() != total)
    throw ValueError("Layer \"" + name() + "\" expects " + std::to_string(total) + " initial state tensors, got " +
                     std::to_string(initial_state.size()));
  std::vector<std::vector<Tensor>> states(cells_.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < cells_.size(); ++i)
    for (int s = 0; s < cells_[i]->state_count(); ++s) {
      Tensor t = initial_state.empty() ? Tensor() : initial_state[k++];
      if (t.defined() && t.shape() != Shape{N, cells_[i]->units()})
        throw ValueError("Layer \"" + name() + "\": initial state " + std::to_string(k - 1) + " has shape " +
                         shape_str(t.shape()) + ", expected " + shape_str({N, cells_[i]->units()}));
      states[i].push_back(t);
    }

  bool fused = !mask.defined();
  for (const auto& c : cells_) fused = fused && c->fused_cell() && !(training && c->recurrent_dropout() > 0.f);
  if (!fused) return run_stepwise(x, std::move(states), mask, training);

  Tensor seq = x;
  std::vector<Tensor> final_states;
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const auto& c = cells_[i];
    Tensor in = seq;
    if (training && c->dropout() > 0.f) in = ops::multiply(in, dropout_mask({N, 1, in.dim(2)}, c->dropout()));
    auto r = c->run_fused(in, states[i], options_.go_backwards && i == 0);
    seq = r[0];
    final_states.insert(final_states.end(), r.begin() + 1, r.end());
  }
  const std::size_t last_h = final_states.size() - static_cast<std::size_t>(cells_.back()->state_count());
  std::vector<Tensor> out{options_.return_sequences ? seq : final_states[last_h]};
  out.insert(out.end(), final_states.begin(), final_states.end());
  return out;
}

std::vector<Tensor> RNN::run_stepwise(const Tensor& x0, std::vector<std::vector<Tensor>> states, const Tensor& mask0,
                                      bool training) {
  const auto N = x0.dim(0), T = x0.dim(1);
  std::vector<Tensor> dmask(cells_.size()), rmask(cells_.size());
  std::int64_t features = x0.dim(2);
  for (std::size_t i = 0; i < cells_.size(); ++i) {
    const auto& c = cells_[i];
    for (auto& s : states[i])
      if (!s.defined()) s = Tensor::zeros({N, c->units()});
    if (training && c->dropout() > 0.f) dmask[i] = dropout_mask({N, features}, c->dropout());
    if (training && c->recurrent_dropout() > 0.f) rmask[i] = dropout_mask({N, c->units()}, c->recurrent_dropout());
    features = c->units();
  }
  Tensor mask;
  if (mask0.defined()) {
    if (mask0.shape() != Shape{N, T})
      throw ValueError("Layer \"" + name() + "\": the mask has shape " + shape_str(mask0.shape()) + ", expected " +
                       shape_str({N, T}));
    mask = mask0.astype(DType::float32).reshape({N, T, 1});
    if (options_.go_backwards) mask = ops::reverse_time(mask);
  }
  const Tensor x = options_.go_backwards ? ops::reverse_time(x0) : x0;
  const std::vector<Tensor> steps = ops::unstack_time(x);
  Tensor prev_output = Tensor::zeros({N, cells_.back()->units()});
  std::vector<Tensor> outputs;
  for (std::int64_t t = 0; t < T; ++t) {
    Tensor in = steps[t];
    std::vector<std::vector<Tensor>> next(cells_.size());
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      next[i] = cells_[i]->step(dmask[i].defined() ? ops::multiply(in, dmask[i]) : in, states[i], rmask[i]);
      in = next[i][0];
    }
    Tensor out = in;
    if (mask.defined()) {
      // Keras: a masked step keeps the previous states and repeats the previous output.
      const Tensor m = ops::time_step(mask, t);
      out = select(m, out, options_.zero_output_for_mask ? Tensor::zeros(out.shape()) : prev_output);
      for (std::size_t i = 0; i < cells_.size(); ++i)
        for (std::size_t s = 0; s < next[i].size(); ++s) next[i][s] = select(m, next[i][s], states[i][s]);
    }
    states = std::move(next);
    prev_output = out;
    if (options_.return_sequences) outputs.push_back(out);
  }
  std::vector<Tensor> result{options_.return_sequences ? ops::stack_time(outputs) : prev_output};
  for (const auto& s : states) result.insert(result.end(), s.begin(), s.end());
  return result;
}

std::vector<Shape> RNN::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  std::vector<Shape> out{compute_output_shape(input_shapes.at(0))};
  if (options_.return_state)
    for (const auto& c : cells_)
      for (int i = 0; i < c->state_count(); ++i) out.push_back({input_shapes.at(0).at(0), c->units()});
  return out;
}

std::vector<Tensor> RNN::compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const {
  return {compute_mask(inputs.at(0), masks.empty() ? Tensor() : masks[0])};
}

Tensor RNN::compute_mask(const Tensor&, const Tensor& mask) const {
  return options_.return_sequences ? mask : Tensor();
}

Shape RNN::compute_output_shape(const Shape& input_shape) const {
  if (input_shape.size() != 3)
    throw ValueError("Layer \"" + name() + "\" expects inputs shaped [batch, time, features], got " + shape_str(input_shape));
  if (options_.return_sequences) return {input_shape[0], input_shape[1], units()};
  return {input_shape[0], units()};
}

json RNN::sequence_config() const {
  json c = layer_config(*this, options_);
  c["time_major"] = false;
  return c;
}

json RNN::flat_config() const {
  json c = sequence_config();
  const json cell = cells_[0]->get_config();
  for (auto it = cell.begin(); it != cell.end(); ++it)
    if (it.key() != "name" && it.key() != "trainable" && it.key() != "dtype") c[it.key()] = it.value();
  return c;
}

RNNOptions RNN::options_from_config(const json& c) { return keras::options_from_config<RNNOptions>(c); }

json RNN::get_config() const {
  json c = sequence_config();
  if (cells_.size() == 1) {
    c["cell"] = serialize_object(cells_[0]->class_name(), cells_[0]->get_config());
  } else {
    json list = json::array();
    for (const auto& cell : cells_) list.push_back(serialize_object(cell->class_name(), cell->get_config()));
    c["cell"] = serialize_object("StackedRNNCells", {{"cells", list}});
  }
  return c;
}

std::shared_ptr<Layer> RNN::from_config(const json& c) {
  std::vector<CellPtr> cells;
  const json& cell = c.at("cell");
  json list = cell.is_array() ? cell : json::array({cell});
  if (cell.is_object() && cell.value("class_name", "") == "StackedRNNCells") list = cell.at("config").at("cells");
  for (const auto& lc : list) {
    auto layer = std::dynamic_pointer_cast<RecurrentCell>(Layer::deserialize(lc));
    if (!layer) throw ValueError("RNN: " + lc.value("class_name", std::string("?")) + " is not a recurrent cell");
    cells.push_back(layer);
  }
  return make_from_config<RNN, RNNOptions>(c, cells);
}

KERAS_REGISTER_LAYER(RNN)

}  // namespace keras::layers
