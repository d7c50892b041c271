#pragma once
// The arguments of compile, fit, evaluate and predict (Keras's keyword arguments), with Keras's defaults.
#include <cstdint>
#include <map>
#include <optional>
#include <variant>
#include <vector>

#include "callbacks/callback.hpp"
#include "callbacks/history.hpp"
#include "data/dataset.hpp"
#include "keras/trainers/metrics_spec.hpp"
#include "keras/trainers/structure.hpp"
#include "keras/trainers/validation_freq.hpp"
#include "losses/loss.hpp"
#include "optimizers/optimizer.hpp"

namespace keras {

struct CompileOptions {
  optimizers::OptimizerRef optimizer = "rmsprop";
  /// One loss for every output, a list in the order of model.outputs, or a map by output name (an
  /// output the map leaves out has no loss), as Keras.
  Structure<losses::LossRef> loss{};
  /// The weight of each output's loss in the total loss: a list or a map by output name (default 1).
  Structure<double> loss_weights{};
  /// One list for every output, a list per output, or lists by output name (see MetricsSpec). As Keras,
  /// these metrics ignore sample_weight and class_weight.
  MetricsSpec metrics{};
  /// Metrics weighted by sample_weight and class_weight, in the same forms as `metrics`. A weighted
  /// metric whose name an unweighted one already logs is logged as "weighted_<name>" (tf.keras 2.x).
  MetricsSpec weighted_metrics{};
  /// As Keras: true runs the train step op by op (eager, debuggable); false (the default) runs it as a
  /// compiled function (keras::function) when jit_compile is on, falling back to eager where it cannot.
  bool run_eagerly = false;
  /// The train step as a compiled function (traced once per batch signature, then replayed). Ignored when
  /// run_eagerly is true.
  bool jit_compile = true;
};

/// Data for validation or evaluation given as arrays (several inputs/outputs: lists or maps by name).
struct ValidationData {
  Arrays x{};
  Arrays y{};
  Arrays sample_weight{};
};

/// validation_data: arrays, or a Dataset of (x, y[, sample_weight]) batches.
using ValidationSource = std::variant<ValidationData, data::Dataset>;

struct FitOptions {
  std::int64_t batch_size = 32;
  int epochs = 1;
  int verbose = 1;  // 0 silent, 1 progress bar, 2 one line per epoch
  std::vector<callbacks::CallbackRef> callbacks{};
  double validation_split = 0.0;  // the last fraction of x/y, taken before shuffling
  std::optional<ValidationSource> validation_data{};
  bool shuffle = true;
  /// One weight per sample; with several outputs one array for all, a list or a map by output name.
  Arrays sample_weight{};
  int initial_epoch = 0;
  std::optional<std::int64_t> validation_batch_size{};
  /// Weight of each class (by integer label) in the loss, as sample weights.
  std::map<std::int64_t, double> class_weight{};
  /// With a Dataset: batches per epoch (required for an infinite one); the iterator carries on across epochs.
  std::optional<std::int64_t> steps_per_epoch{};
  /// With a validation Dataset: batches per validation run (default: the whole dataset).
  std::optional<std::int64_t> validation_steps{};
  /// Validate every n epochs (an int) or after the listed epochs, counted from 1 ({1, 5, 10}).
  ValidationFreq validation_freq{};
};

struct EvaluateOptions {
  std::int64_t batch_size = 32;
  int verbose = 1;
  Arrays sample_weight{};
  std::vector<callbacks::CallbackRef> callbacks{};
  /// With a Dataset: batches to evaluate (default: the whole dataset).
  std::optional<std::int64_t> steps{};
};

struct PredictOptions {
  std::int64_t batch_size = 32;
  int verbose = 0;
  std::vector<callbacks::CallbackRef> callbacks{};
  /// With a Dataset: batches to predict (default: the whole dataset).
  std::optional<std::int64_t> steps{};
};

}  // namespace keras
