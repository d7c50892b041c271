#include "optimizers/adamw.hpp"

#include "keras/json.hpp"
#include "optimizers/adam.hpp"

namespace keras::optimizers {
namespace {
const bool registered = register_class<Optimizer, AdamW>("AdamW", {"adamw"});
}  // namespace

AdamW::AdamW(AdamWOptions o) : Optimizer(o.name, o.learning_rate, common_of(o)), options_(std::move(o)) {}

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

json AdamW::get_config() const {
  json c = Optimizer::get_config();
  c["beta_1"] = options_.beta_1;
  c["beta_2"] = options_.beta_2;
  c["epsilon"] = options_.epsilon;
  c["amsgrad"] = options_.amsgrad;
  return c;
}

std::shared_ptr<Optimizer> AdamW::from_config(const json& c) {
  if (c.contains("weight_decay") && c["weight_decay"].is_null())
    throw ValueError("AdamW config: missing value of `weight_decay`, which is required and must be a float value");
  AdamWOptions o;
  read_common(c, o, "AdamW");
  o.beta_1 = read_number(c, "beta_1", o.beta_1, "AdamW");
  o.beta_2 = read_number(c, "beta_2", o.beta_2, "AdamW");
  o.epsilon = read_number(c, "epsilon", o.epsilon, "AdamW");
  o.amsgrad = read_bool(c, "amsgrad", o.amsgrad, "AdamW");
  return std::make_shared<AdamW>(std::move(o));
}

}  // namespace keras::optimizers
