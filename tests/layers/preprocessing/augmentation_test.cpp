// The augmentation layers' random parts: identity at inference, seeds that repeat, draws that stay in
// their ranges and vary between images, and the statistics of the flips.
#include <cmath>
#include <set>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

// A batch of n distinct images [n, h, w, c] with values in [0, 255].
Tensor ramp_images(std::int64_t n, std::int64_t h, std::int64_t w, std::int64_t c) {
  Tensor t = Tensor::empty({n, h, w, c});
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = float((i * 37) % 251);
  return t;
}

std::vector<float> image_of(const Tensor& batch, std::int64_t b) {
  const std::int64_t per = batch.size() / batch.shape()[0];
  const float* p = batch.data<float>() + b * per;
  return {p, p + per};
}

}  // namespace

TEST_CASE("Every augmentation layer is the identity at inference and repeats itself under one seed", "[preprocessing]") {
  const Tensor x = ramp_images(6, 9, 7, 2);
  std::vector<std::function<LayerPtr()>> makers = {
      [] { return std::make_shared<layers::RandomFlip>(layers::RandomFlipOptions{.seed = 5}); },
      [] { return std::make_shared<layers::RandomRotation>(0.2, layers::RandomRotationOptions{.seed = 5}); },
      [] { return std::make_shared<layers::RandomZoom>(0.3, layers::RandomZoomOptions{.seed = 5}); },
      [] { return std::make_shared<layers::RandomTranslation>(0.2, 0.3, layers::RandomTranslationOptions{.seed = 5}); },
      [] { return std::make_shared<layers::RandomContrast>(0.5, layers::RandomContrastOptions{.seed = 5}); },
      [] { return std::make_shared<layers::RandomBrightness>(0.3, layers::RandomBrightnessOptions{.seed = 5}); },
  };
  for (const auto& make : makers) {
    auto a = make(), b = make();
    INFO(a->class_name());
    CHECK((*a)(x, false).to_vector<float>() == x.to_vector<float>());
    const Tensor ya = (*a)(x, true), yb = (*b)(x, true);
    CHECK(ya.shape() == x.shape());
    CHECK(ya.to_vector<float>() == yb.to_vector<float>());
    CHECK(ya.to_vector<float>() != x.to_vector<float>());
    // The next call draws anew.
    CHECK((*a)(x, true).to_vector<float>() != ya.to_vector<float>());
  }
}

TEST_CASE("RandomFlip flips each image independently with probability 1/2 per axis", "[preprocessing]") {
  const std::int64_t n = 400, h = 3, w = 4;
  const Tensor x = ramp_images(n, h, w, 1);
  layers::RandomFlip flip({.seed = 11});
  const Tensor y = flip(x, true);
  int counts[4] = {0, 0, 0, 0};  // none, horizontal, vertical, both
  for (std::int64_t b = 0; b < n; ++b) {
    const auto in = image_of(x, b), out = image_of(y, b);
    int kind = -1;
    for (int k = 0; k < 4 && kind < 0; ++k) {
      bool same = true;
      for (std::int64_t r = 0; r < h && same; ++r)
        for (std::int64_t c = 0; c < w && same; ++c) {
          const std::int64_t sr = (k & 2) ? h - 1 - r : r, sc = (k & 1) ? w - 1 - c : c;
          same = out[r * w + c] == in[sr * w + sc];
        }
      if (same) kind = k;
    }
    REQUIRE(kind >= 0);  // every output is one of the four flips of its own input
    ++counts[kind];
  }
  for (int k = 0; k < 4; ++k) {
    CHECK(counts[k] > 70);  // 100 expected; 70 is 3.5 standard deviations below
    CHECK(counts[k] < 130);
  }
  // Horizontal only: never flipped vertically.
  const Tensor yh = layers::RandomFlip({.mode = "horizontal", .seed = 2})(x, true);
  for (std::int64_t b = 0; b < n; ++b) {
    const auto in = image_of(x, b), out = image_of(yh, b);
    CHECK((out[0] == in[0] || out[0] == in[w - 1]));
  }
  CHECK_THROWS_WITH(layers::RandomFlip({.mode = "diagonal"}), Catch::Contains("RandomFlip") && Catch::Contains("mode"));
}

TEST_CASE("RandomBrightness draws one delta per image, uniform over the factor's range", "[preprocessing]") {
  const Tensor x = Tensor::full({2000, 2, 2, 3}, 100.0);
  layers::RandomBrightness bright(0.2, {.seed = 3});
  const Tensor y = bright(x, true);
  double sum = 0, lo = 1e9, hi = -1e9;
  for (std::int64_t b = 0; b < 2000; ++b) {
    const auto img = image_of(y, b);
    for (float v : img) CHECK(v == img[0]);
    const double d = img[0] - 100.0;
    sum += d;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  CHECK(sum / 2000 == Approx(0).margin(2.0));  // the mean of U(-51, 51) over 2000 draws: sd 0.66
  CHECK(lo >= -51.0);
  CHECK(hi <= 51.0);
  CHECK(lo < -45);
  CHECK(hi > 45);
  // Clipping to value_range.
  const auto clipped = layers::RandomBrightness(layers::Factor(1, 1), {.value_range = {0, 1}})(Tensor::full({1, 2, 2, 1}, 0.5), true);
  CHECK(clipped.to_vector<float>() == std::vector<float>(4, 1.f));
  CHECK_THROWS_WITH(layers::RandomBrightness(1.5), Catch::Contains("RandomBrightness") && Catch::Contains("[-1, 1]"));
}

TEST_CASE("RandomContrast scales each image's deviation from its channel means by one factor in range", "[preprocessing]") {
  const Tensor x = ramp_images(50, 5, 6, 3) * (50.f / 251.f) + 100.f;  // within [100, 150]: no clipping
  const Tensor y = layers::RandomContrast(0.4, {.seed = 8})(x, true);
  std::set<float> factors;
  for (std::int64_t b = 0; b < 50; ++b) {
    const auto in = image_of(x, b), out = image_of(y, b);
    double k = 0;
    for (int ch = 0; ch < 3; ++ch) {
      double m_in = 0, m_out = 0;
      for (int i = 0; i < 30; ++i) m_in += in[i * 3 + ch], m_out += out[i * 3 + ch];
      m_in /= 30, m_out /= 30;
      CHECK(m_out == Approx(m_in).epsilon(1e-5));  // the mean stays
      // The one factor: from the first pixel that deviates, then checked on every pixel.
      for (int i = 0; i < 30 && k == 0; ++i)
        if (std::abs(in[i * 3 + ch] - m_in) > 1) k = (out[i * 3 + ch] - m_in) / (in[i * 3 + ch] - m_in);
      for (int i = 0; i < 30; ++i) CHECK(out[i * 3 + ch] - m_in == Approx(k * (in[i * 3 + ch] - m_in)).margin(1e-3));
    }
    CHECK(k >= 0.6 - 1e-4);
    CHECK(k <= 1.4 + 1e-4);
    factors.insert(float(k));
  }
  CHECK(factors.size() > 40);
  CHECK_THROWS_WITH(layers::RandomContrast(-0.1), Catch::Contains("RandomContrast"));
}

TEST_CASE("RandomCrop in training takes a window of the input, at varying offsets", "[preprocessing]") {
  const Tensor x = ramp_images(1, 8, 8, 1);
  layers::RandomCrop crop(3, 4, {.seed = 21});
  std::set<std::pair<int, int>> offsets;
  const auto in = image_of(x, 0);
  for (int t = 0; t < 60; ++t) {
    const auto out = crop(x, true).to_vector<float>();
    REQUIRE(out.size() == 12u);
    bool found = false;
    for (int top = 0; top <= 5 && !found; ++top)
      for (int left = 0; left <= 4 && !found; ++left) {
        bool same = true;
        for (int r = 0; r < 3 && same; ++r)
          for (int c = 0; c < 4 && same; ++c) same = out[r * 4 + c] == in[(top + r) * 8 + left + c];
        if (same) offsets.insert({top, left}), found = true;
      }
    CHECK(found);
  }
  CHECK(offsets.size() > 15);  // 30 possible offsets
  // An input smaller than the window is resized even in training.
  CHECK(crop(ramp_images(2, 2, 8, 1), true).shape() == Shape{2, 3, 4, 1});
}

TEST_CASE("The augmentation layers' factors are checked as Keras checks them", "[preprocessing]") {
  CHECK_THROWS_WITH(layers::RandomZoom(1.5), Catch::Contains("RandomZoom") && Catch::Contains("height_factor"));
  CHECK_THROWS_WITH(layers::RandomZoom(0.1, {.width_factor = layers::Factor(0.3, -0.3)}),
                    Catch::Contains("width_factor"));
  CHECK_THROWS_WITH(layers::RandomTranslation(0.1, 2.0), Catch::Contains("RandomTranslation"));
  CHECK_THROWS_WITH(layers::RandomRotation(0.1, {.fill_mode = "mirror"}), Catch::Contains("fill_mode"));
  CHECK_THROWS_WITH(layers::RandomRotation(0.1, {.interpolation = "bicubic"}), Catch::Contains("interpolation"));
  CHECK_THROWS_WITH(layers::RandomRotation(0.1)(Tensor::ones({3, 4}), true), Catch::Contains("RandomRotation"));
}
