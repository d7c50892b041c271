// summary::image and TensorBoard(write_images): the event files read by the independent reader (event_reader.hpp),
// the PNGs decoded by the independent decoder (png_reader.hpp), the pixels compared with the images given.
#include <map>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"
#include "event_reader.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "png_reader.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {
// tag -> the value of each image summary of a file
std::map<std::string, evreader::Value> image_values(const std::string& path) {
  std::map<std::string, evreader::Value> out;
  for (const auto& e : evreader::read_events(path))
    for (const auto& v : e.values)
      if (v.plugin_name == "images") out[v.tag] = v;
  return out;
}

// TensorFlow's convert_image_dtype(float -> uint8, saturate=True): x * 255.5, clipped, truncated.
std::uint8_t tf_uint8(float x) {
  const float v = x * 255.5f;
  return v <= 0 ? 0 : v >= 255 ? 255 : static_cast<std::uint8_t>(v);
}
}  // namespace

TEST_CASE("summary::image writes PNGs in the images plugin's layout that decode to the images given", "[tensorboard][summary_image]") {
  const auto dir = cbtest::temp_dir("summary_image");
  auto writer = summary::create_file_writer(dir.string());
  std::vector<float> v(2 * 3 * 4 * 3);  // two RGB images of 3 rows and 4 columns, values over [-0.2, 1.2]
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = -0.2f + 1.4f * static_cast<float>(i) / static_cast<float>(v.size() - 1);
  const Tensor rgb = Tensor::from_vector(v, {2, 3, 4, 3});
  CHECK_FALSE(summary::image("no_default_writer", rgb, 0));
  {
    auto scope = writer->as_default();
    CHECK(summary::image("rgb", rgb, 5, 1));  // max_outputs 1: the first image only
  }
  writer->image("gray", Tensor::from_vector<float>({0.f, 0.5f, 1.f, 1.2f, -0.1f, 0.25f}, {1, 2, 3, 1}), 6);
  const std::vector<std::uint8_t> bytes{0, 7, 128, 255, 1, 2, 3, 250};
  writer->image("u8", Tensor::from_vector<std::uint8_t>(bytes, {2, 2, 2, 1}), 7);
  writer->flush();

  const auto values = image_values(writer->path());
  REQUIRE(values.size() == 3);
  const auto& r = values.at("rgb");
  CHECK(r.data_class == 3);  // blob sequence
  REQUIRE(r.tensor);
  CHECK(r.tensor->dtype == 7);  // DT_STRING
  CHECK(r.tensor->shape == std::vector<std::int64_t>{3});
  REQUIRE(r.tensor->strings.size() == 3);
  CHECK(r.tensor->strings[0] == "4");  // width, then height
  CHECK(r.tensor->strings[1] == "3");
  const auto img = pngreader::decode(r.tensor->strings[2]);
  CHECK(img.width == 4);
  CHECK(img.height == 3);
  CHECK(img.channels == 3);
  REQUIRE(img.pixels.size() == 36);
  for (std::size_t i = 0; i < 36; ++i) CHECK(img.pixels[i] == tf_uint8(v[i]));

  const auto gray = pngreader::decode(values.at("gray").tensor->strings.at(2));
  CHECK(gray.channels == 1);
  CHECK(gray.pixels == std::vector<std::uint8_t>{0, 127, 255, 255, 0, 63});  // 0.5 * 255.5 = 127.75, 0.25 -> 63.875
  const auto& u8 = values.at("u8").tensor->strings;
  REQUIRE(u8.size() == 4);  // two images of 2 x 2: uint8 pixels as they are
  CHECK(pngreader::decode(u8[2]).pixels == std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 4));
  CHECK(pngreader::decode(u8[3]).pixels == std::vector<std::uint8_t>(bytes.begin() + 4, bytes.end()));

  CHECK_THROWS_AS(writer->image("rank3", Tensor::zeros({3, 4, 1}), 0), ValueError);
  CHECK_THROWS_WITH(writer->image("five", Tensor::zeros({1, 2, 2, 5}), 0), Catch::Contains("1 to 4 channels"));
  CHECK_THROWS_AS(writer->image("ints", Tensor::zeros({1, 2, 2, 1}, DType::int32), 0), ValueError);
  fs::remove_all(dir);
}

TEST_CASE("TensorBoard write_images writes each weight as images reshaped as tf.keras 2.x does", "[tensorboard][summary_image]") {
  const auto dir = cbtest::temp_dir("tb_images");
  Sequential m({layers::Input({3, 3, 1}), layers::Conv2D(3, {2, 2}), layers::Flatten(), layers::Dense(2)});
  m.compile({.optimizer = "sgd", .loss = "mse"});
  for (const auto& w : m.trainable_weights()) {  // values in [0, 1], so that the images are not clipped to black
    std::vector<float> v(static_cast<std::size_t>(w->value().size()));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 37) % 101) / 100.f;
    w->assign(Tensor::from_vector(v, w->shape()));
  }
  m.fit(Tensor::ones({2, 3, 3, 1}), Tensor::zeros({2, 2}),
        {.batch_size = 2, .epochs = 1, .verbose = 0,
         .callbacks = {callbacks::TensorBoard(dir.string(), {.histogram_freq = 1, .write_graph = false, .write_images = true})}});
  const auto values = image_values(cbtest::only_file(dir / "train").string());
  REQUIRE(values.size() == 4);
  std::map<std::string, std::vector<float>> w;
  for (const auto& layer : m.layers())
    for (const auto& [name, var] : saving::named_weights(*layer)) w[name] = var->value().to_vector<float>();
  const std::string conv = m.layers()[0]->name(), dense = m.layers()[2]->name();

  // Conv2D kernel [2, 2, 1, 3]: squeezed to [2, 2, 3], one 2 x 2 image per filter (max_outputs 3 keeps all three)
  const auto& k = values.at(conv + "/kernel_0/image").tensor->strings;
  REQUIRE(k.size() == 5);
  CHECK(k[0] == "2");
  CHECK(k[1] == "2");
  for (int f = 0; f < 3; ++f) {
    const auto img = pngreader::decode(k[static_cast<std::size_t>(2 + f)]);
    REQUIRE(img.pixels.size() == 4);
    for (int p = 0; p < 4; ++p) CHECK(img.pixels[static_cast<std::size_t>(p)] == tf_uint8(w.at(conv + "/kernel:0")[static_cast<std::size_t>(p * 3 + f)]));
  }
  // a bias [3]: one image of one column
  const auto& b = values.at(conv + "/bias_0/image").tensor->strings;
  CHECK(b[0] == "1");
  CHECK(b[1] == "3");
  // Dense kernel [12, 2]: more rows than columns, so transposed: 2 rows of 12
  const auto& d = values.at(dense + "/kernel_0/image").tensor->strings;
  CHECK(d[0] == "12");
  CHECK(d[1] == "2");
  const auto img = pngreader::decode(d.at(2));
  const auto& dk = w.at(dense + "/kernel:0");
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 12; ++c)
      CHECK(img.pixels[static_cast<std::size_t>(r * 12 + c)] == tf_uint8(dk[static_cast<std::size_t>(c * 2 + r)]));
  CHECK(values.count(dense + "/bias_0/image"));
  fs::remove_all(dir);
}
