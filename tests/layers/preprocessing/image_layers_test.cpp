// Rescaling, Resizing, CenterCrop and the fixed-transform cases of the augmentation layers against
// tests/golden/preprocessing_image.json (PyTorch and NumPy, make_preprocessing_image_golden.py).
#include <cmath>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::golden_tensor;

namespace {

const json& golden() {
  static const json g = keras::testing::load_golden("preprocessing_image.json");
  return g;
}

// Element-wise |got - want| <= tol (the images are in [0, 255]).
void check_near(const Tensor& got, const json& want, double tol) {
  REQUIRE(got.shape() == want["shape"].get<Shape>());
  const auto g = got.to_vector<float>();
  const auto w = want["data"].get<std::vector<double>>();
  double worst = 0;
  for (std::size_t i = 0; i < w.size(); ++i) worst = std::max(worst, std::abs(double(g[i]) - w[i]));
  CHECK(worst <= tol);
}

}  // namespace

TEST_CASE("Rescaling multiplies and offsets, casting integer images to float32", "[preprocessing]") {
  const Tensor x = Tensor::from_vector<float>({0, 51, 255, 127.5}, {1, 2, 2, 1}).astype(DType::uint8);
  const Tensor y = layers::Rescaling(1.0 / 127.5, {.offset = -1})(x);
  CHECK(y.dtype() == DType::float32);
  const auto v = y.to_vector<float>();
  const auto in = x.astype(DType::float32).to_vector<float>();
  for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == Approx(in[i] / 127.5 - 1.0).margin(1e-6));
  const auto config = layers::Rescaling(0.5, {.offset = 2}).get_config();
  CHECK(config["scale"] == 0.5);
  CHECK(config["offset"] == 2.0);
  CHECK_THROWS_WITH(Layer::deserialize(serialize_object("Rescaling", json::object())), Catch::Contains("scale"));
}

TEST_CASE("Resizing equals tf.image.resize for each interpolation and crop_to_aspect_ratio", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["resize"]) {
    const auto size = c["size"].get<std::vector<std::int64_t>>();
    const std::string interpolation = c["interpolation"];
    INFO(interpolation << " " << size[0] << "x" << size[1] << " crop " << c["crop_to_aspect_ratio"]);
    layers::Resizing resize(size[0], size[1],
                            {.interpolation = interpolation, .crop_to_aspect_ratio = c["crop_to_aspect_ratio"].get<bool>()});
    // Bicubic reads Keys's coefficients from TensorFlow's table of 1024 steps; the reference is exact.
    check_near(resize(image), c["output"], interpolation == "bicubic" ? 0.3 : 2e-3);
  }
  // One image without the batch axis gives one image.
  const Tensor one = image.reshape({2 * 6, 8, 3});
  CHECK(layers::Resizing(3, 5)(one).shape() == Shape{3, 5, 3});
  CHECK(layers::Resizing(3, 5).compute_output_shape({-1, 7, 7, 3}) == Shape{-1, 3, 5, 3});
  CHECK_THROWS_WITH(layers::Resizing(3, 5, {.interpolation = "lanczos3"}), Catch::Contains("Resizing"));
  CHECK_THROWS_WITH(layers::Resizing(0, 5), Catch::Contains("positive"));
  CHECK_THROWS_WITH(layers::Resizing(3, 5)(Tensor::ones({4, 5})), Catch::Contains("Resizing") && Catch::Contains("(4, 5)"));
}

TEST_CASE("CenterCrop crops the centre, and resizes an image smaller than the window", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["center_crop"]) {
    const auto size = c["size"].get<std::vector<std::int64_t>>();
    INFO(size[0] << "x" << size[1]);
    check_near(layers::CenterCrop(size[0], size[1])(image), c["output"], 2e-3);
  }
}

TEST_CASE("RandomCrop at inference resizes to the window's aspect ratio, like CenterCrop's smart_resize", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["resize"]) {
    if (!c["crop_to_aspect_ratio"].get<bool>()) continue;
    const auto size = c["size"].get<std::vector<std::int64_t>>();
    check_near(layers::RandomCrop(size[0], size[1], {.seed = 1})(image, false), c["output"], 2e-3);
  }
}

TEST_CASE("RandomRotation with a fixed angle equals grid_sampling the rotated grid, per fill mode", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["rotation"]) {
    const double f = c["factor"];
    INFO(f << " " << c["fill_mode"] << " " << c["interpolation"]);
    layers::RandomRotation rotate(layers::Factor(f, f), {.fill_mode = c["fill_mode"].get<std::string>(),
                                                              .interpolation = c["interpolation"].get<std::string>()});
    check_near(rotate(image, true), c["output"], 2e-3);
    CHECK(rotate(image, false).to_vector<float>() == image.to_vector<float>());
  }
}

TEST_CASE("RandomZoom with a fixed zoom equals grid_sampling the zoomed grid", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["zoom"]) {
    const double hz = c["height_factor"], wz = c["width_factor"];
    INFO(hz << " " << wz << " " << c["fill_mode"]);
    layers::RandomZoom zoom(layers::Factor(hz, hz), {.width_factor = layers::Factor(wz, wz), .fill_mode = c["fill_mode"].get<std::string>()});
    check_near(zoom(image, true), c["output"], 2e-3);
  }
  // Without width_factor the width follows the height (the aspect ratio is kept).
  const Tensor square = Tensor::ones({1, 5, 5, 1});
  layers::RandomZoom same(layers::Factor(0.5, 0.5), {.fill_mode = "constant"});
  const auto v = same(square, true).to_vector<float>();
  CHECK(v[0] == 0.f);           // corner: outside the zoomed-out image on both axes
  CHECK(v[2 * 5 + 2] == 1.f);   // centre
  CHECK(v[2] == 0.f);           // top middle: outside vertically
  CHECK(v[2 * 5] == 0.f);       // left middle: outside horizontally
}

TEST_CASE("RandomTranslation by whole pixels wraps like np.roll and fills constants", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["translation"]) {
    const double hf = c["height_factor"], wf = c["width_factor"];
    INFO(hf << " " << wf);
    layers::Factor h(hf, hf), w(wf, wf);
    check_near(layers::RandomTranslation(h, w, {.fill_mode = "wrap"})(image, true), c["wrap"], 1e-4);
    check_near(layers::RandomTranslation(h, w, {.fill_mode = "constant", .fill_value = 7})(image, true), c["constant_7"],
               1e-4);
    check_near(layers::RandomTranslation(h, w, {.fill_mode = "constant", .interpolation = "nearest", .fill_value = 7})(
                   image, true),
               c["constant_7"], 1e-4);
  }
}

TEST_CASE("RandomBrightness with a fixed factor adds factor * 255 and clips", "[preprocessing]") {
  const Tensor image = golden_tensor(golden()["image"]);
  for (const auto& c : golden()["brightness"]) {
    const double f = c["factor"];
    check_near(layers::RandomBrightness(layers::Factor(f, f))(image, true), c["output"], 1e-3);
  }
}
