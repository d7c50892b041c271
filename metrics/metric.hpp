#pragma once
// Metric base (keras.metrics.Metric): stateful update_state / result / reset_state, plus Mean and
// the wrapper that averages a per-sample function (what "mae" or "binary_accuracy" are).
#include <concepts>
#include <functional>
#include <memory>
#include <string>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"
#include "losses/loss.hpp"

namespace keras::metrics {

class Metric {
 public:
  /// Ref<Metric> keeps a string identifier for the trainer to resolve ("accuracy" depends on the loss).
  static constexpr bool resolve_identifiers_late = true;

  explicit Metric(std::string name) : name_(std::move(name)) {}
  virtual ~Metric() = default;

  virtual void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) = 0;
  virtual double result() const = 0;
  virtual void reset_state() = 0;
  /// The metric's accumulators as numbers that add up across replicas (Keras's metric variables, which
  /// tf.distribute sums): set_state(the element-wise sum of every replica's state()) makes result() the
  /// metric of all their data together. Empty for a metric that does not say (a custom one, or one not yet
  /// updated); under a strategy its logged result is then the replicas' results averaged by their rows.
  virtual std::vector<double> state() const { return {}; }
  /// Restores accumulators from state()'s layout; a ValueError naming the metric when the size differs.
  virtual void set_state(const std::vector<double>& state);

  virtual std::string class_name() const = 0;
  /// {"name", "dtype"} plus each subclass's own fields.
  virtual json get_config() const;
  const std::string& name() const { return name_; }
  void set_name(std::string name) { name_ = std::move(name); }

  /// By name ("sparse_categorical_accuracy", "mae", "SparseCategoricalAccuracy").
  static std::shared_ptr<Metric> get(const std::string& identifier);
  static std::shared_ptr<Metric> deserialize(const json& config);

 private:
  std::string name_;
};

struct MeanOptions {
  std::string name = "mean";
};

/// The weighted mean of the values given to update_state (keras.metrics.Mean).
///
///     metrics::Mean m;
///     m.update(Tensor::scalar(0));
///     m.update(Tensor::scalar(5));
///     m.result();   // 2.5
///     m(10.0);      // updates, then returns the new mean: 5
class Mean : public Metric {
 public:
  explicit Mean(MeanOptions options = {}) : Metric(options.name) {}
  /// Adds values (any shape), each weighted by sample_weight (broadcast) when given.
  void update(const Tensor& values, const Tensor& sample_weight = Tensor());
  /// Adds one value with a weight.
  void update(double value, double weight = 1.0) {
    total_ += value * weight;
    count_ += weight;
  }
  /// Keras's `m(values, sample_weight)`: updates, then returns result().
  double operator()(const Tensor& values, const Tensor& sample_weight = Tensor()) {
    update(values, sample_weight);
    return result();
  }
  double operator()(double value, double weight = 1.0) {
    update(value, weight);
    return result();
  }
  /// Metric interface: averages y_pred (y_true is ignored).
  void update_state(const Tensor& /*y_true*/, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override {
    update(y_pred, sample_weight);
  }
  double result() const override { return count_ > 0 ? total_ / count_ : 0.0; }
  void reset_state() override { total_ = count_ = 0; }
  std::vector<double> state() const override { return {total_, count_}; }
  void set_state(const std::vector<double>& state) override;
  std::string class_name() const override { return "Mean"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  double total_ = 0, count_ = 0;
};

/// Averages fn(y_true, y_pred) over samples (keras.metrics.MeanMetricWrapper). fn is any loss-like
/// callable returning per-sample values: a function (losses::mean_squared_error), a lambda, or a
/// losses::Loss object (its per-sample call() is averaged, not its reduced value). A (N,) target
/// against (N, 1) predictions (or the reverse) is reshaped to match before fn sees them, as in Keras.
///
///     metrics::MeanMetricWrapper mape([](const Tensor& t, const Tensor& p) {
///       return ops::mean(ops::abs((t - p) / t), {-1}) * 100.f; }, "my_mape");
///     metrics::MeanMetricWrapper bce(losses::BinaryCrossentropy({.from_logits = true}));
class MeanMetricWrapper : public Metric {
 public:
  using Fn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;
  MeanMetricWrapper(Fn fn, std::string name = "mean_metric_wrapper", std::string class_name = "MeanMetricWrapper")
      : Metric(name), fn_(std::move(fn)), class_name_(std::move(class_name)), mean_({.name = std::move(name)}) {}
  /// Averages a loss's per-sample values; named after the loss unless `name` is given. The loss's name
  /// is written as the config's "fn".
  explicit MeanMetricWrapper(std::shared_ptr<losses::Loss> loss, std::string name = "");
  template <class L>
    requires std::derived_from<std::decay_t<L>, losses::Loss>
  explicit MeanMetricWrapper(L&& loss, std::string name = "")
      : MeanMetricWrapper(std::make_shared<std::decay_t<L>>(std::forward<L>(loss)), std::move(name)) {}

  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override { return mean_.result(); }
  void reset_state() override { mean_.reset_state(); }
  std::vector<double> state() const override { return mean_.state(); }
  void set_state(const std::vector<double>& state) override { mean_.set_state(state); }
  std::string class_name() const override { return class_name_; }
  /// {"name", "dtype"}, plus "fn" (a registered metric or loss identifier) for a plain MeanMetricWrapper
  /// whose function is known by name.
  json get_config() const override;
  /// Reads "fn" as a metric identifier ("mae", "top_k_categorical_accuracy") whose function is reused,
  /// or else as a loss identifier whose per-sample values are averaged.
  static std::shared_ptr<Metric> from_config(const json& config);

  const Fn& fn() const { return fn_; }
  /// The identifier written as the config's "fn" (empty when the function has none).
  const std::string& fn_name() const { return fn_name_; }
  void set_fn_name(std::string fn_name) { fn_name_ = std::move(fn_name); }

 private:
  Fn fn_;
  std::string class_name_;
  Mean mean_;
  std::string fn_name_;
};

/// What compile() accepts as a metric: a Metric object or a string identifier. Strings are resolved
/// when the first batch is seen, so "accuracy" can pick binary, categorical or sparse accuracy from
/// the loss and the shapes, as Keras does (Metric::resolve_identifiers_late).
/// A losses:: object is accepted too, as Keras accepts a loss as a metric: the running mean of its
/// per-sample values, logged under the loss's name (`.metrics = {losses::Huber()}` logs "huber_loss").
class MetricRef : public Ref<Metric> {
 public:
  // Ref's constructors spelled out (not inherited): clang 14 does not use inherited constrained constructors
  // for the elements of a braced list such as `.metrics = {"auc", metrics::Recall()}`.
  MetricRef() = default;
  MetricRef(const Ref<Metric>& ref) : Ref<Metric>(ref) {}  // NOLINT
  MetricRef(const std::string& identifier) : Ref<Metric>(identifier) {}  // NOLINT
  MetricRef(const char* identifier) : Ref<Metric>(identifier) {}  // NOLINT
  MetricRef(std::shared_ptr<Metric> p) : Ref<Metric>(std::move(p)) {}  // NOLINT
  template <class D>
    requires std::derived_from<D, Metric>
  MetricRef(std::shared_ptr<D> p) : Ref<Metric>(std::move(p)) {}  // NOLINT
  template <class D>
    requires std::derived_from<std::decay_t<D>, Metric> && (!std::is_pointer_v<std::decay_t<D>>)
  MetricRef(D&& metric) : Ref<Metric>(std::forward<D>(metric)) {}  // NOLINT
  template <class L>
    requires std::derived_from<std::decay_t<L>, losses::Loss>
  MetricRef(L&& loss) : Ref<Metric>(std::make_shared<MeanMetricWrapper>(std::forward<L>(loss))) {}  // NOLINT
};

json serialize(const Metric& metric);

}  // namespace keras::metrics
