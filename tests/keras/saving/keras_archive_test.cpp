// The .keras archive and Keras 3's weights files: round trips, the layout Keras 3 reads, and the checks
// that keep a hostile or damaged archive from doing harm.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/hdf5/file.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/keras_archive.hpp"
#include "keras/saving/zip_archive.hpp"
#include "temp_dir.hpp"
#include "zip_bytes.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {

Tensor ramp(const Shape& shape, float scale = 0.1f) {
  Tensor t = Tensor::empty(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = float((i * 7) % 13) * scale - 0.5f;
  return t;
}

Tensor labels(std::int64_t n, int classes) {
  Tensor y = Tensor::empty({n}, DType::int32);
  for (std::int64_t i = 0; i < n; ++i) y.data<std::int32_t>()[i] = std::int32_t(i % classes);
  return y;
}

void check_same(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  CHECK(a.to_vector<float>() == b.to_vector<float>());
}

std::shared_ptr<Sequential> small_cnn() {
  utils::set_random_seed(5);
  auto model = std::make_shared<Sequential>(std::initializer_list<LayerRef>{
      layers::Input({6, 6, 2}), layers::Conv2D(4, {3, 3}, {.activation = "relu"}), layers::BatchNormalization(),
      layers::MaxPooling2D({2, 2}), layers::Flatten(), layers::Dense(8, {.activation = "relu"}),
      layers::Dense(3, {.activation = "softmax"})});
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}), .loss = "sparse_categorical_crossentropy",
                  .metrics = {"accuracy"}});
  model->fit(ramp({12, 6, 6, 2}), labels(12, 3), {.batch_size = 4, .epochs = 1, .verbose = 0});
  return model;
}

std::shared_ptr<Model> recurrent_functional() {
  utils::set_random_seed(9);
  auto a = layers::Input({5, 3}, {.name = "sequence"});
  auto b = layers::Input({4}, {.name = "side"});
  auto h = layers::Bidirectional(layers::LSTM(4, {.return_sequences = true}))(a);
  auto g = layers::GRU(3)(h);
  auto s = layers::Dense(3)(b);
  auto merged = layers::Dropout(0.3)(layers::Concatenate()({g, s}));
  auto out1 = layers::Dense(2, {.name = "first"})(merged);
  auto out2 = layers::Dense(1, {.name = "second"})(layers::Add()({g, s}));
  auto model = std::make_shared<Model>(std::vector<KerasTensor>{a, b}, std::vector<KerasTensor>{out1, out2});
  model->compile({.optimizer = optimizers::RMSprop({.learning_rate = 0.01}), .loss = "mse"});
  return model;
}

std::vector<std::string> h5_datasets(const hdf5::Group& group, const std::string& prefix = "") {
  std::vector<std::string> out;
  for (const auto& child : group.children()) {
    const std::string path = prefix.empty() ? child : prefix + "/" + child;
    bool is_group = true;
    try {
      (void)group.open_group(child);
    } catch (const IOError&) {
      is_group = false;
    }
    if (is_group) {
      auto sub = h5_datasets(group.open_group(child), path);
      out.insert(out.end(), sub.begin(), sub.end());
    } else {
      out.push_back(path);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a .keras archive round-trips a trained model, its compile settings and optimizer state", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  const Tensor x = ramp({5, 6, 6, 2}, 0.07f);
  const std::string path = dir / "cnn.keras";
  model->save(path);
  REQUIRE(saving::is_zip_file(path));

  auto loaded = models::load_model(path);
  CHECK(loaded->class_name() == "Sequential");
  check_same(loaded->predict(x), model->predict(x));
  REQUIRE(loaded->compiled());
  CHECK(loaded->optimizer().class_name() == "Adam");
  CHECK(loaded->optimizer().iterations() == model->optimizer().iterations());
  auto want = model->optimizer().variables(), got = loaded->optimizer().variables();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) check_same(got[i]->value(), want[i]->value());

  // Training resumes where it stopped: one more epoch on both gives the same weights.
  model->fit(ramp({12, 6, 6, 2}), labels(12, 3), {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  loaded->fit(ramp({12, 6, 6, 2}), labels(12, 3), {.batch_size = 4, .epochs = 1, .verbose = 0, .shuffle = false});
  check_same(loaded->predict(x), model->predict(x));
}

TEST_CASE("an archive after other bytes loads, as Python's zipfile reads it (a pickled Keras model)", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  const std::string path = dir / "cnn.keras", wrapped = dir / "wrapped.keras";
  model->save(path);
  {
    std::ifstream in(path, std::ios::binary);
    std::ofstream out(wrapped, std::ios::binary);
    out << std::string("\x80\x04\x95pickle header, then the archive's bytes:", 40) << in.rdbuf() << ".";
  }
  REQUIRE(saving::is_zip_file(wrapped));
  const Tensor x = ramp({3, 6, 6, 2}, 0.05f);
  check_same(models::load_model(wrapped)->predict(x), model->predict(x));

  std::ofstream(dir / "junk.keras") << "\x80\x04 not an archive PK\x05\x06 at all";
  CHECK_FALSE(saving::is_zip_file(dir / "junk.keras"));
  CHECK_THROWS_WITH(models::load_model(dir / "junk.keras"), Catch::Contains("junk.keras"));
}

TEST_CASE("a .keras archive has Keras 3's entries, config and weight paths", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  const std::string path = dir / "cnn.keras";
  model->save(path);
  saving::ZipReader zip(path);
  CHECK(zip.names() == std::vector<std::string>{"metadata.json", "config.json", "model.weights.h5"});
  const json metadata = json::parse(zip.read("metadata.json"));
  CHECK(metadata.at("keras_version").get<std::string>().rfind("3.", 0) == 0);
  const json config = json::parse(zip.read("config.json"));
  CHECK(config.at("module") == "keras");
  CHECK(config.at("class_name") == "Sequential");
  const json& first = config.at("config").at("layers").at(0);
  CHECK(first.at("class_name") == "InputLayer");
  CHECK(first.at("config").at("batch_shape") == json::parse("[null, 6, 6, 2]"));
  const json& conv = config.at("config").at("layers").at(1);
  CHECK(conv.at("module") == "keras.layers");
  CHECK(conv.at("config").at("dtype").at("class_name") == "DTypePolicy");
  CHECK(conv.at("config").at("kernel_initializer").at("module") == "keras.initializers");
  CHECK(conv.at("build_config").at("input_shape") == json::parse("[null, 6, 6, 2]"));
  CHECK_FALSE(conv.at("config").contains("batch_input_shape"));
  const json& cc = config.at("compile_config");
  CHECK(cc.at("optimizer").at("module") == "keras.optimizers");
  CHECK_FALSE(cc.at("optimizer").at("config").contains("is_legacy_optimizer"));

  zip.extract("model.weights.h5", dir / "w.h5");
  hdf5::File file = hdf5::File::open(dir / "w.h5");
  auto datasets = h5_datasets(file.root());
  std::sort(datasets.begin(), datasets.end());
  // Conv2D kernel+bias, BN gamma, beta, moving mean, variance, two Dense layers; Adam: iterations,
  // learning rate and (m, v) per trainable variable (8 of them).
  std::vector<std::string> want{"layers/batch_normalization/vars/0", "layers/batch_normalization/vars/1",
                                "layers/batch_normalization/vars/2", "layers/batch_normalization/vars/3",
                                "layers/conv2d/vars/0", "layers/conv2d/vars/1", "layers/dense/vars/0",
                                "layers/dense/vars/1", "layers/dense_1/vars/0", "layers/dense_1/vars/1"};
  for (int i = 0; i < 2 + 2 * 8; ++i) want.push_back("optimizer/vars/" + std::to_string(i));
  std::sort(want.begin(), want.end());
  CHECK(datasets == want);
  CHECK(file.root().read_dataset("optimizer/vars/0").dtype() == DType::int64);
  CHECK(file.root().read_dataset("layers/conv2d/vars/0").shape() == Shape{3, 3, 2, 4});
}

TEST_CASE("a functional model with recurrent layers, two inputs and two outputs round-trips through .keras",
          "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = recurrent_functional();
  const Tensor a = ramp({3, 5, 3}), b = ramp({3, 4}, 0.05f);
  model->fit({a, b}, {ramp({3, 2}), ramp({3, 1})}, {.batch_size = 3, .epochs = 1, .verbose = 0});
  const std::string path = dir / "rnn.keras";
  model->save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->class_name() == "Functional");
  auto want = model->predict_outputs({a, b}), got = loaded->predict_outputs({a, b});
  REQUIRE(got.size() == 2);
  check_same(got[0], want[0]);
  check_same(got[1], want[1]);

  saving::ZipReader zip(path);
  const json config = json::parse(zip.read("config.json"));
  CHECK(config.at("registered_name") == "Functional");
  for (const auto& layer : config.at("config").at("layers")) {
    INFO(layer.at("name"));
    for (const auto& node : layer.at("inbound_nodes")) {
      REQUIRE(node.contains("args"));
      const json& first = node["args"][0].is_array() ? node["args"][0][0] : node["args"][0];
      CHECK(first.at("class_name") == "__keras_tensor__");
      CHECK(first.at("config").at("shape").is_array());
    }
  }
  zip.extract("model.weights.h5", dir / "w.h5");
  hdf5::File file = hdf5::File::open(dir / "w.h5");
  const hdf5::Group root = file.root();
  CHECK(root.has("layers/bidirectional/forward_layer/cell/vars/2"));
  CHECK(root.has("layers/bidirectional/backward_layer/cell/vars/0"));
  CHECK(root.has("layers/gru/cell/vars/2"));
  CHECK(root.has("layers/dense_2/vars/1"));
}

TEST_CASE("Keras 3 weights files: .weights.h5 and sharded .weights.json round-trip", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  const Tensor x = ramp({2, 6, 6, 2});
  model->save_weights(dir / "m.weights.h5");
  model->save_weights(dir / "m.weights.json", {.max_shard_size = 1e-6});  // about 1 kB per shard
  model->save(dir / "m.keras");
  {
    hdf5::File file = hdf5::File::open(dir / "m.weights.h5");
    CHECK(file.root().has("layers/conv2d/vars/0"));
    CHECK_FALSE(file.root().has_attr("layer_names"));
  }
  const json manifest = json::parse(std::ifstream(dir / "m.weights.json"));
  CHECK(manifest.at("weight_map").at("/layers/conv2d/vars") == "m_00000.weights.h5");
  CHECK(fs::exists(dir / "m_00001.weights.h5"));

  for (const std::string file : {"m.weights.h5", "m.weights.json", "m.keras"}) {
    INFO(file);
    auto fresh = small_cnn();  // same seed, then trained: its weights differ only after loading
    for (auto& w : fresh->weights()) w->assign(Tensor::zeros(w->shape()));
    fresh->load_weights(dir / file);
    check_same(fresh->predict(x), model->predict(x));
  }
  CHECK_THROWS_WITH(model->save_weights(dir / "m.weights.h5", {.max_shard_size = 1.0}), Catch::Contains(".weights.json"));
}

TEST_CASE("save picks the format by extension and refuses others - a failed save keeps the old file", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  CHECK_THROWS_AS(model->save(dir / "model.bin"), ValueError);
  CHECK_THROWS_WITH(model->save(dir / "model.bin"), Catch::Contains(".keras") && Catch::Contains(".h5"));
  model->save(dir / "model.h5");
  CHECK_FALSE(saving::is_zip_file(dir / "model.h5"));
  const std::string path = dir / "model.keras";
  model->save(path);
  const auto before = fs::file_size(path);
  fs::permissions(dir.path(), fs::perms::owner_write, fs::perm_options::remove);
  const bool can_write = std::ofstream(dir / "probe").good();  // root ignores permissions
  if (!can_write) {
    CHECK_THROWS_AS(model->save(path), IOError);
    CHECK(fs::file_size(path) == before);
    CHECK(models::load_model(path)->predict(ramp({1, 6, 6, 2})).shape() == Shape{1, 3});
  }
  fs::permissions(dir.path(), fs::perms::owner_write, fs::perm_options::add);
}

TEST_CASE("hostile and damaged archives are IOErrors naming the file and the entry", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  const std::string path = dir / "bad.keras";
  auto refused = [&](const std::vector<keras_test::ZipEntry>& entries, const std::string& says) {
    keras_test::write_zip(path, entries);
    CHECK_THROWS_AS(models::load_model(path), IOError);
    CHECK_THROWS_WITH(models::load_model(path), Catch::Contains(path) && Catch::Contains(says));
  };
  const std::string config = R"({"class_name": "Sequential", "config": {"layers": []}})";
  refused({{"../evil.json", "x"}, {"config.json", config}}, "../evil.json");
  refused({{"/etc/passwd", "x"}}, "/etc/passwd");
  refused({{"a\\..\\b", "x"}}, "a\\..\\b");
  refused({{"config.json", config}, {"config.json", config}}, "two entries");
  refused({{"config.json", config}, {"model.weights.h5", std::string(100, 'x'), 0xF0000000u, 8}}, "zip bomb");
  refused({{"config.json", config, std::nullopt, 0, true}, {"model.weights.h5", "x"}}, "damaged");
  refused({{"metadata.json", "{}"}, {"model.weights.h5", "x"}}, "no config.json");
  refused({{"config.json", config}}, "no model.weights.h5");
  refused({{"config.json", "{not json"}, {"model.weights.h5", "x"}}, "not valid JSON");

  // A truncated archive, and a file that is not a zip at all.
  small_cnn()->save(path);
  const auto size = fs::file_size(path);
  fs::resize_file(path, size / 2);
  CHECK_THROWS_AS(models::load_model(path), IOError);
  std::ofstream(path, std::ios::trunc) << "plain text";
  CHECK_THROWS_WITH(models::load_model(path), Catch::Contains("not a zip archive"));
}

TEST_CASE("load_model reads by content when the name has another extension", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  model->save(dir / "m.keras");
  fs::copy_file(dir / "m.keras", dir / "m.model");
  CHECK(models::load_model(dir / "m.model")->class_name() == "Sequential");
  std::ofstream(dir / "notes.txt") << "hello";
  CHECK_THROWS_WITH(models::load_model(dir / "notes.txt"), Catch::Contains(".keras") && Catch::Contains(".h5"));
}

TEST_CASE("a model compiled but never trained keeps only its optimizer's counter and learning rate", "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  utils::set_random_seed(2);
  Sequential model({layers::Input({3}), layers::Dense(2)});
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 0.25}), .loss = "mse"});
  model.save(dir / "fresh.keras");
  saving::ZipReader zip(dir / "fresh.keras");
  zip.extract("model.weights.h5", dir / "w.h5");
  {
    hdf5::File file = hdf5::File::open(dir / "w.h5");
    auto datasets = h5_datasets(file.root());
    std::sort(datasets.begin(), datasets.end());
    CHECK(datasets == std::vector<std::string>{"layers/dense/vars/0", "layers/dense/vars/1", "optimizer/vars/0",
                                               "optimizer/vars/1"});
  }
  auto loaded = models::load_model(dir / "fresh.keras");
  REQUIRE(loaded->compiled());
  CHECK(loaded->optimizer().learning_rate() == Approx(0.25));
  CHECK(loaded->optimizer().iterations() == 0);
}

TEST_CASE("compile_config holds compile()'s arguments as given, and a loaded one is written back as it was",
          "[keras_archive]") {
  keras_test::TempDir dir("keras_archive");
  auto model = small_cnn();
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy"});
  CHECK(model->compile_config().at("optimizer") == "adam");  // Keras 3 writes the argument, not the object
  model->save(dir / "by_name.keras");
  auto loaded = models::load_model(dir / "by_name.keras");
  CHECK(loaded->optimizer().class_name() == "Adam");
  CHECK(loaded->compile_config().at("optimizer") == "adam");

  // A config Keras 3 wrote (a loss wrapped as a function, jit_compile on) comes back unchanged ...
  const json written_by_keras = json::parse(R"({
    "optimizer": {"module": "keras.optimizers", "class_name": "SGD", "config": {"name": "SGD", "learning_rate": 0.05},
                  "registered_name": null},
    "loss": {"module": "keras.losses", "class_name": "function", "config": "sparse_categorical_crossentropy",
             "registered_name": "function"},
    "loss_weights": null, "metrics": ["accuracy"], "weighted_metrics": null, "run_eagerly": false,
    "steps_per_execution": 1, "jit_compile": true})");
  loaded->compile_from_config(written_by_keras);
  CHECK(loaded->optimizer().class_name() == "SGD");
  CHECK(loaded->compile_config() == written_by_keras);
  loaded->save(dir / "again.keras");
  saving::ZipReader zip(dir / "again.keras");
  CHECK(json::parse(zip.read("config.json")).at("compile_config") == written_by_keras);
  // ... until the model is compiled again.
  loaded->compile({.optimizer = "rmsprop", .loss = "mse"});
  CHECK(loaded->compile_config().at("optimizer") == "rmsprop");
  CHECK(loaded->compile_config().at("jit_compile") == false);
}
