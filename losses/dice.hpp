#pragma once
// keras.losses.Dice (Keras 3): 1 - 2 sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + epsilon).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "losses/loss.hpp"

namespace keras::losses {

/// 1 - 2 sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + 1e-7), the sums over `axis` (every axis
/// when unset, so the whole batch gives one value, as Keras's default), as keras.losses.dice.
Tensor dice(const Tensor& y_true, const Tensor& y_pred, const std::optional<std::vector<int>>& axis = std::nullopt);

struct DiceOptions {
  /// The axes the sums run over; unset (None) sums everything. `{1, 2, 3}` gives one loss per image.
  std::optional<std::vector<int>> axis{};
  KERAS_LOSS_OPTIONS("dice")
};

class Dice : public Loss {
 public:
  explicit Dice(DiceOptions options = {}) : Loss(options), options_(std::move(options)) {}
  Tensor call(const Tensor& y_true, const Tensor& y_pred) const override { return dice(y_true, y_pred, options_.axis); }
  std::string class_name() const override { return "Dice"; }
  /// {"reduction", "name", "axis"}.
  json get_config() const override;
  static std::shared_ptr<Loss> from_config(const json& config);
  const DiceOptions& options() const { return options_; }

 private:
  DiceOptions options_;
};

}  // namespace keras::losses
