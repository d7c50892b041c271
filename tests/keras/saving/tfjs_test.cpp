#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
using keras::testing::check_close;
namespace fs = std::filesystem;

namespace {

Tensor inputs(std::int64_t n, std::int64_t d) {
  Tensor x = Tensor::empty({n, d});
  for (std::int64_t i = 0; i < n * d; ++i) x.data<float>()[i] = float((i * 13) % 7) / 7.f - 0.3f;
  return x;
}

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

}  // namespace

TEST_CASE("export_tfjs writes model.json with the Keras topology and a weights manifest") {
  keras_test::TempDir dir("tfjs_export");
  backend::clear_session();
  utils::set_random_seed(2);
  Sequential model({layers::Input({5}), layers::Dense(4, {.activation = "relu"}), layers::Dense(3)}, "seq");
  export_tfjs(model, dir / "web");
  const json doc = read_json(dir / "web/model.json");
  CHECK(doc["format"] == "layers-model");
  CHECK(doc["modelTopology"]["model_config"]["class_name"] == "Sequential");
  const json& group = doc["weightsManifest"][0];
  CHECK(group["paths"] == json::array({"group1-shard1of1.bin"}));
  CHECK(group["weights"][0]["name"] == "dense/kernel");
  CHECK(group["weights"][0]["shape"] == json::array({5, 4}));
  CHECK(group["weights"][3]["name"] == "dense_1/bias");
  CHECK(fs::file_size(dir / "web/group1-shard1of1.bin") == (5 * 4 + 4 + 4 * 3 + 3) * 4);
}

TEST_CASE("export_tfjs then load_tfjs predicts bit-exactly, with weights cut into several shards") {
  keras_test::TempDir dir("tfjs_roundtrip");
  utils::set_random_seed(4);
  KerasTensor in = Input({6});
  KerasTensor h = layers::Dense(5, {.activation = "tanh"})(in);
  Model model(in, layers::Dense(2, {.activation = "sigmoid"})(h));
  model.compile({.optimizer = "sgd", .loss = "binary_crossentropy", .metrics = {"accuracy"}});
  export_tfjs(model, dir / "m", {.shard_size_bytes = 80});
  CHECK(fs::exists(dir / "m/group1-shard1of3.bin"));
  CHECK(fs::exists(dir / "m/group1-shard3of3.bin"));
  auto loaded = models::load_tfjs(dir / "m/model.json");
  CHECK(loaded->class_name() == "Functional");
  CHECK(loaded->compiled());
  const Tensor x = inputs(4, 6);
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  // The folder is accepted as well as its model.json.
  CHECK(models::load_tfjs(dir / "m")->count_params() == model.count_params());
}

TEST_CASE("load_tfjs reads a model that TensorFlow.js itself saved, and predicts what TensorFlow.js did") {
  const std::string golden = keras_test::golden_dir;
  auto model = models::load_tfjs(golden + "/tfjs/written_by_tfjs/model.json");
  const json expected = read_json(golden + "/tfjs/written_by_tfjs.json");
  std::vector<float> x, want;
  for (const auto& row : expected["input"]) for (float v : row) x.push_back(v);
  for (const auto& row : expected["output"]) for (double v : row) want.push_back(v);
  const Tensor out = model->predict(Tensor::from_vector<float>(x, {3, 4}));
  check_close(out, {3, 3}, std::vector<double>(want.begin(), want.end()));
}

// TF.js writes null for every field left unset (LSTM's unit_forget_bias and implementation, the
// regularizers): Keras reads null as the default, and so must load_tfjs.
TEST_CASE("load_tfjs reads a recurrent model TensorFlow.js wrote, with its null fields, and reproduces its outputs") {
  const std::string golden = keras_test::golden_dir;
  auto model = models::load_tfjs(golden + "/tfjs/written_by_tfjs_rnn/model.json");
  const json expected = read_json(golden + "/tfjs/written_by_tfjs_rnn.json");
  std::vector<float> x, want;
  for (const auto& seq : expected["input"]) for (const auto& step : seq) for (float v : step) x.push_back(v);
  for (const auto& row : expected["output"]) for (double v : row) want.push_back(v);
  const Tensor out = model->predict(Tensor::from_vector<float>(x, {2, 6, 3}));
  check_close(out, {2, 2}, std::vector<double>(want.begin(), want.end()));
}

TEST_CASE("load_tfjs names the file when a shard is missing or truncated") {
  keras_test::TempDir dir("tfjs_bad");
  Sequential model({layers::Input({3}), layers::Dense(2)});
  export_tfjs(model, dir / "m");
  fs::resize_file(dir / "m/group1-shard1of1.bin", 8);
  CHECK_THROWS_WITH(models::load_tfjs(dir / "m/model.json"), Catch::Contains("truncated"));
  fs::remove(dir / "m/group1-shard1of1.bin");
  CHECK_THROWS_WITH(models::load_tfjs(dir / "m/model.json"), Catch::Contains("group1-shard1of1.bin"));
  std::ofstream(dir / "m/model.json") << "{\"modelTopology\": ";
  CHECK_THROWS_AS(models::load_tfjs(dir / "m/model.json"), IOError);
  std::ofstream(dir / "other.json") << "{\"format\": \"graph-model\"}";
  CHECK_THROWS_WITH(models::load_tfjs(dir / "other.json"), Catch::Contains("not a TF.js layers model"));
}

TEST_CASE("export_tfjs over an existing export replaces it - a file in the way is an error that keeps it") {
  keras_test::TempDir dir("tfjs_replace");
  Sequential small({layers::Input({3}), layers::Dense(2)});
  Sequential big({layers::Input({3}), layers::Dense(7)});
  export_tfjs(small, dir / "m");
  export_tfjs(big, dir / "m");
  CHECK(models::load_tfjs(dir / "m")->count_params() == big.count_params());
  std::ofstream(dir / "file") << "keep me";
  CHECK_THROWS_AS(export_tfjs(small, dir / "file"), IOError);
  std::ifstream kept(dir / "file");
  std::string text;
  std::getline(kept, text);
  CHECK(text == "keep me");
}
