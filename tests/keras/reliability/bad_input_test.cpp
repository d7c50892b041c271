// The bad-input table: every public entry point given wrong shapes, wrong dtypes, empty arrays,
// unknown names, missing, truncated or bit-flipped files must throw a keras:: exception whose message
// names the problem — never crash, abort or hang.
#include <filesystem>
#include <fstream>
#include <functional>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* what;
  std::function<void()> run;
  const char* message;  // a part the error message must contain
};

std::shared_ptr<Sequential> compiled_model() {
  auto model = std::make_shared<Sequential>(std::vector<LayerRef>{layers::Input({4}), layers::Dense(3)});
  model->compile({.optimizer = "adam", .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
                  .metrics = {"accuracy"}});
  return model;
}

void check_table(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    INFO(c.what);
    try {
      c.run();
      FAIL_CHECK("no exception");
    } catch (const Error& e) {
      CHECK_THAT(e.what(), Catch::Contains(c.message, Catch::CaseSensitive::No));
    } catch (const std::exception& e) {
      FAIL_CHECK("a non-keras exception: " << e.what());
    }
  }
}

// A copy of `from` with `count` bytes flipped from the middle on, or cut to `keep` bytes.
std::string damaged(const std::string& from, const std::string& to, std::size_t keep, std::size_t flip) {
  std::ifstream in(from, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  if (keep < bytes.size()) bytes.resize(keep);
  for (std::size_t i = 0; i < flip && bytes.size() / 2 + i < bytes.size(); ++i) bytes[bytes.size() / 2 + i] ^= 0x5a;
  std::ofstream(to, std::ios::binary) << bytes;
  return to;
}

}  // namespace

TEST_CASE("bad arrays given to fit, evaluate, predict and the batch methods throw clear errors") {
  backend::clear_session();
  auto model = compiled_model();
  const Tensor x = Tensor::ones({8, 4});
  const Tensor y = Tensor::zeros({8}, DType::int32);
  check_table({
      {"fit: x with the wrong feature size", [&] { model->fit(Tensor::ones({8, 5}), y, {.verbose = 0}); }, "shape"},
      {"fit: x and y of different lengths", [&] { model->fit(x, Tensor::zeros({7}, DType::int32), {.verbose = 0}); }, "8"},
      {"fit: empty x", [&] { model->fit(Tensor::ones({0, 4}), Tensor::zeros({0}, DType::int32), {.verbose = 0}); }, "no"},
      {"fit: validation_split of 1", [&] { model->fit(x, y, {.verbose = 0, .validation_split = 1.0}); }, "validation_split"},
      {"fit: negative epochs", [&] { model->fit(x, y, {.epochs = -1, .verbose = 0}); }, "epochs"},
      {"fit: a class_weight without every class", [&] { model->fit(x, y, {.verbose = 0, .class_weight = {{1, 2.0}}}); }, "class"},
      {"evaluate: wrong rank", [&] { model->evaluate(Tensor::ones({8}), y, {.verbose = 0}); }, "shape"},
      {"predict: empty x", [&] { model->predict(Tensor::ones({0, 4})); }, "no samples"},
      {"predict: wrong feature size", [&] { model->predict(Tensor::ones({2, 9})); }, "shape"},
      {"train_on_batch: labels out of range", [&] { model->train_on_batch(x, Tensor::full({8}, 7.0, DType::int32)); }, "7"},
  });
}

TEST_CASE("unknown identifiers and bad compile arguments throw errors that list what is valid") {
  backend::clear_session();
  Sequential model({layers::Input({4}), layers::Dense(3)});
  check_table({
      {"unknown optimizer", [&] { model.compile({.optimizer = "adamm", .loss = "mse"}); }, "adam"},
      {"unknown loss", [&] { model.compile({.optimizer = "adam", .loss = "msee"}); }, "Unknown loss"},
      {"unknown metric (found at the first batch, as in tf.keras 2)",
       [&] {
         Sequential m({layers::Input({4}), layers::Dense(3)});
         m.compile({.optimizer = "adam", .loss = "mse", .metrics = {"acuracy"}});
         m.fit(Tensor::ones({2, 4}), Tensor::ones({2, 3}), {.verbose = 0});
       },
       "acuracy"},
      {"unknown activation", [&] { layers::Dense(3, {.activation = "rellu"}); }, "rellu"},
      {"fit before compile", [&] { Sequential(std::vector<LayerRef>{layers::Input({4}), layers::Dense(3)}).fit(Tensor::ones({2, 4}), Tensor::ones({2, 3}), {.verbose = 0}); }, "compile"},
      {"unknown layer class in JSON", [&] { models::model_from_json(R"({"class_name": "Denze", "config": {}})"); }, "Denze"},
      {"JSON that is not JSON", [&] { models::model_from_json("{\"class_name\": "); }, "JSON"},
  });
}

TEST_CASE("missing, foreign, truncated and bit-flipped model files throw IOError naming the file") {
  keras_test::TempDir dir("bad_files");
  backend::clear_session();
  auto model = compiled_model();
  model->fit(Tensor::ones({8, 4}), Tensor::zeros({8}, DType::int32), {.verbose = 0});
  const std::string good = dir / "good.h5";
  model->save(good);
  const auto size = fs::file_size(good);
  { std::ofstream(dir / "text.h5") << "hello, I am not HDF5"; }
  { std::ofstream(dir / "empty.h5"); }
  const std::string half = damaged(good, dir / "half.h5", size / 2, 0);
  const std::string header = damaged(good, dir / "header.h5", 100, 0);
  const std::string flipped = damaged(good, dir / "flipped.h5", size, 64);
  check_table({
      {"missing file", [&] { models::load_model(dir / "nope.h5"); }, "nope.h5"},
      {"a text file", [&] { models::load_model(dir / "text.h5"); }, "text.h5"},
      {"an empty file", [&] { models::load_model(dir / "empty.h5"); }, "empty.h5"},
      {"truncated to half", [&] { models::load_model(half); }, "half.h5"},
      {"truncated to its header", [&] { models::load_model(header); }, "header.h5"},
      {"weights from a missing file", [&] { model->load_weights(dir / "nope.h5"); }, "nope.h5"},
      {"weights from a text file", [&] { model->load_weights(dir / "text.h5"); }, "text.h5"},
      {"npy: missing", [&] { utils::load_npy(dir / "nope.npy"); }, "nope.npy"},
      {"npy: not npy", [&] { utils::load_npy(dir / "text.h5"); }, "text.h5"},
      // Found by fuzz_tfjs: a Sequential config whose "layers" key is misspelt once escaped as a JSON error.
      {"TF.js config without layers", [&] {
         std::filesystem::create_directories(dir / "nolayers");
         std::filesystem::copy_file(std::string(keras_test::golden_dir) + "/fuzz_findings/tfjs_config_without_layers.json",
                                    dir / "nolayers/model.json");
         models::load_tfjs(dir / "nolayers/model.json");
       }, "model description is malformed"},
      // Found by fuzz_json_config: a negative node index was used to index the layer's calls.
      {"functional config with a negative node index", [&] {
         models::model_from_json(R"({"class_name": "Functional", "config": {"name": "m", "layers": [
             {"class_name": "InputLayer", "name": "in", "config": {"name": "in", "batch_input_shape": [null, 2]}, "inbound_nodes": []},
             {"class_name": "Dense", "name": "d", "config": {"name": "d", "units": 1}, "inbound_nodes": [[["in", -3, 0, {}]]]}],
           "input_layers": [["in", 0, 0]], "output_layers": [["d", 0, 0]]}})");
       }, "node indices start at 0"},
      {"JSON config with a wrong type inside", [&] {
         models::model_from_json(R"({"class_name": "Sequential", "config": {"layers": [{"class_name": "Dense", "config": {"units": "many"}}]}})");
       }, "\"units\" = \"many\""},
      // Found by fuzz_tfjs (UBSan): a huge float where an integer belongs was cast to int, which is undefined.
      {"JSON config with a huge float for an integer", [&] {
         models::model_from_json(R"({"class_name": "Sequential", "config": {"layers": [{"class_name": "Dense", "config": {"units": 1e300}}]}})");
       }, "is not an integer"},
      {"JSON config with a huge float for an int axis", [&] {
         models::model_from_json(R"({"class_name": "Sequential", "config": {"layers": [{"class_name": "Concatenate", "config": {"axis": -3e10}}]}})");
       }, "is not an integer"},
      {"JSON config with an int64 for an int axis", [&] {
         models::model_from_json(R"({"class_name": "Sequential", "config": {"layers": [{"class_name": "Softmax", "config": {"axis": 9000000000}}]}})");
       }, "does not fit"},
  });
  // Bit flips in the middle hit weight data or metadata: either the load fails cleanly or it succeeds.
  try {
    models::load_model(flipped);
  } catch (const Error&) {
  }
  // And the good file is still good.
  CHECK(models::load_model(good)->count_params() == model->count_params());
}

TEST_CASE("a failed save keeps the previous good file") {
  keras_test::TempDir dir("failed_save");
  backend::clear_session();
  auto model = compiled_model();
  const std::string path = dir / "m.h5";
  model->save(path);
  const auto before = fs::file_size(path);
  fs::create_directory(dir / "readonly");
  model->save(dir / "readonly/m.h5");
  fs::permissions(dir / "readonly", fs::perms::owner_read | fs::perms::owner_exec);
  const bool root = ::geteuid() == 0;  // root ignores permissions; the next check needs a real failure
  if (!root) CHECK_THROWS_AS(model->save(dir / "readonly/m.h5"), IOError);
  CHECK(models::load_model(dir / "readonly/m.h5")->count_params() == model->count_params());
  fs::permissions(dir / "readonly", fs::perms::owner_all);
  // Saving onto a path whose parent is a file fails and leaves m.h5 alone.
  CHECK_THROWS_AS(model->save(path + "/inside.h5"), IOError);
  CHECK(fs::file_size(path) == before);
}
