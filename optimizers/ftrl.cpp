#include "optimizers/ftrl.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {

const bool registered = register_class<Optimizer, Ftrl>("Ftrl", {"ftrl"});

struct FtrlCoefficients {
  float inv_lr, two_shrinkage, two_l2, l1, power;
};

// kSqrt: learning_rate_power == -0.5 (the default), where acc^0.5 is a square root.
template <bool kSqrt>
void ftrl_pass(std::int64_t n, const float* g, float* w, float* acc, float* linear, FtrlCoefficients k) {
  kernels::parallel_for(n, [=](std::int64_t i) {
    const float new_acc = acc[i] + g[i] * g[i];
    float p_new, p_old;
    if constexpr (kSqrt) {
      p_new = std::sqrt(new_acc);
      p_old = std::sqrt(acc[i]);
    } else {
      p_new = std::pow(new_acc, k.power);
      p_old = std::pow(acc[i], k.power);
    }
    linear[i] += g[i] + k.two_shrinkage * w[i] - (p_new - p_old) * k.inv_lr * w[i];
    const float quadratic = p_new * k.inv_lr + k.two_l2;
    w[i] = (std::min(std::max(linear[i], -k.l1), k.l1) - linear[i]) / quadratic;
    acc[i] = new_acc;
  });
}

void check_non_negative(double value, const char* what) {
  if (value < 0) throw ValueError(std::string("Ftrl: `") + what + "` needs to be positive or zero, got " +
                                  std::to_string(value));
}

}  // namespace

KERAS_FIELDS(FtrlOptions, learning_rate_power, initial_accumulator_value, l1_regularization_strength,
             l2_regularization_strength, l2_shrinkage_regularization_strength, beta)

Ftrl::Ftrl(FtrlOptions o) : Optimizer(o), options_(std::move(o)) {
  check_non_negative(options_.initial_accumulator_value, "initial_accumulator_value");
  if (options_.learning_rate_power > 0)
    throw ValueError("Ftrl: `learning_rate_power` needs to be negative or zero, got " +
                     std::to_string(options_.learning_rate_power));
  check_non_negative(options_.l1_regularization_strength, "l1_regularization_strength");
  check_non_negative(options_.l2_regularization_strength, "l2_regularization_strength");
  check_non_negative(options_.l2_shrinkage_regularization_strength, "l2_shrinkage_regularization_strength");
}

void Ftrl::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t /*step*/) {
  if (!(lr > 0)) throw ValueError("Ftrl: the learning rate must be > 0, got " + std::to_string(lr));
  float* acc = slot(var, "accumulator").value().data<float>();
  float* linear = slot(var, "linear").value().data<float>();
  const FtrlCoefficients k{
      .inv_lr = static_cast<float>(1 / lr),
      .two_shrinkage = static_cast<float>(2 * options_.l2_shrinkage_regularization_strength),
      .two_l2 = static_cast<float>(2 * (options_.l2_regularization_strength + options_.beta / (2 * lr))),
      .l1 = static_cast<float>(options_.l1_regularization_strength),
      .power = static_cast<float>(-options_.learning_rate_power)};
  if (options_.learning_rate_power == -0.5)
    ftrl_pass<true>(grad.size(), grad.data<float>(), var.value().data<float>(), acc, linear, k);
  else
    ftrl_pass<false>(grad.size(), grad.data<float>(), var.value().data<float>(), acc, linear, k);
}

json Ftrl::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Ftrl::from_config(const json& c) { return optimizer_from_config<Ftrl, FtrlOptions>(c); }

}  // namespace keras::optimizers
