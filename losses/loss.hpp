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
/// Reduction in a config: its name; "auto" reads as sum_over_batch_size.
json encode(Reduction reduction);
void decode(const json& value, Reduction& reduction);

/// The arguments every loss takes, declared once: an options struct ends with KERAS_LOSS_OPTIONS and
/// Keras's default name, so that `Huber({.delta = 2.0, .name = "h"})` stays one flat designated initializer.
/// The Loss base keeps them (CommonOptions) and writes and reads them in every config (for_each_base_field).
#define KERAS_LOSS_OPTIONS(default_name)                                                    \
  ::keras::losses::Reduction reduction = ::keras::losses::Reduction::sum_over_batch_size; \
  std::string name = default_name;

/// The base arguments on their own: what the Loss base keeps.
struct CommonOptions {
  KERAS_LOSS_OPTIONS("")
};

/// The base fields under the keys Keras writes in every loss's config, listed once: calls
/// visit(key, options.field...) for each, on one options struct (to write or read its config) or on two
/// (to copy one into the other).
template <class Visit, class... Options>
void for_each_base_field(Visit&& visit, Options&... options) {
  visit("reduction", options.reduction...);
  visit("name", options.name...);
}

class Loss {
 public:
  explicit Loss(std::string name, Reduction reduction = Reduction::sum_over_batch_size)
      : common_{.reduction = reduction, .name = std::move(name)} {}
  /// A built-in: the base fields of its options struct (which ends with KERAS_LOSS_OPTIONS).
  template <class Options>
    requires requires(const Options& options) { options.reduction; }
  explicit Loss(const Options& options) {
    for_each_base_field([](const char*, auto& to, const auto& from) { to = from; }, common_, options);
  }
  virtual ~Loss() = default;

  /// Per-sample losses, built from keras::ops so gradients flow (usually y_pred's shape without the last axis).
  virtual Tensor call(const Tensor& y_true, const Tensor& y_pred) const = 0;
  /// call(), weighted by sample_weight (broadcast over samples) and reduced.
  Tensor operator()(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) const;

  virtual std::string class_name() const = 0;
  /// Which per-sample values count (1) and which are ignored (0), shaped like call()'s result; undefined
  /// when all count. Ignored values weigh 0, and "sum_over_batch_size" averages over the counted ones
  /// only (Keras's loss mask, e.g. SparseCategoricalCrossentropy's ignore_class).
  virtual Tensor valid_mask(const Tensor& y_true, const Tensor& y_pred) const { return Tensor(); }
  /// The base fields (for_each_base_field) plus each subclass's own fields (losses/loss_config.hpp).
  virtual json get_config() const;
  const std::string& name() const { return common_.name; }
  Reduction reduction() const { return common_.reduction; }

  /// By name ("sparse_categorical_crossentropy", "mse", "SparseCategoricalCrossentropy").
  static std::shared_ptr<Loss> get(const std::string& identifier);
  static std::shared_ptr<Loss> deserialize(const json& config);

 private:
  CommonOptions common_;
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
