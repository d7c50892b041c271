#include "layers/core/identity.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(IdentityOptions)  // the base fields only

Identity::Identity(IdentityOptions options) : Layer(options, "identity") { supports_masking_ = true; }

Tensor Identity::call(const Tensor& inputs, bool) { return inputs; }

std::shared_ptr<Layer> Identity::from_config(const json& c) { return make_from_config<Identity, IdentityOptions>(c); }

KERAS_REGISTER_LAYER(Identity)

}  // namespace keras::layers
