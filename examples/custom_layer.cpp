// A custom layer, from definition to a reloaded model: weights made in build() with add_weight, the
// forward pass in call() with keras::ops, config fields declared once, registration by name, fit, save to
// HDF5, load_model, and the reloaded model's predictions compared with the original's.
//   custom_layer [MODEL.h5]      (default: custom_layer.h5 in the current directory)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <keras/config/fields.hpp>
#include <keras/config/layer_config.hpp>
#include <keras/keras.hpp>
namespace k = keras;

// README: begin custom-layer
// y = x @ kernel + bias, with `units` outputs (the Linear layer of Keras's subclassing guide).
struct LinearOptions {
  std::int64_t units = 1;
  k::initializers::InitializerRef kernel_initializer = "glorot_uniform";
  KERAS_LAYER_OPTIONS  // name, trainable, input_shape: what every layer takes
};
KERAS_FIELDS(LinearOptions, units, kernel_initializer)  // the config's fields, listed once

class Linear : public k::Layer {
 public:
  explicit Linear(LinearOptions options = {}) : k::Layer(options, "linear"), options_(std::move(options)) {}

  void build(const k::Shape& input_shape) override {  // the weights, once the input size is known
    kernel_ = add_weight("kernel", {input_shape.back(), options_.units}, options_.kernel_initializer);
    bias_ = add_weight("bias", {options_.units}, "zeros");
  }
  k::Tensor call(const k::Tensor& x, bool /*training*/) override {
    return k::ops::matmul(x, kernel_->value()) + bias_->value();
  }
  k::Shape compute_output_shape(const k::Shape& input_shape) const override {
    k::Shape output_shape = input_shape;
    output_shape.back() = options_.units;
    return output_shape;
  }

  // name, trainable, dtype and the listed fields, written and read back through KERAS_FIELDS
  k::json get_config() const override { return k::layer_config(*this, options_); }
  static std::shared_ptr<k::Layer> from_config(const k::json& config) {
    return k::make_from_config<Linear, LinearOptions>(config);
  }

 private:
  LinearOptions options_;
  std::shared_ptr<k::Variable> kernel_, bias_;

  KERAS_LAYER(Linear)  // class_name() "Linear"; Linear(...)(x) on a symbolic x moves the layer into the graph
};
KERAS_REGISTER_LAYER(Linear)  // load_model finds the class by its name
// README: end custom-layer

int main(int argc, char** argv) try {
  const std::string path = argc > 1 ? argv[1] : "custom_layer.h5";
  k::utils::set_random_seed(1);

  // y = x0 - 2 x1 + x2², a task a linear model cannot fit but Linear → relu → Linear can.
  const std::int64_t n = 512;
  k::Tensor x = k::Tensor::empty({n, 3}), y = k::Tensor::empty({n, 1});
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  for (std::int64_t i = 0; i < n; ++i) {
    float* row = x.data<float>() + 3 * i;
    for (int j = 0; j < 3; ++j) row[j] = uniform(gen);
    y.data<float>()[i] = row[0] - 2 * row[1] + row[2] * row[2];
  }

  // README: begin custom-layer-use
  k::Sequential model({k::layers::Input({3}), Linear({.units = 32}), k::layers::Activation("relu"),
                         Linear({.units = 1})});
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-2}), .loss = "mse"});
  auto history = model.fit(x, y, {.batch_size = 32, .epochs = 20, .verbose = 0});
  model.save(path);                                          // config {"class_name": "Linear", "units": 32, ...}
  auto loaded = k::models::load_model(path);                 // rebuilt through Linear::from_config
  // README: end custom-layer-use
  model.summary();

  const auto& losses = history.history.at("loss");
  std::printf("fit: loss %.4f after the first epoch, %.4f after the last (%zu epochs)\n", losses.front(), losses.back(),
              losses.size());
  const std::string config = loaded->get_layer("linear")->get_config().dump();
  std::printf("config of layer \"linear\" in %s: %s\n", path.c_str(), config.c_str());

  const auto expected = model.predict(x).to_vector<float>();
  const auto got = loaded->predict(x).to_vector<float>();
  double max_difference = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    max_difference = std::max(max_difference, double(std::abs(expected[i] - got[i])));
  std::printf("predictions of the reloaded model: largest difference %g over %zu values\n", max_difference,
              expected.size());
  if (got.size() != expected.size() || max_difference > 0) {
    std::fprintf(stderr, "FAILED: the reloaded model predicts differently\n");
    return 1;
  }
  if (!(losses.back() < 0.25 * losses.front())) {
    std::fprintf(stderr, "FAILED: the model with Linear layers did not learn\n");
    return 1;
  }
  std::printf("custom_layer: ok\n");
} catch (const std::exception& e) {
  std::fprintf(stderr, "custom_layer: %s\n", e.what());
  return 1;
}
