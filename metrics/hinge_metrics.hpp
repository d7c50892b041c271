#pragma once
// keras.metrics' hinge metrics: running means of the hinge, squared hinge and categorical hinge losses,
// as tf.keras 2.x's hinge_metrics.py; registered under the loss names too ("hinge", …).
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct HingeOptions {
  std::string name = "hinge";
};

/// Averages losses::hinge (targets in {-1, 1}; {0, 1} targets are mapped to them) over samples.
class Hinge : public MeanMetricWrapper {
 public:
  explicit Hinge(HingeOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

struct SquaredHingeOptions {
  std::string name = "squared_hinge";
};

/// Averages losses::squared_hinge over samples.
class SquaredHinge : public MeanMetricWrapper {
 public:
  explicit SquaredHinge(SquaredHingeOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

struct CategoricalHingeOptions {
  std::string name = "categorical_hinge";
};

/// Averages losses::categorical_hinge (one-hot targets) over samples.
class CategoricalHinge : public MeanMetricWrapper {
 public:
  explicit CategoricalHinge(CategoricalHingeOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
