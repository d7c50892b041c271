#pragma once
// model_to_estimator (tf.keras.estimator.model_to_estimator): an Estimator that trains, evaluates and
// predicts with a compiled Keras model. Its features are keyed by model.input_names() (a plain Tensor
// feeds a single-input model); its labels are the model's y; predictions are keyed by output_names().
// The model's current weights are saved as model_dir's first checkpoint (global step 0) when model_dir
// has none, so training starts from them, as tf warm-starts from the Keras model.
// Deviation: tf trains a clone of the model; this Estimator trains the model object itself (its weights
// then follow the latest checkpoint of each call).
#include <memory>
#include <string>

#include "keras/estimator/base_estimator.hpp"

namespace keras::estimator {

struct ModelToEstimatorOptions {
  std::string model_dir{};
  RunConfig config{};
};

std::unique_ptr<Estimator> model_to_estimator(std::shared_ptr<Model> keras_model, ModelToEstimatorOptions options = {});

}  // namespace keras::estimator
