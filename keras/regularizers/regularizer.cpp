#include "keras/regularizers/regularizer.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/function/capture.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"

namespace keras::regularizers {
namespace {

double read_factor(const json& c, const char* key, double fallback, const char* owner) {
  if (!c.contains(key) || c[key].is_null()) return fallback;
  if (!c[key].is_number())
    throw ValueError(fmt::format("{} regularizer: '{}' must be a number, got {}", owner, key, c[key].dump()));
  return c[key].get<double>();
}

void check_factor(double v, const char* key, const char* owner) {
  if (!std::isfinite(v) || v < 0)
    throw ValueError(fmt::format("Value for argument `{}` of {} must be a non-negative finite number, received {}={}",
                                 key, owner, key, v));
}

// The "l1_l2" identifier: Keras's function regularizers.l1_l2(l1=0.01, l2=0.01).
struct L1L2Function {
  static std::shared_ptr<Regularizer> from_config(const json&) { return std::make_shared<L1L2>(0.01, 0.01); }
};

const bool registered = register_class<Regularizer, L1>("L1", {"l1"}) &&
                        register_class<Regularizer, L2>("L2", {"l2"}) &&
                        register_class<Regularizer, L1L2>("L1L2") &&
                        register_class<Regularizer, L1L2Function>("l1_l2");

}  // namespace

std::shared_ptr<Regularizer> Regularizer::get(const std::string& identifier) {
  return Registry<Regularizer>::instance().get(identifier, "regularizer");
}

std::shared_ptr<Regularizer> Regularizer::deserialize(const json& config) {
  return Registry<Regularizer>::instance().deserialize(config, "regularizer");
}

json serialize(const RegularizerRef& r) {
  if (!r) return nullptr;
  return serialize_object(r->class_name(), r->get_config());
}

RegularizerRef deserialize_or_null(const json& config) {
  if (config.is_null()) return {};
  return Regularizer::deserialize(config);
}

L1::L1(double l1) : l1_(l1) { check_factor(l1, "l1", "L1"); }
Tensor L1::operator()(const Tensor& x) const { return ops::sum(ops::abs(x)) * static_cast<float>(l1_); }
json L1::get_config() const { return {{"l1", l1_}}; }
std::shared_ptr<Regularizer> L1::from_config(const json& c) {
  return std::make_shared<L1>(read_factor(c, "l1", 0.01, "L1"));
}

L2::L2(double l2) : l2_(l2) { check_factor(l2, "l2", "L2"); }
Tensor L2::operator()(const Tensor& x) const { return ops::sum(ops::square(x)) * static_cast<float>(l2_); }
json L2::get_config() const { return {{"l2", l2_}}; }
std::shared_ptr<Regularizer> L2::from_config(const json& c) {
  return std::make_shared<L2>(read_factor(c, "l2", 0.01, "L2"));
}

L1L2::L1L2(double l1, double l2) : l1_(l1), l2_(l2) {
  check_factor(l1, "l1", "L1L2");
  check_factor(l2, "l2", "L1L2");
}
Tensor L1L2::operator()(const Tensor& x) const {
  Tensor penalty = jit::constant(Tensor::scalar(0.f));  // a constant for compiled functions
  if (l1_ != 0) penalty = penalty + ops::sum(ops::abs(x)) * static_cast<float>(l1_);
  if (l2_ != 0) penalty = penalty + ops::sum(ops::square(x)) * static_cast<float>(l2_);
  return penalty;
}
json L1L2::get_config() const { return {{"l1", l1_}, {"l2", l2_}}; }
std::shared_ptr<Regularizer> L1L2::from_config(const json& c) {
  return std::make_shared<L1L2>(read_factor(c, "l1", 0.0, "L1L2"), read_factor(c, "l2", 0.0, "L1L2"));
}

}  // namespace keras::regularizers
