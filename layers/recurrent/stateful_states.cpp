#include "layers/recurrent/stateful_states.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/function/capture.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

void StatefulStates::build(const std::string& layer, const std::vector<Shape>& shapes) {
  layer_ = layer;
  if (shapes.empty() || shapes.front().empty() || shapes.front().front() <= 0)
    throw ValueError(fmt::format(
        "{} is stateful, so it needs to know its batch size, got input states of shape {}. Specify the batch size "
        "of your inputs: Input(shape, {{.batch_size = N}}) (Keras's batch_shape), or a batch_input_shape on the "
        "first layer of a Sequential model (set_batch_input_shape({{N, ...}})); or call the layer on a tensor",
        layer, shapes.empty() ? std::string("()") : shape_str(shapes.front())));
  shapes_ = shapes;
  reset();
}

void StatefulStates::reset() {
  states_.clear();
  for (const auto& s : shapes_) states_.push_back(Tensor::zeros(s));
}

void StatefulStates::reset(const std::vector<Tensor>& values) {
  if (!built())
    throw ValueError(layer_.empty() ? std::string("A stateful layer must be built before its states are set")
                                    : layer_ + " must be built before its states are set");
  if (values.size() != shapes_.size())
    throw ValueError(fmt::format("{} expects {} states, but it received {} state values", layer_, shapes_.size(),
                                 values.size()));
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!values[i].defined() || values[i].shape() != shapes_[i])
      throw ValueError(fmt::format("State {} is incompatible with {}: expected shape={} but found shape={}", i, layer_,
                                   shape_str(shapes_[i]),
                                   values[i].defined() ? shape_str(values[i].shape()) : std::string("undefined")));
  states_.clear();
  for (const auto& v : values) states_.push_back(v.astype(DType::float32).clone());
}

const std::vector<Tensor>& StatefulStates::current(std::int64_t batch) const {
  if (batch != batch_size())
    throw ValueError(fmt::format(
        "{} is stateful with a batch size of {} but received a batch of {} samples. Each sample of a batch "
        "continues the same sample of the previous batch, so every batch must hold {} samples: pass "
        "batch_size={} to fit/evaluate/predict with a sample count divisible by it",
        layer_, batch_size(), batch, batch_size(), batch_size()));
  return states_;
}

void StatefulStates::update(const std::vector<Tensor>& final_states) {
  // The states are carried in C++ from one call to the next, which a replayed trace would skip.
  if (jit::tracing()) jit::not_replayable(layer_ + " is stateful: it carries its states from call to call");
  states_.clear();
  for (const auto& s : final_states) states_.push_back(ops::stop_gradient(s));
}

}  // namespace keras::layers
