#include "layers/core/dropout.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

KERAS_FIELDS(DropoutOptions, seed)

Dropout::Dropout(double rate, DropoutOptions options)
    : Layer(options, "dropout"), rate_(rate), options_(std::move(options)), seed_generator_(options_.seed) {
  if (!(rate >= 0.0 && rate < 1.0))
    throw ValueError("Invalid value received for argument `rate`: expected a float in [0, 1), received rate=" +
                     std::to_string(rate));
}

Tensor Dropout::call(const Tensor& inputs, bool training) {
  if (!training || rate_ == 0.0) return inputs;
  // The mask holds 0 or 1 / (1 - rate); multiplying by it gives the gradient for free.
  Tensor mask = Tensor::empty(inputs.shape());
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate_,
                           utils::engine(seed_generator_));
  return ops::multiply(inputs, mask);
}

json Dropout::get_config() const {
  json c = layer_config(*this, options_);
  c["rate"] = rate_;
  c["noise_shape"] = nullptr;
  return c;
}

std::shared_ptr<Layer> Dropout::from_config(const json& c) {
  return make_from_config<Dropout, DropoutOptions>(c, config::required<double>(c, "rate"));
}

KERAS_REGISTER_LAYER(Dropout)

}  // namespace keras::layers
