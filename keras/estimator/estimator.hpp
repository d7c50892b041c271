#pragma once
// keras::estimator: tf.estimator in C++ (Estimator, EstimatorSpec, ModeKeys, RunConfig, TrainSpec/EvalSpec,
// train_and_evaluate, model_to_estimator, the premade DNN/Linear estimators and the feature columns).
// Not part of keras/keras.hpp: include this header.
#include "keras/estimator/base_estimator.hpp"
#include "keras/estimator/dense_features.hpp"
#include "keras/estimator/estimator_spec.hpp"
#include "keras/estimator/feature_columns.hpp"
#include "keras/estimator/head.hpp"
#include "keras/estimator/model_to_estimator.hpp"
#include "keras/estimator/premade_dnn.hpp"
#include "keras/estimator/premade_dnn_linear.hpp"
#include "keras/estimator/premade_linear.hpp"
#include "keras/estimator/run_config.hpp"
#include "keras/estimator/train_and_evaluate.hpp"
#include "keras/estimator/iris_like.hpp"
