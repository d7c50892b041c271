#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace fs = std::filesystem;

TEST_CASE("model_to_dot draws a Sequential model as a chain with names and shapes") {
  backend::clear_session();
  Sequential model({layers::Input({28, 28}), layers::Flatten(), layers::Dense(16, {.activation = "relu"})}, "net");
  const std::string dot = utils::model_to_dot(model, {.show_shapes = true, .show_layer_activations = true});
  CHECK(dot.rfind("digraph G {", 0) == 0);
  CHECK(dot.find("\"flatten\" -> \"dense\"") != std::string::npos);
  CHECK(dot.find("dense: Dense (relu)") != std::string::npos);
  CHECK(dot.find("{(None, 784)|(None, 16)}") != std::string::npos);  // input and output of the dense layer
  const std::string plain = utils::model_to_dot(model, {.show_layer_names = false});
  CHECK(plain.find("label=\"{Dense}\"") != std::string::npos);
}

TEST_CASE("model_to_dot draws every connection of a functional model with a branch") {
  backend::clear_session();
  KerasTensor in = Input({8}, {.name = "features"});
  KerasTensor a = layers::Dense(4, {.name = "left"})(in);
  KerasTensor b = layers::Dense(4, {.name = "right"})(in);
  KerasTensor both = layers::Dense(2, {.name = "head"})(a);
  Model model(std::vector<KerasTensor>{in}, both);
  (void)b;
  const std::string dot = utils::model_to_dot(model, {.rankdir = "LR"});
  CHECK(dot.find("rankdir=LR") != std::string::npos);
  CHECK(dot.find("\"features\" -> \"left\"") != std::string::npos);
  CHECK(dot.find("\"left\" -> \"head\"") != std::string::npos);
  CHECK_THROWS_AS(utils::model_to_dot(model, {.rankdir = "XY"}), ValueError);
}

TEST_CASE("plot_model writes DOT files, renders images with Graphviz when present, and rejects unknown types") {
  keras_test::TempDir dir("plot_model");
  Sequential model({layers::Input({3}), layers::Dense(2)});
  utils::plot_model(model, dir / "model.dot");
  std::ifstream in(dir / "model.dot");
  std::string first;
  std::getline(in, first);
  CHECK(first == "digraph G {");
  CHECK_THROWS_AS(utils::plot_model(model, dir / "model.docx"), ValueError);
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    utils::plot_model(model, dir / "model.png");
    std::ifstream png(dir / "model.png", std::ios::binary);
    char magic[4] = {};
    png.read(magic, 4);
    CHECK(std::string(magic + 1, 3) == "PNG");
  } else {
    CHECK_THROWS_WITH(utils::plot_model(model, dir / "model.png"), Catch::Contains("graphviz"));
    CHECK_FALSE(fs::exists(dir / "model.png"));
  }
}
