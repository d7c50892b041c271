#pragma once
// Metric base (keras.metrics.Metric): stateful update_state / result / reset_state, plus Mean and
// the wrapper that averages a per-sample function (what "mae" or "binary_accuracy" are).
#include <functional>
#include <memory>
#include <string>

#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::metrics {

class Metric {
 public:
  explicit Metric(std::string name) : name_(std::move(name)) {}
  virtual ~Metric() = default;

  virtual void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) = 0;
  virtual double result() const = 0;
  virtual void reset_state() = 0;

  virtual std::string class_name() const = 0;
  /// {"name", "dtype"} plus each subclass's own fields.
  virtual json get_config() const { return {{"name", name_}, {"dtype", "float32"}}; }
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
class Mean : public Metric {
 public:
  explicit Mean(MeanOptions options = {}) : Metric(options.name) {}
  /// Adds values (any shape), each weighted by sample_weight (broadcast) when given.
  void update(const Tensor& values, const Tensor& sample_weight = Tensor());
  /// Metric interface: averages y_pred (y_true is ignored).
  void update_state(const Tensor& /*y_true*/, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override {
    update(y_pred, sample_weight);
  }
  double result() const override { return count_ > 0 ? total_ / count_ : 0.0; }
  void reset_state() override { total_ = count_ = 0; }
  std::string class_name() const override { return "Mean"; }
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  double total_ = 0, count_ = 0;
};

/// Averages fn(y_true, y_pred) over samples (keras.metrics.MeanMetricWrapper).
class MeanMetricWrapper : public Metric {
 public:
  using Fn = std::function<Tensor(const Tensor& y_true, const Tensor& y_pred)>;
  MeanMetricWrapper(Fn fn, std::string name, std::string class_name = "MeanMetricWrapper")
      : Metric(name), fn_(std::move(fn)), class_name_(std::move(class_name)), mean_({.name = std::move(name)}) {}
  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight = Tensor()) override;
  double result() const override { return mean_.result(); }
  void reset_state() override { mean_.reset_state(); }
  std::string class_name() const override { return class_name_; }

 private:
  Fn fn_;
  std::string class_name_;
  Mean mean_;
};

/// What compile() accepts as a metric: a Metric object or a string identifier. Strings are resolved
/// when the first batch is seen, so "accuracy" can pick binary, categorical or sparse accuracy from
/// the loss and the shapes, as Keras does.
class MetricRef {
 public:
  MetricRef(const std::string& identifier) : identifier_(identifier) {}
  MetricRef(const char* identifier) : identifier_(identifier) {}
  MetricRef(std::shared_ptr<Metric> metric) : metric_(std::move(metric)) {}
  template <class D>
    requires std::derived_from<std::decay_t<D>, Metric>
  MetricRef(D&& metric) : metric_(std::make_shared<std::decay_t<D>>(std::forward<D>(metric))) {}

  const std::string& identifier() const { return identifier_; }
  const std::shared_ptr<Metric>& metric() const { return metric_; }

 private:
  std::string identifier_;
  std::shared_ptr<Metric> metric_;
};

json serialize(const Metric& metric);

}  // namespace keras::metrics
