// keras::image::decode_image on files written by other code (a Python-made PNG, BMPs written here by
// hand), and image_dataset_from_directory's indexing, labels, split and batches as Keras documents them.
#include <filesystem>
#include <fstream>
#include <set>

#include <catch2/catch.hpp>

#include "data/image.hpp"
#include "datasets/image_directory.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {

// A 24-bit BMP of w x h whose every pixel is (r, g, b): rows bottom-up, BGR, each padded to 4 bytes.
void write_bmp(const std::string& path, int w, int h, std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  const int row = (3 * w + 3) / 4 * 4, size = 54 + row * h;
  std::string f(static_cast<std::size_t>(size), '\0');
  auto put32 = [&](int at, std::uint32_t v) { for (int i = 0; i < 4; ++i) f[at + i] = char((v >> (8 * i)) & 0xff); };
  f[0] = 'B';
  f[1] = 'M';
  put32(2, size);
  put32(10, 54);
  put32(14, 40);
  put32(18, w);
  put32(22, h);
  f[26] = 1;   // planes
  f[28] = 24;  // bits per pixel
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int at = 54 + y * row + 3 * x;
      f[at] = char(b), f[at + 1] = char(g), f[at + 2] = char(r);
    }
  std::ofstream(path, std::ios::binary) << f;
}

// root/cats: 3 images, root/dogs: 2 images (one in a nested folder), plus files that are not images.
void make_tree(const keras_test::TempDir& root) {
  std::filesystem::create_directories(root.path() / "cats");
  std::filesystem::create_directories(root.path() / "dogs" / "puppies");
  for (int i = 0; i < 3; ++i) write_bmp(root / ("cats/c" + std::to_string(i) + ".bmp"), 4 + i, 3, 10, 20, std::uint8_t(30 + i));
  write_bmp(root / "dogs/d0.BMP", 2, 2, 200, 100, 50);
  write_bmp(root / "dogs/puppies/p0.bmp", 6, 4, 201, 101, 51);
  std::ofstream(root / "dogs/notes.txt") << "not an image";
}

}  // namespace

TEST_CASE("decode_image reads a PNG written by Python and BMPs, converting channels", "[data][image]") {
  Tensor png = image::load_image(std::string(keras_test::golden_dir) + "/rgb_3x2.png");
  REQUIRE(png.shape() == Shape{2, 3, 3});
  CHECK(png.dtype() == DType::uint8);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      const std::uint8_t* p = png.data<std::uint8_t>() + (y * 3 + x) * 3;
      CHECK(int(p[0]) == 10 * x + 100 * y);
      CHECK(int(p[1]) == 7 * x + 1);
      CHECK(int(p[2]) == 255 - 40 * x - 90 * y);
    }
  CHECK(image::load_image(std::string(keras_test::golden_dir) + "/rgb_3x2.png", 4).shape() == Shape{2, 3, 4});
  CHECK(image::load_image(std::string(keras_test::golden_dir) + "/rgb_3x2.png", 1).shape() == Shape{2, 3, 1});
  keras_test::TempDir dir("decode");
  write_bmp(dir / "a.bmp", 5, 3, 1, 2, 3);
  Tensor bmp = image::load_image(dir / "a.bmp");
  REQUIRE(bmp.shape() == Shape{3, 5, 3});
  CHECK(bmp.to_vector<std::uint8_t>()[14 * 3 + 2] == 3);
  CHECK_THROWS_AS(image::load_image(dir / "missing.png"), IOError);
  CHECK_THROWS_WITH(image::decode_image("GIF89a garbage", 0, "'x.gif'"), Catch::Contains("'x.gif' is not a PNG"));
  CHECK_THROWS_WITH(image::decode_image("", 2), Catch::Contains("channels must be 0, 1, 3 or 4"));
}

TEST_CASE("image_dataset_from_directory: classes, labels, resize and batches", "[data][image]") {
  keras_test::TempDir root("images");
  make_tree(root);
  auto ds = utils::image_dataset_from_directory(root.path().string(), {.batch_size = 2, .image_size = {5, 7}, .shuffle = false});
  CHECK(ds.class_names == std::vector<std::string>{"cats", "dogs"});
  REQUIRE(ds.file_paths.size() == 5);
  // Keras's walk order: a folder's own files before its subfolders' (by folder path, then name).
  CHECK(ds.file_paths[3].ends_with("dogs/d0.BMP"));
  CHECK(ds.file_paths[4].ends_with("dogs/puppies/p0.bmp"));
  std::vector<std::int32_t> labels;
  std::vector<std::int64_t> batch_sizes;
  for (const data::Element& batch : ds) {
    const Tensor& x = batch[0].leaf().tensor();
    CHECK(x.dtype() == DType::float32);
    CHECK(x.shape() == Shape{x.dim(0), 5, 7, 3});
    batch_sizes.push_back(x.dim(0));
    for (auto l : batch[1].leaf().tensor().to_vector<std::int32_t>()) labels.push_back(l);
  }
  CHECK(batch_sizes == std::vector<std::int64_t>{2, 2, 1});
  CHECK(labels == std::vector<std::int32_t>{0, 0, 0, 1, 1});
  // A constant image stays constant through bilinear resizing: the first dog is (200, 100, 50).
  data::Element first_dog = *utils::image_dataset_from_directory(
      root / "dogs", {.labels = "", .batch_size = 0, .image_size = {3, 3}, .shuffle = false}).begin();
  CHECK(first_dog.leaf().tensor().to_vector<float>()[0] == 200.f);
  CHECK(first_dog.leaf().tensor().to_vector<float>()[2] == 50.f);

  auto cat = utils::image_dataset_from_directory(root.path().string(),
      {.label_mode = "categorical", .color_mode = "grayscale", .batch_size = 8, .image_size = {4, 4}, .shuffle = false});
  data::Element all = *cat.begin();
  CHECK(all[0].leaf().shape() == Shape{5, 4, 4, 1});
  CHECK(all[1].leaf().tensor().to_vector<float>() == std::vector<float>{1, 0, 1, 0, 1, 0, 0, 1, 0, 1});
  auto binary = utils::image_dataset_from_directory(root.path().string(),
      {.label_mode = "binary", .class_names = {"dogs", "cats"}, .batch_size = 8, .shuffle = false, .interpolation = "nearest"});
  data::Element b = *binary.begin();
  CHECK(b[0].leaf().tensor().dtype() == DType::uint8);
  CHECK(b[1].leaf().shape() == Shape{5, 1});
  CHECK(b[1].leaf().tensor().to_vector<float>() == std::vector<float>{0, 0, 1, 1, 1});  // dogs first now
}

TEST_CASE("image_dataset_from_directory: seeded shuffle and a disjoint training/validation split", "[data][image]") {
  keras_test::TempDir root("split");
  make_tree(root);
  const std::string dir = root.path().string();
  auto train = utils::image_dataset_from_directory(dir, {.batch_size = 0, .image_size = {2, 2}, .seed = 5,
                                                          .validation_split = 0.4, .subset = "training"});
  auto val = utils::image_dataset_from_directory(dir, {.batch_size = 0, .image_size = {2, 2}, .seed = 5,
                                                        .validation_split = 0.4, .subset = "validation"});
  CHECK(train.file_paths.size() == 3);
  CHECK(val.file_paths.size() == 2);
  std::set<std::string> both(train.file_paths.begin(), train.file_paths.end());
  both.insert(val.file_paths.begin(), val.file_paths.end());
  CHECK(both.size() == 5);
  int n = 0;
  for (const data::Element& e : train) n += e[0].leaf().shape() == Shape{2, 2, 3};
  CHECK(n == 3);
  auto again = utils::image_dataset_from_directory(dir, {.batch_size = 0, .image_size = {2, 2}, .seed = 5,
                                                          .validation_split = 0.4, .subset = "training"});
  CHECK(again.file_paths == train.file_paths);
}

TEST_CASE("image_dataset_from_directory: clear errors", "[data][image]") {
  keras_test::TempDir root("errors");
  make_tree(root);
  const std::string dir = root.path().string();
  using utils::image_dataset_from_directory;
  CHECK_THROWS_AS(image_dataset_from_directory(dir + "/nope"), IOError);
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.label_mode = "sparse"}), Catch::Contains("label_mode must be one of"));
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.class_names = {"cats", "birds"}}), Catch::Contains("do not match the subfolders"));
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.validation_split = 0.2, .subset = "training"}), Catch::Contains("give a seed"));
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.validation_split = 0.2}), Catch::Contains("set both or neither"));
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.labels = "", .label_list = {0, 1}}), Catch::Contains("label_list has 2 labels"));
  std::filesystem::create_directories(root.path() / "three");
  CHECK_THROWS_WITH(image_dataset_from_directory(dir, {.label_mode = "binary"}), Catch::Contains("needs exactly 2 classes"));
  CHECK_THROWS_WITH(image_dataset_from_directory(dir + "/three"), Catch::Contains("no images found"));
  // A file that is not an image fails when it is read, naming it.
  std::ofstream(root / "cats/broken.png") << "not a png";
  auto ds = image_dataset_from_directory(dir, {.labels = "", .batch_size = 0, .shuffle = false});
  CHECK_THROWS_WITH([&] { for (const auto& e : ds) (void)e; }(), Catch::Contains("broken.png"));
}
