#include "layers/regularization/activity_regularization.hpp"

#include "keras/json.hpp"

namespace keras::layers {

ActivityRegularization::ActivityRegularization(ActivityRegularizationOptions options)
    : Layer(options.name, "activity_regularization", options.trainable), l1_(options.l1), l2_(options.l2) {
  set_activity_regularizer(regularizers::L1L2(l1_, l2_));
  set_input_shape(options.input_shape);
}

json ActivityRegularization::get_config() const {
  json c = Layer::get_config();
  c["l1"] = l1_;
  c["l2"] = l2_;
  return c;
}

std::shared_ptr<Layer> ActivityRegularization::from_config(const json& c) {
  auto layer = std::make_shared<ActivityRegularization>(ActivityRegularizationOptions{
      .l1 = c.value("l1", 0.0), .l2 = c.value("l2", 0.0), .name = c.value("name", "")});
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(ActivityRegularization)

}  // namespace keras::layers
