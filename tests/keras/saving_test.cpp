#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/hdf5/file.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir() {
  static keras_test::TempDir dir("saving");
  return dir.path();
}

const std::string kFixtures = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/";

bool have_fixtures() {
  if (fs::exists(kFixtures)) return true;
  WARN("skipped: " << kFixtures << " is absent (it is beside the project in CI)");
  return false;
}

void check_close(const Tensor& got, const Tensor& want, double tol) {
  REQUIRE(got.shape() == want.shape());
  auto g = got.to_vector<float>();
  auto w = want.astype(DType::float32).to_vector<float>();
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO("element " << i);
    CHECK(std::abs(g[i] - w[i]) <= tol);
  }
}

Sequential trained_model() {
  utils::set_random_seed(3);
  Sequential model({layers::Input({5}), layers::Dense(8, {.activation = "relu"}), layers::Dropout(0.1),
                    layers::Dense(3, {.activation = "softmax"})});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}), .loss = "sparse_categorical_crossentropy",
                 .metrics = {"accuracy"}});
  Tensor x = Tensor::empty({20, 5});
  for (int i = 0; i < 100; ++i) x.data<float>()[i] = float((i * 37) % 11) / 11.f;
  Tensor y = Tensor::empty({20}, DType::int32);
  for (int i = 0; i < 20; ++i) y.data<std::int32_t>()[i] = i % 3;
  model.fit(x, y, {.batch_size = 5, .epochs = 2, .verbose = 0});
  return model;
}
}  // namespace

TEST_CASE("save and load_model round-trip architecture, weights and compile settings bit-exactly") {
  const auto path = (temp_dir() / "model.h5").string();
  backend::clear_session();
  Sequential model = trained_model();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->class_name() == "Sequential");
  CHECK(loaded->get_config() == model.get_config());
  CHECK(loaded->compiled());
  CHECK(loaded->optimizer().class_name() == "Adam");
  CHECK(loaded->optimizer().learning_rate() == Approx(0.01));
  CHECK(loaded->loss().class_name() == "SparseCategoricalCrossentropy");
  Tensor x = Tensor::ones({4, 5});
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  CHECK(loaded->metrics_names() == std::vector<std::string>{"loss", "accuracy"});

  hdf5::File f = hdf5::File::open(path);
  hdf5::Group root = f.root();
  CHECK(root.string_attr("backend") == "tensorflow");
  CHECK(json::parse(root.string_attr("model_config"))["class_name"] == "Sequential");
  auto mw = root.open_group("model_weights");
  CHECK(mw.string_list_attr("layer_names") == std::vector<std::string>{"dense", "dropout", "dense_1"});
  CHECK(mw.open_group("dense").string_list_attr("weight_names") ==
        std::vector<std::string>{"dense/kernel:0", "dense/bias:0"});
  CHECK(mw.open_group("dropout").string_list_attr("weight_names").empty());
  CHECK(mw.read_dataset("dense_1/dense_1/kernel:0").shape() == Shape{8, 3});
}

TEST_CASE("to_json and model_from_json round-trip the architecture") {
  Sequential model = trained_model();
  const std::string text = model.to_json();
  json j = json::parse(text);
  CHECK(j["class_name"] == "Sequential");
  CHECK(j["keras_version"].is_string());
  CHECK(j["config"]["layers"][0]["class_name"] == "InputLayer");
  auto again = models::model_from_json(text);
  CHECK(again->get_config() == model.get_config());
  CHECK(again->count_params() == model.count_params());
  CHECK_THROWS_AS(models::model_from_json("{not json"), ValueError);
  CHECK_THROWS_WITH(models::model_from_json(R"({"class_name": "Conv9D", "config": {}})"), Catch::Contains("Conv9D"));
}

TEST_CASE("save_weights and load_weights by position, by name, with skip_mismatch") {
  const auto path = (temp_dir() / "weights.h5").string();
  backend::clear_session();
  Sequential model = trained_model();  // layers dense, dropout, dense_1
  model.save_weights(path);
  Sequential same({layers::Input({5}), layers::Dense(8, {.activation = "relu"}), layers::Dropout(0.1),
                   layers::Dense(3, {.activation = "softmax"})});
  same.load_weights(path);
  for (std::size_t i = 0; i < model.get_weights().size(); ++i)
    CHECK(same.get_weights()[i].to_vector<float>() == model.get_weights()[i].to_vector<float>());

  backend::clear_session();
  Sequential other({layers::Input({5}), layers::Dense(8, {.name = "dense"}), layers::Dense(4, {.name = "dense_1"})});
  CHECK_THROWS_WITH(other.load_weights(path, {.by_name = true}), Catch::Contains("dense_1") && Catch::Contains("(8, 4)"));
  other.load_weights(path, {.by_name = true, .skip_mismatch = true});
  CHECK(other.layers()[0]->get_weights()[0].to_vector<float>() == model.layers()[0]->get_weights()[0].to_vector<float>());

  Sequential fewer({layers::Input({5}), layers::Dense(8)});
  CHECK_THROWS_WITH(fewer.load_weights(path), Catch::Contains("1 layers with weights") && Catch::Contains("2"));
}

TEST_CASE("bad files give IOErrors naming the file, and a failed save keeps the old file") {
  const auto dir = temp_dir();
  CHECK_THROWS_WITH(models::load_model((dir / "missing.h5").string()), Catch::Contains("missing.h5"));
  const auto text = (dir / "text.h5").string();
  std::ofstream(text) << "not an hdf5 file";
  CHECK_THROWS_AS(models::load_model(text), IOError);

  const auto good = (dir / "good.h5").string();
  Sequential model = trained_model();
  model.save(good);
  const auto size = fs::file_size(good);
  // A truncated copy is rejected with the file's name.
  const auto cut = (dir / "cut.h5").string();
  fs::copy_file(good, cut, fs::copy_options::overwrite_existing);
  fs::resize_file(cut, size / 2);
  CHECK_THROWS_WITH(models::load_model(cut), Catch::Contains("cut.h5"));
  // Saving into a folder that does not exist fails, and saving over `good` through a blocked temporary
  // name leaves it intact.
  CHECK_THROWS_AS(model.save((dir / "no_such_dir" / "m.h5").string()), IOError);
  fs::create_directories(good + ".tmp" + std::to_string(::getpid()));  // the temporary name is taken by a folder
  CHECK_THROWS_AS(model.save(good), IOError);
  fs::remove_all(good + ".tmp" + std::to_string(::getpid()));
  CHECK(fs::file_size(good) == size);
  CHECK(models::load_model(good)->count_params() == model.count_params());
  // A weights-only file has no model config.
  const auto weights = (dir / "w.h5").string();
  model.save_weights(weights);
  CHECK_THROWS_WITH(models::load_model(weights), Catch::Contains("weights only"));
}

TEST_CASE("Keras 2.13 and Keras 3.3 MLP files load and predict what Keras predicted") {
  if (!have_fixtures()) return;
  for (const std::string name : {"tf2.13_mlp_adam", "keras3.3_mnist_mlp"}) {
    SECTION(name) {
      auto model = models::load_model(kFixtures + name + ".h5");
      Tensor x = utils::load_npy(kFixtures + name + ".input.npy").astype(DType::float32);
      Tensor expected = utils::load_npy(kFixtures + name + ".expected.npy");
      check_close(model->predict(x, {.batch_size = 64}), expected, 1e-5);
    }
  }
  auto adam = models::load_model(kFixtures + "tf2.13_mlp_adam.h5");
  CHECK(adam->compiled());
  CHECK(adam->optimizer().class_name() == "Adam");
  CHECK(adam->loss().class_name() == "BinaryCrossentropy");
  CHECK(adam->metrics_names() == std::vector<std::string>{"loss", "accuracy"});
}

TEST_CASE("Keras 2.0.5 save_weights file loads into the same architecture built in C++") {
  if (!have_fixtures()) return;
  const std::string path = kFixtures + "keras2.0.5_weights_only.h5";
  auto build = [] {
    return Sequential({layers::Input({30}), layers::Dense(16, {.name = "dense_1"}), layers::Dense(18, {.name = "dense_2"}),
                       layers::Dropout(0.5, {.name = "dropout_1"}), layers::Dense(20, {.name = "dense_3"}),
                       layers::Dense(24, {.name = "dense_4"}), layers::Dense(1, {.name = "dense_5"})});
  };
  hdf5::File file = hdf5::File::open(path);
  for (bool by_name : {false, true}) {
    Sequential model = build();
    model.load_weights(path, {.by_name = by_name});
    for (const auto& layer : model.layers()) {
      if (layer->weights().empty()) continue;
      auto group = file.root().open_group(layer->name());
      auto names = group.string_list_attr("weight_names");
      REQUIRE(names.size() == 2);
      CHECK(layer->get_weights()[0].to_vector<float>() == group.read_dataset(names[0]).to_vector<float>());
      CHECK(layer->get_weights()[1].to_vector<float>() == group.read_dataset(names[1]).to_vector<float>());
    }
  }
}

TEST_CASE("fit, save, load, fit continues with the same optimizer state") {
  const auto path = (temp_dir() / "resume.h5").string();
  auto data = [] {
    Tensor x = Tensor::empty({16, 5});
    for (int i = 0; i < 80; ++i) x.data<float>()[i] = float((i * 7) % 13) / 13.f;
    Tensor y = Tensor::empty({16}, DType::int32);
    for (int i = 0; i < 16; ++i) y.data<std::int32_t>()[i] = i % 3;
    return std::make_pair(x, y);
  };
  auto [x, y] = data();
  backend::clear_session();
  Sequential model = trained_model();  // layers dense, dropout, dense_1
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->optimizer().iterations() == model.optimizer().iterations());
  CHECK(loaded->optimizer().variables().size() == model.optimizer().variables().size());
  // One more epoch on both, without shuffling or dropout noise differences: the same weights.
  utils::set_random_seed(9);
  model.fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  utils::set_random_seed(9);
  loaded->fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  auto a = model.get_weights(), b = loaded->get_weights();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].to_vector<float>() == b[i].to_vector<float>());

  hdf5::File f = hdf5::File::open(path);
  auto names = f.root().open_group("optimizer_weights").string_list_attr("weight_names");
  REQUIRE(names.size() == 9);
  CHECK(names[0] == "iteration:0");
  CHECK(names[1] == "Adam/m/dense/kernel:0");
  CHECK(names[2] == "Adam/v/dense/kernel:0");
}

TEST_CASE("the Keras 2.13 Adam state loads with the model") {
  if (!have_fixtures()) return;
  auto model = models::load_model(kFixtures + "tf2.13_mlp_adam.h5");
  CHECK(model->optimizer().iterations() > 0);
  CHECK(model->optimizer().variables().size() == 12);
}
