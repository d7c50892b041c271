#include "layers/regularization/activity_regularization.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(ActivityRegularizationOptions, l1, l2)

ActivityRegularization::ActivityRegularization(ActivityRegularizationOptions options)
    : Layer(options, "activity_regularization"), options_(std::move(options)) {
  set_activity_regularizer(regularizers::L1L2(options_.l1, options_.l2));
}

json ActivityRegularization::get_config() const { return layer_config(*this, options_); }

std::shared_ptr<Layer> ActivityRegularization::from_config(const json& c) {
  return make_from_config<ActivityRegularization, ActivityRegularizationOptions>(c);
}

KERAS_REGISTER_LAYER(ActivityRegularization)

}  // namespace keras::layers
