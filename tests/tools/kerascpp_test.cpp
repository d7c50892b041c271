// The command-line tool, run as a user runs it.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {

struct Run {
  int status;
  std::string output;  // stdout and stderr
};

Run kerascpp(const std::string& args) {
  const std::string cmd = std::string(keras_test::bin_dir) + "/kerascpp " + args + " 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  const int raw = ::pclose(pipe);
  return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, out};
}

std::shared_ptr<Sequential> saved_model(const std::string& path) {
  utils::set_random_seed(8);
  auto model = std::make_shared<Sequential>(std::vector<LayerRef>{layers::Input({4}),
                                                                  layers::Dense(5, {.activation = "relu"}),
                                                                  layers::Dense(3, {.activation = "softmax"})});
  model->compile({.optimizer = "adam", .loss = "sparse_categorical_crossentropy", .metrics = {"accuracy"}});
  model->save(path);
  return model;
}

const std::string kFixtures = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/";

}  // namespace

TEST_CASE("kerascpp summary prints Keras's table for .h5, JSON and TF.js models") {
  keras_test::TempDir dir("cli_summary");
  saved_model(dir / "m.h5");
  Run r = kerascpp("summary " + dir / "m.h5");
  CHECK(r.status == 0);
  CHECK(r.output.find("Total params: 43") != std::string::npos);
  REQUIRE(kerascpp("convert " + dir / "m.h5 " + dir / "m.json").status == 0);
  CHECK(fs::exists(dir / "m.weights.h5"));
  CHECK(kerascpp("summary " + dir / "m.json").output.find("Total params: 43") != std::string::npos);
  REQUIRE(kerascpp("convert " + dir / "m.json " + dir / "web").status == 0);
  CHECK(kerascpp("summary " + dir / "web").output.find("Total params: 43") != std::string::npos);
}

TEST_CASE("kerascpp predict and convert keep the numbers across formats") {
  keras_test::TempDir dir("cli_predict");
  auto model = saved_model(dir / "m.h5");
  Tensor x = Tensor::empty({6, 4});
  for (int i = 0; i < 24; ++i) x.data<float>()[i] = float(i % 5) * 0.3f - 0.5f;
  utils::save_npy(dir / "x.npy", x);
  const auto want = model->predict(x).to_vector<float>();
  REQUIRE(kerascpp("predict " + dir / "m.h5 " + dir / "x.npy -o " + dir / "y.npy").status == 0);
  CHECK(utils::load_npy(dir / "y.npy").to_vector<float>() == want);
  REQUIRE(kerascpp("convert " + dir / "m.h5 " + dir / "tfjs").status == 0);
  REQUIRE(kerascpp("convert " + dir / "tfjs/model.json " + dir / "back.h5").status == 0);
  REQUIRE(kerascpp("predict " + dir / "back.h5 " + dir / "x.npy -o " + dir / "y2.npy --batch-size 4").status == 0);
  CHECK(utils::load_npy(dir / "y2.npy").to_vector<float>() == want);
}

TEST_CASE("kerascpp predict takes one IN.npy per input and writes OUT_0.npy, OUT_1.npy for several outputs") {
  keras_test::TempDir dir("cli_predict_multi");
  backend::clear_session();
  utils::set_random_seed(3);
  KerasTensor a = Input({3}), b = Input({2});
  KerasTensor h = layers::Dense(4, {.activation = "tanh"})(layers::Concatenate()({a, b}));
  Model model({a, b}, {layers::Dense(2)(h), layers::Dense(1)(h)});
  model.save(dir / "two.h5");
  Tensor xa = Tensor::full({5, 3}, 0.25), xb = Tensor::full({5, 2}, -0.5);
  utils::save_npy(dir / "a.npy", xa);
  utils::save_npy(dir / "b.npy", xb);
  const auto want = model.predict_outputs({xa, xb});
  Run r = kerascpp("predict " + dir / "two.h5 " + dir / "a.npy " + dir / "b.npy -o " + dir / "out.npy");
  REQUIRE(r.status == 0);
  CHECK(r.output.find("dense_2 (5, 1)") != std::string::npos);
  CHECK(utils::load_npy(dir / "out_0.npy").to_vector<float>() == want[0].to_vector<float>());
  CHECK(utils::load_npy(dir / "out_1.npy").to_vector<float>() == want[1].to_vector<float>());
  Run bad = kerascpp("predict " + dir / "two.h5 " + dir / "a.npy -o " + dir / "out.npy");
  CHECK(bad.status == 1);
  CHECK(bad.output.find("expects 2 x") != std::string::npos);
}

TEST_CASE("kerascpp predict reads a string .npy into a model that takes raw text") {
  keras_test::TempDir dir("cli_predict_strings");
  backend::clear_session();
  utils::set_random_seed(5);
  auto vectorize = std::make_shared<layers::TextVectorization>(
      layers::TextVectorizationOptions{.output_mode = "multi_hot"});
  vectorize->adapt(Tensor::from_vector<std::string>({"good film", "bad film", "very good"}, {3}));
  KerasTensor in = Input({1}, {.dtype = DType::string});
  Model model(in, layers::Dense(1, {.activation = "sigmoid"})((*vectorize)(in)));
  model.save(dir / "text.keras");
  // NumPy's '<U' text (written as numpy.save writes it), one review per row.
  const Tensor x = Tensor::from_vector<std::string>({"Good film!", "bad", "tr\xC3\xA8s bon"}, {3, 1});
  utils::save_npy(dir / "x.npy", x);
  REQUIRE(utils::load_npy(dir / "x.npy").dtype() == DType::string);
  Run r = kerascpp("predict " + dir / "text.keras " + dir / "x.npy -o " + dir / "y.npy");
  REQUIRE(r.status == 0);
  CHECK(utils::load_npy(dir / "y.npy").to_vector<float>() == model.predict(x).to_vector<float>());
}

TEST_CASE("kerascpp evaluate reproduces a real Keras model's Fashion-MNIST accuracy") {
  if (!fs::exists(kFixtures) || !fs::exists("/usr/share/datasets/fashion-mnist")) {
    WARN("skipped: the fixtures or Fashion-MNIST are absent");
    return;
  }
  Run r = kerascpp("evaluate " + kFixtures + "tf2.7_fashion_cnn_bn.h5 --dataset fashion_mnist --batch-size 500");
  CHECK(r.status == 0);
  CHECK(r.output.find("accuracy: 0.9122") != std::string::npos);
  CHECK(r.output.find("loss: ") != std::string::npos);
}

TEST_CASE("kerascpp reports bad input on stderr with a non-zero status, never a crash") {
  keras_test::TempDir dir("cli_errors");
  Run none = kerascpp("");
  CHECK(none.status == 2);
  CHECK(none.output.find("usage:") != std::string::npos);
  CHECK(kerascpp("frobnicate x").status == 2);
  Run missing = kerascpp("summary " + dir / "nope.h5");
  CHECK(missing.status == 1);
  CHECK(missing.output.find("nope.h5") != std::string::npos);
  { std::ofstream(dir / "junk.h5") << "not an hdf5 file"; }
  Run junk = kerascpp("summary " + dir / "junk.h5");
  CHECK(junk.status == 1);
  CHECK(junk.output.find("junk.h5") != std::string::npos);
  saved_model(dir / "m.h5");
  CHECK(kerascpp("predict " + dir / "m.h5 " + dir / "missing.npy -o " + dir / "y.npy").status == 1);
  CHECK(kerascpp("predict " + dir / "m.h5").status == 2);
  CHECK(kerascpp("evaluate " + dir / "m.h5 --dataset cifar").status == 2);
  CHECK(kerascpp("predict " + dir / "m.h5 " + dir / "x.npy -o " + dir / "y.npy --batch-size zero").status == 2);
}
