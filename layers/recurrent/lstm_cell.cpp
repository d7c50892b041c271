#include "layers/recurrent/lstm_cell.hpp"

#include <type_traits>

#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/sequence.hpp"

namespace keras::layers {

template <class Options, class Visit>
  requires std::is_same_v<std::remove_const_t<Options>, LSTMCellOptions>
void for_each_field(Options& options, Visit&& visit) {
  for_each_lstm_cell_field(visit, options);
}

LSTMCell::LSTMCell(std::int64_t units, LSTMCellOptions options)
    : RecurrentCell(options, "lstm_cell"),
      units_(units),
      options_(std::move(options)),
      activation_(activations::resolve(options_.activation)),
      recurrent_activation_(activations::resolve(options_.recurrent_activation)) {
  if (units <= 0) throw ValueError("LSTMCell: `units` must be positive, received units=" + std::to_string(units));
  dropout_ = options_.dropout;
  recurrent_dropout_ = options_.recurrent_dropout;
}

RecurrentCell::WeightSpec LSTMCell::weight_spec() const {
  return {4, {4 * units_}, options_.use_bias, options_.kernel_initializer, options_.recurrent_initializer,
          options_.bias_initializer, options_.unit_forget_bias};
}

std::optional<kernels::RnnCell> LSTMCell::fused_cell() const {
  if (activation_.name == "tanh" && recurrent_activation_.name == "sigmoid") return kernels::RnnCell::lstm;
  return std::nullopt;
}

std::vector<Tensor> LSTMCell::step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& rmask) {
  const Tensor& h_prev = states.at(0);
  const Tensor& c_prev = states.at(1);
  const Tensor h_in = rmask.defined() ? ops::multiply(h_prev, rmask) : h_prev;
  const Tensor z = ops::add(ops::dense(x, kernel_->value(), detail::value_or_none(bias_)),
                            ops::matmul(h_in, recurrent_kernel_->value()));
  const auto U = units_;
  const Tensor i = recurrent_activation_(ops::slice_last(z, 0, U));
  const Tensor f = recurrent_activation_(ops::slice_last(z, U, U));
  const Tensor g = activation_(ops::slice_last(z, 2 * U, U));
  const Tensor o = recurrent_activation_(ops::slice_last(z, 3 * U, U));
  const Tensor c = ops::add(ops::multiply(f, c_prev), ops::multiply(i, g));
  return {ops::multiply(o, activation_(c)), c};
}

json LSTMCell::get_config() const {
  json c = layer_config(*this, options_);
  add_cell_fields(c);
  c["activation"] = activation_.name;  // the canonical names of aliases
  c["recurrent_activation"] = recurrent_activation_.name;
  c["implementation"] = 2;
  return c;
}

LSTMCellOptions LSTMCell::options_from_config(const json& c) { return keras::options_from_config<LSTMCellOptions>(c); }

std::shared_ptr<Layer> LSTMCell::from_config(const json& c) {
  auto cell = std::make_shared<LSTMCell>(config::required<std::int64_t>(c, "units"), options_from_config(c));
  cell->read_base_config(c);
  return cell;
}

KERAS_REGISTER_LAYER(LSTMCell)

}  // namespace keras::layers
