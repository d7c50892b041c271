#include "layers/recurrent/gru_cell.hpp"

#include <type_traits>

#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/sequence.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

template <class Options, class Visit>
  requires std::is_same_v<std::remove_const_t<Options>, GRUCellOptions>
void for_each_field(Options& options, Visit&& visit) {
  for_each_gru_cell_field(visit, options);
}

GRUCell::GRUCell(std::int64_t units, GRUCellOptions options)
    : RecurrentCell(options, "gru_cell"),
      units_(units),
      options_(std::move(options)),
      activation_(activations::resolve(options_.activation)),
      recurrent_activation_(activations::resolve(options_.recurrent_activation)) {
  if (units <= 0) throw ValueError("GRUCell: `units` must be positive, received units=" + std::to_string(units));
  dropout_ = options_.dropout;
  recurrent_dropout_ = options_.recurrent_dropout;
}

RecurrentCell::WeightSpec GRUCell::weight_spec() const {
  const Shape bias = options_.reset_after ? Shape{2, 3 * units_} : Shape{3 * units_};
  return {3, bias, options_.use_bias, options_.kernel_initializer, options_.recurrent_initializer,
          options_.bias_initializer, false};
}

std::optional<kernels::RnnCell> GRUCell::fused_cell() const {
  if (activation_.name != "tanh" || recurrent_activation_.name != "sigmoid") return std::nullopt;
  return options_.reset_after ? kernels::RnnCell::lbr_gru : kernels::RnnCell::gru;
}

std::vector<Tensor> GRUCell::step(const Tensor& x, const std::vector<Tensor>& states, const Tensor& rmask) {
  const Tensor& h_prev = states.at(0);
  const Tensor h_in = rmask.defined() ? ops::multiply(h_prev, rmask) : h_prev;
  const auto U = units_;
  const Tensor R = recurrent_kernel_->value();
  Tensor b_in, b_rec;
  if (bias_ && options_.reset_after) {
    const Tensor flat = ops::reshape(bias_->value(), {6 * U});
    b_in = ops::slice_last(flat, 0, 3 * U);
    b_rec = ops::slice_last(flat, 3 * U, 3 * U);
  } else if (bias_) {
    b_in = bias_->value();
  }
  const Tensor mx = ops::dense(x, kernel_->value(), b_in);
  Tensor z, r, hh;
  if (options_.reset_after) {
    const Tensor mh = ops::dense(h_in, R, b_rec);
    z = recurrent_activation_(ops::add(ops::slice_last(mx, 0, U), ops::slice_last(mh, 0, U)));
    r = recurrent_activation_(ops::add(ops::slice_last(mx, U, U), ops::slice_last(mh, U, U)));
    hh = activation_(ops::add(ops::slice_last(mx, 2 * U, U), ops::multiply(r, ops::slice_last(mh, 2 * U, U))));
  } else {
    const Tensor mh = ops::matmul(h_in, ops::slice_last(R, 0, 2 * U));
    z = recurrent_activation_(ops::add(ops::slice_last(mx, 0, U), ops::slice_last(mh, 0, U)));
    r = recurrent_activation_(ops::add(ops::slice_last(mx, U, U), ops::slice_last(mh, U, U)));
    hh = activation_(ops::add(ops::slice_last(mx, 2 * U, U),
                              ops::matmul(ops::multiply(r, h_in), ops::slice_last(R, 2 * U, U))));
  }
  // h = z * h_prev + (1 - z) * hh
  return {ops::add(ops::multiply(z, h_prev), ops::multiply(ops::subtract(Tensor::scalar(1.f), z), hh))};
}

json GRUCell::get_config() const {
  json c = layer_config(*this, options_);
  add_cell_fields(c);
  c["activation"] = activation_.name;  // the canonical names of aliases
  c["recurrent_activation"] = recurrent_activation_.name;
  c["implementation"] = 2;
  return c;
}

GRUCellOptions GRUCell::options_from_config(const json& c) {
  auto o = keras::options_from_config<GRUCellOptions>(c);
  // tf.keras 2.x defaults to reset_after=True; Keras 2.2 files without the key meant False.
  if (!c.contains("reset_after")) o.reset_after = false;
  return o;
}

std::shared_ptr<Layer> GRUCell::from_config(const json& c) {
  auto cell = std::make_shared<GRUCell>(config::required<std::int64_t>(c, "units"), options_from_config(c));
  cell->read_base_config(c);
  return cell;
}

KERAS_REGISTER_LAYER(GRUCell)

}  // namespace keras::layers
