#pragma once
// The arguments every keras.applications model takes, as Keras names them:
//   k::applications::ResNet50({.include_top = false, .input_shape = {64, 64, 3}, .pooling = "avg"});
// Keras's default weights="imagenet" downloads a file; kerascpp downloads nothing, so `weights` is unset
// (Keras's None: random initialization) or the path of Keras's published .h5 file, downloaded by the user
// (each model's header names its file).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "keras/keras_tensor.hpp"
#include "keras/model.hpp"

namespace keras::applications {

/// The fields of every application's options struct, in Keras's order (a struct may add its own after them).
#define KERAS_APPLICATION_OPTIONS                                                                              \
  bool include_top = true;                       /* the classifier on top of the convolutional base */       \
  std::optional<std::string> weights{};          /* unset: random; else the path of Keras's weights file */  \
  std::optional<::keras::KerasTensor> input_tensor{}; /* a symbolic tensor to build the model on */          \
  std::optional<::keras::Shape> input_shape{};   /* (rows, cols, channels) without the batch; -1 for None */ \
  std::string pooling{};                         /* include_top=false: "", "avg" or "max" */                 \
  std::int64_t classes = 1000;                                                                               \
  std::string classifier_activation = "softmax"; /* "linear" (or "") returns the logits, Keras's None */     \
  std::string name{};                            /* empty: Keras's default name of the model */

struct ApplicationOptions {
  KERAS_APPLICATION_OPTIONS
};

}  // namespace keras::applications
