#include "layers/recurrent/recurrent_cell.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/json.hpp"

namespace keras::layers {

namespace detail {
Tensor value_or_none(const std::shared_ptr<Variable>& v) { return v ? v->value() : Tensor(); }
}  // namespace detail

Tensor RecurrentCell::call(const Tensor&, bool) {
  throw ValueError("Cell \"" + name() + "\" (" + class_name() +
                   ") runs inside a recurrent layer: wrap it as layers::RNN(cell) or use the layer form");
}

void RecurrentCell::build(const Shape& input_shape) {
  if (input_shape.empty() || input_shape.back() <= 0)
    throw ValueError("Cell \"" + name() + "\" (" + class_name() + ") needs a known input dimension, got input shape " +
                     shape_str(input_shape));
  const WeightSpec s = weight_spec();
  const auto U = units();
  kernel_ = add_weight("kernel", {input_shape.back(), s.gates * U}, s.kernel_initializer);
  recurrent_kernel_ = add_weight("recurrent_kernel", {U, s.gates * U}, s.recurrent_initializer);
  if (!s.use_bias) return;
  bias_ = add_weight("bias", s.bias_shape, s.bias_initializer);
  if (s.unit_forget_bias) {
    // Keras's unit_forget_bias: the forget gate's bias starts at 1.
    autodiff::NoGradScope no_grad;
    Tensor b = bias_->numpy();
    for (std::int64_t i = U; i < 2 * U; ++i) b.data<float>()[i] = 1.f;
    bias_->assign(b);
  }
}

std::vector<Tensor> RecurrentCell::run_fused(const Tensor& x, const std::vector<Tensor>& states, bool go_backwards) {
  const auto cell = fused_cell();
  if (!cell) throw ValueError("Cell \"" + name() + "\" has no oneDNN form for its activations");
  const Tensor h0 = states.empty() ? Tensor() : states[0];
  const Tensor c0 = states.size() > 1 ? states[1] : Tensor();
  auto r = ops::rnn(x, h0, c0, kernel_->value(), recurrent_kernel_->value(), detail::value_or_none(bias_), *cell,
                    go_backwards);
  std::vector<Tensor> out{r.sequence, r.h};
  if (r.c.defined()) out.push_back(r.c);
  return out;
}

void RecurrentCell::add_cell_fields(json& c) const {
  c["units"] = units();
  for (const char* k : {"kernel_regularizer", "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
                        "recurrent_constraint", "bias_constraint"})
    c[k] = nullptr;
}

}  // namespace keras::layers
