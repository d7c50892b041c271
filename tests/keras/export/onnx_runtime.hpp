#pragma once
// The oracles of the ONNX export tests: ONNX Runtime (npm's onnxruntime-node, run by
// tools/onnx_runtime/run_onnx.js) and the onnx package's checker (Debian's python3-onnx, run by
// tools/onnx_runtime/check_onnx.py). Where one is absent its checks are skipped with a WARN naming what to
// install, never silently.
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {
class Model;
}

namespace keras_test::onnx {

/// Whether Node and the installed onnxruntime-node are here (a WARN, once, when not).
bool runtime_available();
/// Whether /usr/bin/python3 imports onnx (a WARN, once, when not).
bool checker_available();

/// The checker's message for `path` ("" when it passes the full check with shape inference).
std::string check(const std::string& path);
/// What the file says of itself (graph name, producer, inputs and outputs with their dimensions, initializer
/// types, op types) as JSON text from check_onnx.py --describe; "" when the checker is absent.
std::string describe(const std::string& path);
/// ONNX Runtime's outputs of the model at `path` for `inputs` (in the model's input order).
std::vector<keras::Tensor> run(const std::string& path, const std::vector<keras::Tensor>& inputs);

/// max |a - b| over the elements (infinity when the shapes differ).
double max_abs_diff(const keras::Tensor& a, const keras::Tensor& b);

/// Exports `model`, checks the file, runs it in ONNX Runtime on `inputs` and returns the largest difference
/// from kerascpp's predict_outputs over every output (CHECK-fails on checker errors and shape mismatches).
/// Returns 0 without running when the runtime is absent. KERAS_ONNX_TEST_OPSET=13 (say) in the environment
/// exports at that opset instead, to run the whole suite at another one.
double export_and_compare(keras::Model& model, const std::vector<keras::Tensor>& inputs, int opset = 17);

}  // namespace keras_test::onnx
