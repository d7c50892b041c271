#pragma once
// All built-in metrics (keras.metrics): the Metric base, its classes, their per-sample functions and
// the resolution of compile() strings such as "accuracy".
#include "metrics/accuracy_resolution.hpp"
#include "metrics/binary_accuracy.hpp"
#include "metrics/categorical_accuracy.hpp"
#include "metrics/mean_absolute_error.hpp"
#include "metrics/mean_squared_error.hpp"
#include "metrics/metric.hpp"
#include "metrics/sparse_categorical_accuracy.hpp"
