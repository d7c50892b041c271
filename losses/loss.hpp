#pragma once
// Loss base (keras.losses.Loss): per-sample values from call(), then sample weighting and reduction.
#include <functional>
#include <memory>
#include <string>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::losses {

/// How per-sample losses become one number: Keras's "sum_over_batch_size" (also "auto"), "sum", "none".
enum class Reduction { sum_over_batch_size, sum, none };
std::string reduction_name(Reduction);
Reduction reduction_from_name(const std::string&);

class Loss {
 public:
  explicit Loss(std::string name, Reduction reduction = Reduction::sum_over_batch_size)
      : name_(std::move(name)), reduction_(reduction) {}
  virtual ~Loss() = default;

  /// Per-sample losses, built from keras::ops so gradients flow (usually y_pred's shape without the last axis).
  virtual Tensor call(const Tensor& y_true, const Tensor& y_pred) const = 0;
  /// call(), weighted by sample_weight (broadcast over samples) and reduced.
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) const;

  virtual std::string class_name() const = 0;
  /// {"reduction", "name"} plus each subclass's own fields.
  virtual json get_config() const;
  const std::string& name() const { return name_; }
  Reduction reduction() const { return reduction_; }

  /// By name ("sparse_categorical_crossentropy", "mse", "SparseCategoricalCrossentropy").
  static std::shared_ptr<Loss> get(const std::string& identifier);
  static std::shared_ptr<Loss> deserialize(const json& config);

 private:
  std::string name_;
  Reduction reduction_;
};

/// A loss from any callable (y_true, y_pred) → per-sample Tensor, e.g. a user's focal loss.
class LossFunctionWrapper : public Loss {
 public:
  using Fn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;
  LossFunctionWrapper(Fn fn, std::string name, Reduction reduction = Reduction::sum_over_batch_size)
      : Loss(std::move(name), reduction), fn_(std::move(fn)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return fn_(y_true, y_pred); }
  std::string class_name() const override { return "LossFunctionWrapper"; }

 private:
  Fn fn_;
};

/// What compile() accepts as a loss: a name, a Loss object, or a callable.
class LossRef : public Ref<Loss> {
 public:
  using Ref<Loss>::Ref;
  LossRef(LossFunctionWrapper::Fn fn, std::string name = "custom_loss")
      : Ref<Loss>(std::make_shared<LossFunctionWrapper>(std::move(fn), std::move(name))) {}
  template <class F>
    requires std::is_invocable_r_v<Tensor, F, const Tensor&, const Tensor&> &&
             (!std::derived_from<std::decay_t<F>, Loss>)
  LossRef(F fn) : LossRef(LossFunctionWrapper::Fn(std::move(fn))) {}
};

json serialize(const Loss& loss);

/// Keras's squeeze_or_expand_dimensions: a (N,) target against (N, 1) predictions (or the reverse) is
/// reshaped to match; other shapes must broadcast, or a ValueError names `loss_name` and both shapes.
Tensor match_target(const Tensor& y_true, const Tensor& y_pred, const std::string& loss_name);

}  // namespace keras::losses
