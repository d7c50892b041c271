#include "optimizers/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <regex>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/kernels/parallel.hpp"
#include "keras/trainers/replica_sync.hpp"
#include "optimizers/optimizer_config.hpp"
#include "optimizers/schedules/inverse_time_decay.hpp"

namespace keras::optimizers {
namespace {

double l2_norm_squared(const Tensor& t) {
  const float* p = t.data<float>();
  double s = 0;
  for (std::int64_t i = 0; i < t.size(); ++i) s += double(p[i]) * p[i];
  return s;
}

// New tensors: the caller's gradients are never written to.
Tensor scaled(const Tensor& t, double factor) {
  Tensor out = Tensor::empty(t.shape());
  const float* src = t.data<float>();
  float* dst = out.data<float>();
  const float k = static_cast<float>(factor);
  kernels::parallel_for(t.size(), [=](std::int64_t i) { dst[i] = src[i] * k; });
  return out;
}

Tensor clipped(const Tensor& t, double limit) {
  Tensor out = Tensor::empty(t.shape());
  const float* src = t.data<float>();
  float* dst = out.data<float>();
  const float hi = static_cast<float>(limit), lo = -hi;
  kernels::parallel_for(t.size(), [=](std::int64_t i) { dst[i] = std::min(std::max(src[i], lo), hi); });
  return out;
}

constexpr const char* kAverage = "average";
constexpr const char* kAccumulator = "gradient_accumulator";

// What tf.keras < 2.11 wrote besides "lr" (read by read_learning_rate).
struct LegacyOptions {
  double decay = 0;
};
KERAS_FIELDS(LegacyOptions, decay)

}  // namespace

Optimizer::Optimizer(std::string name, LearningRate learning_rate, CommonOptions common)
    : learning_rate_(std::move(learning_rate)), common_(std::move(common)) {
  common_.name = std::move(name);
  if (common_.clipnorm && common_.global_clipnorm)
    throw ValueError("Optimizer '" + common_.name + "': set at most one of clipnorm and global_clipnorm");
  if (common_.gradient_accumulation_steps && *common_.gradient_accumulation_steps < 2)
    throw ValueError("Optimizer '" + common_.name + "': `gradient_accumulation_steps` must be an integer >= 2 (or "
                     "unset for none), got " + std::to_string(*common_.gradient_accumulation_steps));
  if (common_.use_ema) {
    if (common_.ema_momentum < 0 || common_.ema_momentum > 1)
      throw ValueError("Optimizer '" + common_.name + "': `ema_momentum` must be in the range [0, 1], got " +
                       std::to_string(common_.ema_momentum));
    if (common_.ema_overwrite_frequency && *common_.ema_overwrite_frequency < 0)
      throw ValueError("Optimizer '" + common_.name + "': `ema_overwrite_frequency` must be an integer >= 1 (or 0 or "
                       "unset for never), got " +
                       std::to_string(*common_.ema_overwrite_frequency));
  }
}

void Optimizer::apply_gradients(const std::vector<Tensor>& grads_given,
                                const std::vector<std::shared_ptr<Variable>>& vars) {
  if (grads_given.size() != vars.size())
    throw ValueError("apply_gradients: got " + std::to_string(grads_given.size()) + " gradients for " +
                     std::to_string(vars.size()) + " variables");
  for (std::size_t i = 0; i < vars.size(); ++i)
    if (!vars[i]) throw ValueError("apply_gradients: variable " + std::to_string(i) + " is null");
  autodiff::NoGradScope no_grad;
  const std::vector<Tensor> grads_in = cross_replica_gradients(grads_given, vars);  // under a strategy
  const double lr = learning_rate();
  // Keras builds the optimizer state for every variable passed, before dropping missing gradients.
  for (const auto& v : vars) track(v);
  std::vector<Tensor> grads;
  std::vector<std::shared_ptr<Variable>> active;
  for (std::size_t i = 0; i < grads_in.size(); ++i) {
    if (!grads_in[i].defined()) continue;
    if (grads_in[i].shape() != vars[i]->shape())
      throw ValueError("apply_gradients: gradient of shape " + shape_str(grads_in[i].shape()) + " for variable '" +
                       vars[i]->name() + "' of shape " + shape_str(vars[i]->shape()));
    check_float32(grads_in[i], *vars[i]);
    grads.push_back(grads_in[i]);
    active.push_back(vars[i]);
  }
  if (active.empty()) return;
  // Keras 3's gradient accumulation: most calls only add to the accumulators (iterations() stays).
  const bool updates = !common_.gradient_accumulation_steps || accumulate(grads, active);
  if (updates) {
    clip(grads);
    if (common_.weight_decay && *common_.weight_decay != 0) {
      const float k = static_cast<float>(*common_.weight_decay * lr);
      for (const auto& v : active) {
        if (!uses_weight_decay(*v)) continue;
        float* w = v->value().data<float>();
        kernels::parallel_for(v->value().size(), [=](std::int64_t i) { w[i] -= w[i] * k; });
      }
    }
    const std::int64_t step = iterations() + 1;
    for (std::size_t i = 0; i < grads.size(); ++i) update_step(grads[i], *active[i], lr, step);
  }
  if (common_.use_ema) {
    const float mom = static_cast<float>(common_.ema_momentum), rest = static_cast<float>(1 - common_.ema_momentum);
    for (const auto& v : active) {
      float* a = slot(*v, kAverage).value().data<float>();
      const float* w = v->value().data<float>();
      kernels::parallel_for(v->value().size(), [=](std::int64_t i) { a[i] = mom * a[i] + rest * w[i]; });
    }
    const auto freq = common_.ema_overwrite_frequency;
    if (freq && *freq > 0 && (iterations() + 1) % *freq == 0) overwrite_with_averages(active);
  }
  // As tf.keras 2.11+: every updated variable with a constraint is projected after the update.
  for (const auto& v : active) {
    v->value().mark_modified();  // update steps write through data<float>()
    if (v->constraint()) v->assign((*v->constraint())(v->value()));
  }
  ++iterations_;
}

bool Optimizer::accumulate(std::vector<Tensor>& grads, const std::vector<std::shared_ptr<Variable>>& vars) {
  const std::int64_t n = *common_.gradient_accumulation_steps;
  const bool update = (iterations_ + 1) % n == 0;
  const float steps = static_cast<float>(n);
  for (std::size_t i = 0; i < grads.size(); ++i) {
    float* acc = slot(*vars[i], kAccumulator).value().data<float>();
    const float* g = grads[i].data<float>();
    if (!update) {
      kernels::parallel_for(grads[i].size(), [=](std::int64_t j) { acc[j] += g[j]; });
      continue;
    }
    Tensor mean = Tensor::empty(grads[i].shape());  // the caller's gradients are never written to
    float* m = mean.data<float>();
    kernels::parallel_for(grads[i].size(), [=](std::int64_t j) { m[j] = (g[j] + acc[j]) / steps; });
    grads[i] = mean;
  }
  // As Keras: an update empties every accumulator, also those of variables without a gradient this call.
  if (update)
    for (auto& t : tracked_)
      if (auto s = t.slots.find(kAccumulator); s != t.slots.end()) {
        float* acc = s->second->value().data<float>();
        std::fill_n(acc, s->second->value().size(), 0.f);
      }
  return update;
}

void Optimizer::minimize(const std::function<Tensor()>& loss, const std::vector<std::shared_ptr<Variable>>& vars) {
  GradientTape tape;
  for (const auto& v : vars) tape.watch(v->value());
  Tensor value = loss();
  apply_gradients(tape.gradient(value, vars), vars);
}

void Optimizer::clip(std::vector<Tensor>& grads) const {
  // As Keras: only one kind of clipping applies, clipnorm first, then global_clipnorm, then clipvalue.
  if (common_.clipnorm && *common_.clipnorm > 0) {
    const double limit = *common_.clipnorm;
    for (auto& g : grads) {
      const double norm = std::sqrt(l2_norm_squared(g));
      if (norm > limit) g = scaled(g, limit / norm);
    }
  } else if (common_.global_clipnorm && *common_.global_clipnorm > 0) {
    double total = 0;
    for (const auto& g : grads) total += l2_norm_squared(g);
    const double norm = std::sqrt(total), limit = *common_.global_clipnorm;
    if (norm > limit)
      for (auto& g : grads) g = scaled(g, limit / norm);
  } else if (common_.clipvalue && *common_.clipvalue > 0) {
    for (auto& g : grads) g = clipped(g, *common_.clipvalue);
  }
}

Optimizer::Tracked& Optimizer::track(const std::shared_ptr<Variable>& var) {
  auto it = index_.find(var.get());
  Tracked* t;
  if (it == index_.end()) {
    index_.emplace(var.get(), tracked_.size());
    t = &tracked_.emplace_back();
  } else {
    t = &tracked_[it->second];
    if (t->has_ref && t->ref.lock() == var) return *t;
    // A variable that died and a new one at the same address: its old state must not leak into the new one.
    if (t->has_ref) *t = Tracked{};
  }
  t->ref = var;
  t->has_ref = true;
  for (const auto& group : all_slot_groups())
    for (const auto& kind : group) {
      if (t->slots.count(kind.name)) continue;
      if (kind.name == kAverage) {
        make_slot(*t, *var, kAverage, var->value());
      } else if (auto shape = slot_shape(*var, kind.name)) {
        make_slot(*t, *var, kind.name, Tensor::full(*shape, kind.initial_value));
      }
    }
  return *t;
}

Variable& Optimizer::make_slot(Tracked& t, const Variable& var, const std::string& slot_name, const Tensor& initial) {
  auto v = std::make_shared<Variable>(slot_name + "/" + var.name(), initial, false);
  t.slots[slot_name] = v;
  if (std::find(slot_names_.begin(), slot_names_.end(), slot_name) == slot_names_.end())
    slot_names_.push_back(slot_name);
  return *v;
}

Variable& Optimizer::slot(const Variable& var, const std::string& slot_name) {
  auto it = index_.find(&var);
  Tracked* t;
  if (it == index_.end()) {
    index_.emplace(&var, tracked_.size());
    t = &tracked_.emplace_back();
  } else {
    t = &tracked_[it->second];
  }
  auto s = t->slots.find(slot_name);
  if (s != t->slots.end()) return *s->second;
  double initial = 0.0;
  for (const auto& group : slot_layout())
    for (const auto& kind : group)
      if (kind.name == slot_name) initial = kind.initial_value;
  const auto shape = slot_shape(var, slot_name);
  if (!shape)
    throw ValueError(class_name() + ": variable '" + var.name() + "' of shape " + shape_str(var.shape()) +
                     " has no slot '" + slot_name + "'");
  return make_slot(*t, var, slot_name, Tensor::full(*shape, initial));
}

std::optional<Shape> Optimizer::slot_shape(const Variable& var, const std::string&) const { return var.shape(); }

std::vector<std::vector<Optimizer::SlotKind>> Optimizer::all_slot_groups() const {
  std::vector<std::vector<SlotKind>> groups;
  if (common_.use_ema) groups.push_back({{kAverage}});
  if (common_.gradient_accumulation_steps) groups.push_back({{kAccumulator}});
  for (auto& group : slot_layout()) groups.push_back(std::move(group));
  return groups;
}

void Optimizer::build(const std::vector<std::shared_ptr<Variable>>& vars) {
  for (const auto& v : vars) track(v);
}

std::vector<std::pair<std::string, std::shared_ptr<Variable>>> Optimizer::slots_of(const Variable& var) const {
  std::vector<std::pair<std::string, std::shared_ptr<Variable>>> out;
  auto it = index_.find(&var);
  if (it == index_.end()) return out;
  const Tracked& t = tracked_[it->second];
  std::vector<std::string> order;
  for (const auto& group : all_slot_groups())
    for (const auto& kind : group) order.push_back(kind.name);
  for (const auto& name : slot_names_)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  for (const auto& name : order) {
    auto s = t.slots.find(name);
    if (s != t.slots.end()) out.emplace_back(name, s->second);
  }
  return out;
}

std::vector<std::shared_ptr<Variable>> Optimizer::variables() const {
  std::vector<std::vector<std::string>> groups;
  for (const auto& group : all_slot_groups()) {
    groups.emplace_back();
    for (const auto& kind : group) groups.back().push_back(kind.name);
  }
  for (const auto& name : slot_names_) {
    bool listed = false;
    for (const auto& g : groups) listed = listed || std::find(g.begin(), g.end(), name) != g.end();
    if (!listed) groups.push_back({name});
  }
  std::vector<std::shared_ptr<Variable>> out;
  for (const auto& group : groups)
    for (const auto& t : tracked_)
      for (const auto& name : group) {
        auto s = t.slots.find(name);
        if (s != t.slots.end()) out.push_back(s->second);
      }
  return out;
}

void Optimizer::check_float32(const Tensor& grad, const Variable& var) const {
  if (grad.dtype() != DType::float32 || var.value().dtype() != DType::float32)
    throw ValueError(class_name() + ": variable '" + var.name() + "' and its gradient must be float32");
}

void Optimizer::exclude_from_weight_decay(const std::vector<std::shared_ptr<Variable>>& vars,
                                          const std::vector<std::string>& name_patterns) {
  for (const auto& v : vars) excluded_.push_back(v.get());
  for (const auto& p : name_patterns) {
    try {
      (void)std::regex(p);
    } catch (const std::regex_error& e) {
      throw ValueError("exclude_from_weight_decay: '" + p + "' is not a valid regular expression (" + e.what() + ")");
    }
    excluded_patterns_.push_back(p);
  }
  decay_cache_.clear();
}

bool Optimizer::uses_weight_decay(const Variable& var) const {
  if (excluded_.empty() && excluded_patterns_.empty()) return true;
  auto cached = decay_cache_.find(&var);
  if (cached != decay_cache_.end() && cached->second.first == var.name()) return cached->second.second;
  bool use = std::find(excluded_.begin(), excluded_.end(), &var) == excluded_.end();
  for (const auto& p : excluded_patterns_) use = use && !std::regex_search(var.name(), std::regex(p));
  decay_cache_[&var] = {var.name(), use};
  return use;
}

void Optimizer::overwrite_with_averages(const std::vector<std::shared_ptr<Variable>>& vars) {
  for (const auto& v : vars) {
    auto it = index_.find(v.get());
    const Tracked* t = it == index_.end() ? nullptr : &tracked_[it->second];
    auto s = t ? t->slots.find(kAverage) : std::map<std::string, std::shared_ptr<Variable>>::const_iterator{};
    if (!t || s == t->slots.end())
      throw ValueError("finalize_variable_values: optimizer '" + common_.name + "' has no moving average of "
                       "variable '" + v->name() + "'; it never updated it");
    v->assign(s->second->value());
  }
}

void Optimizer::finalize_variable_values(const std::vector<std::shared_ptr<Variable>>& vars) {
  if (common_.use_ema) overwrite_with_averages(vars);
}

void Optimizer::finalize_variable_values() {
  if (!common_.use_ema) return;
  std::vector<std::shared_ptr<Variable>> live;
  for (const auto& t : tracked_)
    if (auto v = t.ref.lock(); v && t.slots.count(kAverage)) live.push_back(v);
  overwrite_with_averages(live);
}

json Optimizer::get_config() const {
  json c{{"jit_compile", false}, {"is_legacy_optimizer", false}};
  config::write_fields(c, config::BaseFields<const CommonOptions>{common_});
  // Keras 3 writes gradient_accumulation_steps (null by default); tf.keras 2.x refuses any key it does not
  // know, so the key is written only when set.
  if (!common_.gradient_accumulation_steps) c.erase("gradient_accumulation_steps");
  // A C++ callable has no config: as Keras does for callables, the rate it gives now is written.
  const bool callable = dynamic_cast<const schedules::LambdaSchedule*>(learning_rate_.schedule().get());
  c["learning_rate"] = encode(callable ? LearningRate(learning_rate()) : learning_rate_);
  return c;
}

LearningRate read_learning_rate(const json& c, const LearningRate& fallback) {
  LearningRate lr = fallback;
  for (const char* key : {"lr", "learning_rate"})
    if (c.contains(key) && !c[key].is_null()) decode(c[key], lr);
  // A legacy (tf.keras < 2.11) optimizer's `decay` shrinks the rate as lr / (1 + decay * iterations):
  // exactly InverseTimeDecay(lr, 1, decay).
  LegacyOptions legacy;
  config::read_fields(c, legacy);
  if (legacy.decay == 0) return lr;
  if (lr.is_schedule())
    throw ValueError("optimizer config: the legacy `decay` argument cannot be combined with a learning-rate "
                     "schedule; fold it into the schedule. Config: " + c.dump());
  return LearningRate(std::make_shared<schedules::InverseTimeDecay>(lr.at(0), 1.0, legacy.decay));
}

std::shared_ptr<Optimizer> Optimizer::get(const std::string& identifier) {
  return Registry<Optimizer>::instance().get(identifier, "optimizer");
}

std::shared_ptr<Optimizer> Optimizer::deserialize(const json& config) {
  return Registry<Optimizer>::instance().deserialize(config, "optimizer");
}

json serialize(const Optimizer& optimizer) { return serialize_object(optimizer.class_name(), optimizer.get_config()); }

}  // namespace keras::optimizers
