#pragma once
// keras.losses.SparseCategoricalCrossentropy: cross-entropy between integer class ids and
// probabilities or logits.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "losses/loss.hpp"

namespace keras::losses {

/// Per-sample -log(y_pred[y_true]) (keras.losses.sparse_categorical_crossentropy). y_true holds one
/// class id per row of y_pred (int32, int64, uint8 or integral floats), shaped like y_pred without its
/// last axis, or with a last axis of 1. Probabilities are clipped to [1e-7, 1 - 1e-7] (and so
/// renormalized) as in Keras 2; logits go through a stable log-softmax, exact for logits of +-100.
/// Rows whose label is `ignore_class` (e.g. -1 or a padding class) get the value 0.
Tensor sparse_categorical_crossentropy(const Tensor& y_true, const Tensor& y_pred, bool from_logits = false,
                                       std::optional<std::int64_t> ignore_class = std::nullopt);

struct SparseCategoricalCrossentropyOptions {
  bool from_logits = false;
  /// A label to ignore (segmentation's "void" class, padding): its rows add nothing to the loss and the
  /// mean is taken over the other rows, as Keras.
  std::optional<std::int64_t> ignore_class{};
  KERAS_LOSS_OPTIONS("sparse_categorical_crossentropy")
};

class SparseCategoricalCrossentropy : public Loss {
 public:
  explicit SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions options = {})
      : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override {
    return sparse_categorical_crossentropy(y_true, y_pred, options_.from_logits, options_.ignore_class);
  }
  /// With ignore_class: 0 where the label is ignore_class.
  Tensor valid_mask(const Tensor& y_true, const Tensor& y_pred) const override;
  std::string class_name() const override { return "SparseCategoricalCrossentropy"; }
  /// {"reduction", "name", "from_logits", "ignore_class"} (ignore_class: null or an int).
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const SparseCategoricalCrossentropyOptions& options() const { return options_; }

 private:
  SparseCategoricalCrossentropyOptions options_;
};

}  // namespace keras::losses
