#include "optimizers/adamw.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "optimizers/adam.hpp"
#include "optimizers/optimizer_config.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, AdamW>("AdamW", {"adamw"});
}  // namespace

KERAS_FIELDS(AdamWOptions, beta_1, beta_2, epsilon, amsgrad)

AdamW::AdamW(AdamWOptions o) : Optimizer(o), options_(std::move(o)) {}

void AdamW::update_step(const Tensor& grad, Variable& var, double lr, std::int64_t step) {
  // The decay itself is the base class's (it runs for every optimizer given a weight_decay).
  float* vhat = options_.amsgrad ? slot(var, "vhat").value().data<float>() : nullptr;
  Adam::adam_update(grad.size(), grad.data<float>(), var.value().data<float>(), slot(var, "m").value().data<float>(),
                    slot(var, "v").value().data<float>(), vhat, lr, options_.beta_1, options_.beta_2,
                    options_.epsilon, step);
}

std::vector<std::vector<Optimizer::SlotKind>> AdamW::slot_layout() const {
  if (options_.amsgrad) return {{{"m"}, {"v"}}, {{"vhat"}}};
  return {{{"m"}, {"v"}}};
}

json AdamW::get_config() const { return optimizer_config(*this, options_); }

std::shared_ptr<Optimizer> AdamW::from_config(const json& c) { return optimizer_from_config<AdamW, AdamWOptions>(c); }

}  // namespace keras::optimizers
