#include "optimizers/adam.hpp"

#include <algorithm>
#include <cmath>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/kernels/parallel.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, Adam>("Adam", {"adam"});
}  // namespace

KERAS_FIELDS(AdamOptions, beta_1, beta_2, epsilon, amsgrad)

Adam::Adam(AdamOptions o) : Optimizer(o), options_(std::move(o)) {}

void Adam::adam_update(std::int64_t n, const float* g, float* w, float* m, float* v, float* vhat, double lr,
                       double beta_1, double beta_2, double epsilon, std::int64_t step) {
  const double t = static_cast<double>(step);
  const float alpha = static_cast<float>(lr * std::sqrt(1 - std::pow(beta_2, t)) / (1 - std::pow(beta_1, t)));
  const float k1 = static_cast<float>(1 - beta_1), k2 = static_cast<float>(1 - beta_2);
  const float eps = static_cast<float>(epsilon);
  // One pass over the four arrays, in pieces per thread, on __restrict pointers so that it vectorizes,
  // compiled for the CPU's best vector instructions (kernels/cpu_dispatch.hpp).
  kernels::parallel_ranges(n, [=](std::int64_t begin, std::int64_t end) {
    kernels::with_best_cpu([=] {
      const float* __restrict gr = g;
      float* __restrict wr = w;
      float* __restrict mr = m;
      float* __restrict vr = v;
      float* __restrict vhr = vhat;
      if (vhr) {
        for (std::int64_t i = begin; i < end; ++i) {
          mr[i] += (gr[i] - mr[i]) * k1;
          vr[i] += (gr[i] * gr[i] - vr[i]) * k2;
          vhr[i] = std::max(vhr[i], vr[i]);
          wr[i] -= mr[i] * alpha / (std::sqrt(vhr[i]) + eps);
        }
      } else {
        for (std::int64_t i = begin; i < end; ++i) {
          mr[i] += (gr[i] - mr[i]) * k1;
          vr[i] += (gr[i] * gr[i] - vr[i]) * k2;
          wr[i] -= mr[i] * alpha / (std::sqrt(vr[i]) + eps);
        }
      }
    });
  });
}

void Adam::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  float* vhat = options_.amsgrad ? slot(var, "vhat").value().data<float>() : nullptr;
  adam_update(grad.size(), grad.data<float>(), var.value().data<float>(), slot(var, "m").value().data<float>(),
              slot(var, "v").value().data<float>(), vhat, lr, options_.beta_1, options_.beta_2, options_.epsilon, step);
}

std::vector<std::vector<Optimizer::SlotKind>> Adam::slot_layout() const {
  if (options_.amsgrad) return {{{"m"}, {"v"}}, {{"vhat"}}};
  return {{{"m"}, {"v"}}};
}

json Adam::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> Adam::from_config(const json& c) { return optimizer_from_config<Adam, AdamOptions>(c); }

}  // namespace keras::optimizers
