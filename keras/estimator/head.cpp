// The premade Estimators' heads (see head.hpp).
#include "keras/estimator/head.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/ops/math.hpp"
#include "layers/core/activation.hpp"
#include "losses/binary_crossentropy.hpp"
#include "losses/mean_squared_error.hpp"
#include "losses/sparse_categorical_crossentropy.hpp"
#include "metrics/auc.hpp"
#include "metrics/binary_accuracy.hpp"

namespace keras::estimator {
namespace {

// class_ids from logits: argmax over classes, or logit > 0 for a single logit; int64 [batch, 1].
class ClassIds : public Layer {
 public:
  ClassIds() : Layer("", "class_ids", false) {}
  Tensor call(const Tensor& logits, bool) override {
    const std::int64_t batch = logits.dim(0);
    if (logits.dim(-1) > 1) return ops::argmax(logits, -1).reshape({batch, 1});
    Tensor out = Tensor::zeros({batch, 1}, DType::int64);
    const Tensor f = logits.reshape({batch}).astype(DType::float32);
    for (std::int64_t b = 0; b < batch; ++b) out.data<std::int64_t>()[b] = f.data<float>()[b] > 0.f ? 1 : 0;
    return out;
  }
  Shape compute_output_shape(const Shape& s) const override { return {s.empty() ? -1 : s[0], 1}; }
  DType output_dtype() const override { return DType::int64; }
  KERAS_LAYER(ClassIds)
};

}  // namespace

KERAS_REGISTER_LAYER(ClassIds)

std::int64_t logits_dimension(std::int64_t n_classes) {
  if (n_classes < 2) throw ValueError(fmt::format("n_classes must be > 1, got {}", n_classes));
  return n_classes == 2 ? 1 : n_classes;
}

EstimatorSpec classification_head(ModeKeys mode, const KerasTensor& logits, std::int64_t n_classes,
                                  const optimizers::OptimizerRef& optimizer) {
  EstimatorSpec spec{.mode = mode, .loss_output = "logits", .train_op = optimizer};
  spec.predictions["logits"] = logits;
  spec.predictions["class_ids"] = ClassIds()(logits);
  if (n_classes == 2) {
    spec.predictions["logistic"] = layers::Activation("sigmoid")(logits);
    spec.loss = losses::LossRef(losses::BinaryCrossentropy({.from_logits = true}));
    spec.eval_metric_ops = {metrics::MetricRef(metrics::BinaryAccuracy({.name = "accuracy", .threshold = 0.0})),
                            metrics::MetricRef(metrics::AUC({.name = "auc", .from_logits = true})),
                            metrics::MetricRef(metrics::AUC({.curve = "PR", .name = "auc_precision_recall", .from_logits = true}))};
  } else {
    spec.predictions["probabilities"] = layers::Activation("softmax")(logits);
    spec.loss = losses::LossRef(losses::SparseCategoricalCrossentropy({.from_logits = true}));
    spec.eval_metric_ops = {metrics::MetricRef("accuracy")};
  }
  return spec;
}

EstimatorSpec regression_head(ModeKeys mode, const KerasTensor& predictions, const optimizers::OptimizerRef& optimizer) {
  EstimatorSpec spec{.mode = mode, .loss_output = "predictions", .train_op = optimizer};
  spec.predictions["predictions"] = predictions;
  spec.loss = losses::LossRef(losses::MeanSquaredError());
  return spec;
}

}  // namespace keras::estimator
