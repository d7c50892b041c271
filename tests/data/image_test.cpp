#include <catch2/catch.hpp>

#include "data/image.hpp"
#include "golden.hpp"
#include "keras/json.hpp"

using namespace keras;

namespace {
// A 2x3 image with 1 channel: 0 1 2 / 3 4 5.
Tensor small() { return Tensor::from_vector<float>({0, 1, 2, 3, 4, 5}, {2, 3, 1}); }
std::vector<float> v(const Tensor& t) { return t.astype(DType::float32).to_vector<float>(); }
}  // namespace

TEST_CASE("flips and rot90 move pixels as tf.image does", "[data][image]") {
  CHECK(v(image::flip_left_right(small())) == std::vector<float>{2, 1, 0, 5, 4, 3});
  CHECK(v(image::flip_up_down(small())) == std::vector<float>{3, 4, 5, 0, 1, 2});
  Tensor r = image::rot90(small());  // counter-clockwise: the last column becomes the first row
  CHECK(r.shape() == Shape{3, 2, 1});
  CHECK(v(r) == std::vector<float>{2, 5, 1, 4, 0, 3});
  CHECK(v(image::rot90(small(), 2)) == std::vector<float>{5, 4, 3, 2, 1, 0});
  CHECK(v(image::rot90(image::rot90(small(), 3), 1)) == v(small()));
  // Random flips: each image of a batch either flipped or not; both happen over many images.
  Tensor batch = Tensor::zeros({64, 2, 3, 1});
  for (int b = 0; b < 64; ++b) std::copy_n(small().data<float>(), 6, batch.data<float>() + b * 6);
  Tensor f = image::random_flip_left_right(batch, 3);
  int flipped = 0;
  for (int b = 0; b < 64; ++b) {
    std::vector<float> img(f.data<float>() + b * 6, f.data<float>() + b * 6 + 6);
    CHECK((img == v(small()) || img == v(image::flip_left_right(small()))));
    flipped += img != v(small());
  }
  CHECK(flipped > 10);
  CHECK(flipped < 54);
  CHECK_THROWS_WITH(image::flip_left_right(Tensor::zeros({4})), Catch::Contains("height, width, channels"));
}

TEST_CASE("random_brightness, random_crop and convert_image_dtype", "[data][image]") {
  Tensor b = image::random_brightness(small(), 0.5f, 1);
  const float d = b.data<float>()[0];
  CHECK(std::abs(d) <= 0.5f);
  for (int i = 0; i < 6; ++i) CHECK(b.data<float>()[i] == Approx(i + d));
  Tensor big = Tensor::from_vector<float>(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {4, 4, 1});
  for (std::uint64_t s = 0; s < 10; ++s) {
    Tensor c = image::random_crop(big, {2, 3, 1}, s);
    REQUIRE(c.shape() == Shape{2, 3, 1});
    auto x = v(c);
    CHECK(x[1] == x[0] + 1);
    CHECK(x[3] == x[0] + 4);  // rows stay contiguous windows of the source
    CHECK(std::fmod(x[0], 4.f) <= 1);
  }
  CHECK_THROWS_WITH(image::random_crop(big, {5, 1, 1}), Catch::Contains("does not fit"));
  Tensor u8 = Tensor::from_vector<std::uint8_t>({0, 128, 255}, {1, 3, 1});
  Tensor f = image::convert_image_dtype(u8, DType::float32);
  CHECK(v(f) == std::vector<float>{0.f, 128.f / 255.f, 1.f});
  CHECK(image::convert_image_dtype(f, DType::uint8).to_vector<std::uint8_t>() == std::vector<std::uint8_t>{0, 128, 255});
}

TEST_CASE("resize bilinear and nearest match PyTorch's half-pixel references", "[data][image]") {
  const json g = testing::load_golden("image.json");
  Tensor img = testing::golden_tensor(g["image"]);
  for (const auto& c : g["cases"]) {
    INFO(c["method"].get<std::string>() << " to " << c["size"].dump());
    Tensor out = image::resize(img, c["size"].get<Shape>(), c["method"].get<std::string>());
    testing::check_close(out, c["output"]["shape"].get<Shape>(), c["output"]["data"].get<std::vector<double>>());
  }
  CHECK_THROWS_WITH(image::resize(img, {2, 2}, "cubic"), Catch::Contains("bilinear"));
}
