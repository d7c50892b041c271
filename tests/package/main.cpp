// A user's program: a custom layer with a weight, a short fit, save and load with the custom class.
#include <cmath>
#include <cstdio>
#include <filesystem>

#include <keras/json.hpp>  // the custom layer reads its config
#include <keras/keras.hpp>
namespace k = keras;

// y = x * scale, one trainable scale per feature.
class Scale : public k::Layer {
 public:
  explicit Scale(const std::string& name = "") : k::Layer(name, "scale") {}
  void build(const k::Shape& input_shape) override {
    scale_ = add_weight("scale", {input_shape.back()}, "ones");
    k::Layer::build(input_shape);
  }
  k::Tensor call(const k::Tensor& x, bool) override { return x * scale_->value(); }
  static std::shared_ptr<k::Layer> from_config(const k::json& c) { return std::make_shared<Scale>(c.value("name", "")); }

 private:
  std::shared_ptr<k::Variable> scale_;

  KERAS_LAYER(Scale)  // class_name() "Scale", and Scale()(x) on symbolic tensors
};
KERAS_REGISTER_LAYER(Scale)

int main() {
  k::utils::set_random_seed(1);
  // y = 3 x0 - 2 x1 + 1
  const std::int64_t n = 256;
  k::Tensor x = k::Tensor::empty({n, 2}), y = k::Tensor::empty({n, 1});
  for (std::int64_t i = 0; i < n; ++i) {
    const float a = float(i % 16) / 8.f - 1.f, b = float(i / 16) / 8.f - 1.f;
    x.data<float>()[2 * i] = a;
    x.data<float>()[2 * i + 1] = b;
    y.data<float>()[i] = 3 * a - 2 * b + 1;
  }
  k::Sequential model({k::layers::Input({2}), Scale(), k::layers::Dense(1)});
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 0.05}), .loss = "mse"});
  auto history = model.fit(x, y, {.batch_size = 32, .epochs = 60, .verbose = 0});
  const double loss = history.history.at("loss").back();
  std::printf("final loss %.6f\n", loss);

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_consumer.h5").string();
  model.save(path);
  auto again = k::models::load_model(path);
  std::filesystem::remove(path);
  const auto a = model.predict(x).to_vector<float>(), b = again->predict(x).to_vector<float>();
  if (!(loss < 1e-3) || a != b) {
    std::printf("FAILED: the model did not learn y = 3 x0 - 2 x1 + 1, or the reloaded model predicts differently\n");
    return 1;
  }
  std::printf("consumer: ok\n");
}
