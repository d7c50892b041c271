#pragma once
// What the ONNX export tests build their models with: seeded random inputs and weights (biases and
// normalization statistics included, so that no part of a layer is a silent zero or one), and the check
// that ONNX Runtime's predictions match kerascpp's.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {
class Model;
}

namespace keras_test::onnx {

/// Uniform values in [low, high).
keras::Tensor random_tensor(const keras::Shape& shape, std::uint32_t seed, float low = -1.f, float high = 1.f);
/// Integers in [0, high) as int32.
keras::Tensor random_indices(const keras::Shape& shape, std::uint32_t seed, std::int32_t high);
/// One random input per model input, in [0, 1), unknown dimensions (the batch, a time axis) taken as 5.
std::vector<keras::Tensor> random_inputs(const keras::Model& model, std::uint32_t seed = 1);
/// Every weight of the model set to seeded uniform values in [-0.5, 0.5) (variances in [0.5, 1.5)).
void randomize_weights(keras::Model& model, std::uint32_t seed = 7);

/// A committed real Keras file of tests/real_models (manifest.json), loaded, with its reference inputs.
struct RealModel {
  std::string file;
  std::shared_ptr<keras::Model> model;
  std::vector<keras::Tensor> inputs;
};
/// Every committed file of the corpus that loads (the entries expecting a load error left out).
std::vector<RealModel> committed_real_models();

/// Exports the model and CHECKs that ONNX Runtime's outputs are within `tolerance` of kerascpp's; returns the
/// largest difference seen.
double expect_matches(keras::Model& model, const std::vector<keras::Tensor>& inputs, double tolerance = 1e-5);

}  // namespace keras_test::onnx
