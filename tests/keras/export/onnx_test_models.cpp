#include "onnx_test_models.hpp"

#include <filesystem>
#include <fstream>
#include <random>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "onnx_runtime.hpp"
#include "test_paths.hpp"

namespace keras_test::onnx {

keras::Tensor random_tensor(const keras::Shape& shape, std::uint32_t seed, float low, float high) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(low, high);
  std::vector<float> v(static_cast<std::size_t>(keras::shape_size(shape)));
  for (auto& x : v) x = u(rng);
  return keras::Tensor::from_vector(v, shape);
}

keras::Tensor random_indices(const keras::Shape& shape, std::uint32_t seed, std::int32_t high) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int32_t> u(0, high - 1);
  std::vector<std::int32_t> v(static_cast<std::size_t>(keras::shape_size(shape)));
  for (auto& x : v) x = u(rng);
  return keras::Tensor::from_vector(v, shape);
}

std::vector<keras::Tensor> random_inputs(const keras::Model& model, std::uint32_t seed) {
  std::vector<keras::Tensor> inputs;
  for (const auto& in : model.inputs()) {
    keras::Shape shape = in.shape();
    for (auto& d : shape)
      if (d < 0) d = 5;
    inputs.push_back(random_tensor(shape, seed++, 0.f, 1.f));
  }
  return inputs;
}

void randomize_weights(keras::Model& model, std::uint32_t seed) {
  for (const auto& w : model.weights()) {
    const bool variance = w->name().find("variance") != std::string::npos;
    w->assign(random_tensor(w->value().shape(), seed++, variance ? 0.5f : -0.5f, variance ? 1.5f : 0.5f));
  }
}

std::vector<RealModel> committed_real_models() {
  const std::filesystem::path folder = std::filesystem::path(keras_test::golden_dir) / ".." / "real_models";
  std::ifstream in(folder / "manifest.json");
  REQUIRE(in);
  const keras::json manifest = keras::json::parse(in);
  std::vector<RealModel> out;
  for (const auto& entry : manifest["models"]) {
    if (entry["location"] != "committed" || entry.contains("expect_error")) continue;
    RealModel m{entry["file"], keras::models::load_model((folder / entry["file"].get<std::string>()).string()), {}};
    for (const auto& name : entry["inputs"])
      m.inputs.push_back(keras::utils::load_npy((folder / name.get<std::string>()).string()));
    out.push_back(std::move(m));
  }
  REQUIRE(!out.empty());
  return out;
}

double expect_matches(keras::Model& model, const std::vector<keras::Tensor>& inputs, double tolerance) {
  const double diff = export_and_compare(model, inputs);
  INFO("model " << model.name() << ": max |ONNX Runtime - kerascpp| = " << diff);
  CHECK(diff <= tolerance);
  return diff;
}

}  // namespace keras_test::onnx
