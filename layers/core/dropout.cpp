#include "layers/core/dropout.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

Dropout::Dropout(double rate, DropoutOptions options)
    : Layer(options.name, "dropout"), rate_(rate), seed_(options.seed), seeded_generator_(options.seed.value_or(0)) {
  if (!(rate >= 0.0 && rate < 1.0))
    throw ValueError("Invalid value received for argument `rate`: expected a float in [0, 1), received rate=" +
                     std::to_string(rate));
  set_input_shape(options.input_shape);
}

Tensor Dropout::call(const Tensor& inputs, bool training) {
  if (!training || rate_ == 0.0) return inputs;
  // The mask holds 0 or 1 / (1 - rate); multiplying by it gives the gradient for free.
  Tensor mask = Tensor::empty(inputs.shape());
  utils::fill_dropout_mask(mask.data<float>(), mask.size(), rate_, seed_ ? seeded_generator_ : utils::random_generator());
  return ops::multiply(inputs, mask);
}

json Dropout::get_config() const {
  json c = Layer::get_config();
  c["rate"] = rate_;
  c["noise_shape"] = nullptr;
  c["seed"] = seed_ ? json(*seed_) : json(nullptr);
  return c;
}

std::shared_ptr<Layer> Dropout::from_config(const json& c) {
  DropoutOptions o{.name = c.value("name", "")};
  if (c.contains("seed") && !c["seed"].is_null()) o.seed = c["seed"].get<std::uint64_t>();
  auto layer = std::make_shared<Dropout>(c.at("rate").get<double>(), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Dropout)

}  // namespace keras::layers
