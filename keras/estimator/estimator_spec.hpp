#pragma once
// ModeKeys and EstimatorSpec (tf.estimator.ModeKeys, tf.estimator.EstimatorSpec): what a model_fn returns.
//
// tf's model_fn builds a graph: predictions, a loss tensor, a train_op and eval_metric_ops. Here it
// builds a functional graph on the symbolic features it is given: `predictions` are named symbolic
// outputs; the loss is a Keras loss that compares the labels with one of them (`loss_output`); the train
// op is the optimizer that minimizes it; eval_metric_ops are Keras metrics on that same output. The
// Estimator makes a Model of it (inputs: the features; outputs: the loss output in TRAIN and EVAL, every
// prediction in PREDICT), compiles it and runs it.
#include <map>
#include <optional>
#include <string>

#include "keras/keras_tensor.hpp"
#include "keras/trainers/options.hpp"

namespace keras::estimator {

enum class ModeKeys { TRAIN, EVAL, PREDICT };
/// "train", "eval", "infer" (tf's strings).
std::string to_string(ModeKeys mode);

struct EstimatorSpec {
  ModeKeys mode = ModeKeys::TRAIN;
  /// Named outputs of the network ("logits", "probabilities", "class_ids", ...).
  std::map<std::string, KerasTensor> predictions{};
  /// Which prediction the loss and metrics compare with the labels (unset: the only prediction, else "logits").
  std::string loss_output{};
  /// TRAIN and EVAL: the loss of labels against predictions[loss_output].
  std::optional<losses::LossRef> loss{};
  /// TRAIN: the optimizer minimizing the loss (tf's train_op = optimizer.minimize(loss, global_step)).
  std::optional<optimizers::OptimizerRef> train_op{};
  /// EVAL: metrics of labels against predictions[loss_output] ("accuracy", metric objects).
  MetricsSpec::List eval_metric_ops{};
};

}  // namespace keras::estimator
