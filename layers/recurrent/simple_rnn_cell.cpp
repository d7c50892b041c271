#include "layers/recurrent/simple_rnn_cell.hpp"

#include <type_traits>

#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"

namespace keras::layers {

template <class Options, class Visit>
  requires std::is_same_v<std::remove_const_t<Options>, SimpleRNNCellOptions>
void for_each_field(Options& options, Visit&& visit) {
  for_each_simple_rnn_cell_field(visit, options);
}

SimpleRNNCell::SimpleRNNCell(std::int64_t units, SimpleRNNCellOptions options)
    : RecurrentCell(options, "simple_rnn_cell"),
      units_(units),
      options_(std::move(options)),
      activation_(activations::resolve(options_.activation)) {
  if (units <= 0) throw ValueError("SimpleRNNCell: `units` must be positive, received units=" + std::to_string(units));
  dropout_ = options_.dropout;
  recurrent_dropout_ = options_.recurrent_dropout;
}

RecurrentCell::WeightSpec SimpleRNNCell::weight_spec() const {
  return {1, {units_}, options_.use_bias, options_.kernel_initializer, options_.recurrent_initializer,
          options_.bias_initializer, false};
}

std::optional<kernels::RnnCell> SimpleRNNCell::fused_cell() const {
  if (activation_.name == "tanh") return kernels::RnnCell::vanilla_tanh;
  if (activation_.name == "relu") return kernels::RnnCell::vanilla_relu;
  if (activation_.name == "sigmoid") return kernels::RnnCell::vanilla_sigmoid;
  return std::nullopt;
}

std::vector<Tensor> SimpleRNNCell::step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& rmask) {
  const Tensor h_in = rmask.defined() ? ops::multiply(states.at(0), rmask) : states.at(0);
  return {activation_(ops::add(ops::dense(x, kernel_->value(), detail::value_or_none(bias_)),
                               ops::matmul(h_in, recurrent_kernel_->value())))};
}

json SimpleRNNCell::get_config() const {
  json c = layer_config(*this, options_);
  add_cell_fields(c);
  c["activation"] = activation_.name;  // the canonical name of an alias
  return c;
}

SimpleRNNCellOptions SimpleRNNCell::options_from_config(const json& c) {
  return keras::options_from_config<SimpleRNNCellOptions>(c);
}

std::shared_ptr<Layer> SimpleRNNCell::from_config(const json& c) {
  auto cell = std::make_shared<SimpleRNNCell>(config::required<std::int64_t>(c, "units"), options_from_config(c));
  cell->read_base_config(c);
  return cell;
}

KERAS_REGISTER_LAYER(SimpleRNNCell)

}  // namespace keras::layers
