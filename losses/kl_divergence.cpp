#include "losses/kl_divergence.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "losses/loss_config.hpp"

namespace keras::losses {

Tensor kl_divergence(const Tensor& y_true, const Tensor& y_pred) {
  constexpr float kEpsilon = 1e-7f;  // keras.backend.epsilon()
  Tensor t = ops::clip(ops::cast(match_target(y_true, y_pred, "kl_divergence"), DType::float32), kEpsilon, 1.f);
  Tensor p = ops::clip(y_pred, kEpsilon, 1.f);
  return ops::sum(t * ops::log(t / p), {-1});
}

KERAS_FIELDS(KLDivergenceOptions)

std::shared_ptr<Loss> KLDivergence::from_config(const json& config) {
  return loss_from_config<KLDivergence, KLDivergenceOptions>(config);
}

namespace {
const bool registered = register_class<Loss, KLDivergence>(
    "KLDivergence", {"kl_divergence", "kld", "KLD", "kullback_leibler_divergence"});
}

}  // namespace keras::losses
