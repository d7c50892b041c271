#pragma once
// keras.metrics' probabilistic metrics: running means of the crossentropies, the Kullback-Leibler
// divergence and the Poisson loss, as tf.keras 2.x's probabilistic_metrics.py. Their registered
// identifiers are the loss names, so compile({.metrics = {"binary_crossentropy"}}) logs what Keras logs.
#include <memory>
#include <string>

#include "metrics/metric.hpp"

namespace keras::metrics {

struct BinaryCrossentropyOptions {
  std::string name = "binary_crossentropy";
  bool from_logits = false;
  double label_smoothing = 0.0;
};

/// Averages losses::binary_crossentropy over samples ("binary_crossentropy").
class BinaryCrossentropy : public MeanMetricWrapper {
 public:
  explicit BinaryCrossentropy(BinaryCrossentropyOptions options = {});
  /// {"name", "dtype", "from_logits", "label_smoothing"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  BinaryCrossentropyOptions options_;
};

struct CategoricalCrossentropyOptions {
  std::string name = "categorical_crossentropy";
  bool from_logits = false;
  double label_smoothing = 0.0;
  int axis = -1;
};

/// Averages losses::categorical_crossentropy (one-hot targets) over samples ("categorical_crossentropy").
class CategoricalCrossentropy : public MeanMetricWrapper {
 public:
  explicit CategoricalCrossentropy(CategoricalCrossentropyOptions options = {});
  /// {"name", "dtype", "from_logits", "label_smoothing", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  CategoricalCrossentropyOptions options_;
};

struct SparseCategoricalCrossentropyOptions {
  std::string name = "sparse_categorical_crossentropy";
  bool from_logits = false;
  /// Only the last axis is supported (Keras's default).
  int axis = -1;
};

/// Averages losses::sparse_categorical_crossentropy (integer targets) over samples.
class SparseCategoricalCrossentropy : public MeanMetricWrapper {
 public:
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {});
  /// {"name", "dtype", "from_logits", "ignore_class" (always null), "axis"}.
  json get_config() const override;
  static std::shared_ptr<Metric> from_config(const json& config);

 private:
  SparseCategoricalCrossentropyOptions options_;
};

struct KLDivergenceOptions {
  std::string name = "kullback_leibler_divergence";  // tf.keras 2.x's name (Keras 3: "kl_divergence")
};

/// Averages losses::kl_divergence over samples.
class KLDivergence : public MeanMetricWrapper {
 public:
  explicit KLDivergence(KLDivergenceOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

struct PoissonOptions {
  std::string name = "poisson";
};

/// Averages losses::poisson (y_pred - y_true * log(y_pred + 1e-7)) over samples.
class Poisson : public MeanMetricWrapper {
 public:
  explicit Poisson(PoissonOptions options = {});
  static std::shared_ptr<Metric> from_config(const json& config);
};

}  // namespace keras::metrics
