// The image preprocessing layers inside saved models: config round trips, and a model that starts with
// them saved to .h5, .keras and TF.js and loaded back predicts the same.
#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/tfjs.hpp"
#include "temp_dir.hpp"

using namespace keras;

namespace {

Tensor images(std::int64_t n) {
  Tensor t = Tensor::empty({n, 10, 12, 3});
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = float((i * 53) % 256);
  return t;
}

// Every image layer with arguments away from their defaults.
std::vector<LayerPtr> every_image_layer() {
  return {std::make_shared<layers::Rescaling>(1.0 / 255, layers::RescalingOptions{.offset = 0.5}),
          std::make_shared<layers::Resizing>(7, 9, layers::ResizingOptions{.interpolation = "bicubic",
                                                                            .crop_to_aspect_ratio = true}),
          std::make_shared<layers::CenterCrop>(6, 8),
          std::make_shared<layers::RandomFlip>(layers::RandomFlipOptions{.mode = "vertical", .seed = 3}),
          std::make_shared<layers::RandomRotation>(
              layers::Factor(-0.1, 0.2), layers::RandomRotationOptions{.fill_mode = "wrap", .interpolation = "nearest",
                                                                       .seed = 4, .fill_value = 1.5}),
          std::make_shared<layers::RandomZoom>(0.2, layers::RandomZoomOptions{.width_factor = layers::Factor(-0.1, 0.3),
                                                                              .fill_mode = "constant"}),
          std::make_shared<layers::RandomTranslation>(0.1, layers::Factor(-0.2, 0.1),
                                                      layers::RandomTranslationOptions{.fill_mode = "nearest"}),
          std::make_shared<layers::RandomCrop>(5, 7, layers::RandomCropOptions{.seed = 9}),
          std::make_shared<layers::RandomContrast>(layers::Factor(0.2, 0.4)),
          std::make_shared<layers::RandomBrightness>(0.1, layers::RandomBrightnessOptions{.value_range = {0, 1}})};
}

}  // namespace

TEST_CASE("The image preprocessing layers' configs are Keras's and survive a round trip", "[preprocessing]") {
  for (const auto& layer : every_image_layer()) {
    INFO(layer->class_name());
    const json config = layer->get_config();
    const auto again = Layer::deserialize(serialize_object(layer->class_name(), config));
    CHECK(again->class_name() == layer->class_name());
    CHECK(again->get_config() == config);
  }
  // Keras's field names and forms.
  const auto rotation = every_image_layer()[4]->get_config();
  CHECK(rotation["factor"] == json::array({-0.1, 0.2}));
  CHECK(rotation["fill_mode"] == "wrap");
  CHECK(rotation["fill_value"] == 1.5);
  CHECK(layers::RandomRotation(0.25).get_config()["factor"] == 0.25);
  CHECK(layers::RandomZoom(0.25).get_config()["width_factor"].is_null());
  CHECK(layers::RandomFlip().get_config()["mode"] == "horizontal_and_vertical");
  CHECK(layers::RandomBrightness(0.1).get_config()["value_range"] == json::array({0.0, 255.0}));
  // A config as tf.keras writes it.
  const json keras_config = json::parse(
      R"({"name": "random_zoom", "trainable": true, "dtype": "float32", "height_factor": [-0.2, 0.3],
          "width_factor": null, "fill_mode": "reflect", "interpolation": "bilinear", "seed": null, "fill_value": 0.0})");
  const auto zoom = Layer::deserialize(serialize_object("RandomZoom", keras_config));
  CHECK(zoom->get_config()["height_factor"] == json::array({-0.2, 0.3}));
}

TEST_CASE("A model starting with image preprocessing layers predicts the same after .h5, .keras and TF.js", "[preprocessing]") {
  keras_test::TempDir dir("preprocessing_image");
  utils::set_random_seed(7);
  Sequential model({layers::Input({10, 12, 3}), layers::Rescaling(1.0 / 255), layers::Resizing(8, 8),
                    layers::CenterCrop(6, 6), layers::RandomFlip(), layers::RandomRotation(0.1), layers::RandomZoom(0.1),
                    layers::RandomTranslation(0.1, 0.1), layers::RandomContrast(0.2),
                    layers::RandomBrightness(0.1, {.value_range = {0, 1}}), layers::Conv2D(2, {3, 3}),
                    layers::Flatten(), layers::Dense(3, {.activation = "softmax"})});
  model.compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
  // Training runs through the augmentation (training = true) and changes the weights.
  const Tensor x = images(8);
  const Tensor y = Tensor::from_vector<float>({0, 1, 2, 0, 1, 2, 0, 1}, {8});
  const auto before = model.predict(x).to_vector<float>();
  model.fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0});
  const auto want = model.predict(x).to_vector<float>();
  CHECK(want != before);
  for (const std::string file : {"m.h5", "m.keras"}) {
    INFO(file);
    model.save(dir / file);
    auto loaded = models::load_model(dir / file);
    CHECK(loaded->predict(x).to_vector<float>() == want);
    CHECK(loaded->layers()[1]->class_name() == "Resizing");
  }
  // TF.js has Rescaling, Resizing and CenterCrop.
  Sequential web({layers::Input({10, 12, 3}), layers::Rescaling(1.0 / 255, {.offset = -0.5}), layers::Resizing(8, 8),
                  layers::CenterCrop(6, 6), layers::Flatten(), layers::Dense(2)});
  export_tfjs(web, dir / "web");
  auto loaded = models::load_tfjs(dir / "web");
  CHECK(loaded->predict(x).to_vector<float>() == web.predict(x).to_vector<float>());
}
