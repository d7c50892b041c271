#include "onnx_runtime.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include <catch2/catch.hpp>

#include "keras/export/onnx/export_onnx.hpp"
#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace keras_test::onnx {
namespace {

const fs::path kTools = fs::path(keras_test::golden_dir) / ".." / ".." / "tools" / "onnx_runtime";

// Runs `command` with its stderr and stdout in `log`; returns the exit status.
int run_logged(const std::string& command, const std::string& log) {
  const int status = std::system((command + " >'" + log + "' 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Whether the command succeeds; warns once with `missing` when it does not.
bool probe(const std::string& command, const std::string& missing) {
  TempDir dir("onnx_probe");
  const bool ok = run_logged(command, dir / "log") == 0;
  if (!ok) {
    WARN("skipped: " << missing);
    std::cerr << "WARNING: ONNX export tests skipped in part: " << missing << '\n';
  }
  return ok;
}

}  // namespace

bool runtime_available() {
  static const bool ok = probe("node -e \"require('" + (kTools / "node_modules" / "onnxruntime-node").string() + "')\"",
                               "Node.js or onnxruntime-node is absent (run scripts/install_deps.sh, which runs npm ci "
                               "in tools/onnx_runtime)");
  return ok;
}

bool checker_available() {
  static const bool ok = probe("/usr/bin/python3 -c 'import onnx'", "python3-onnx is not installed (Debian package)");
  return ok;
}

std::string check(const std::string& path) {
  if (!checker_available()) return "";
  TempDir dir("onnx_check");
  if (run_logged("/usr/bin/python3 '" + (kTools / "check_onnx.py").string() + "' '" + path + "'", dir / "log") == 0)
    return "";
  return read_text(dir / "log");
}

std::string describe(const std::string& path) {
  if (!checker_available()) return "";
  TempDir dir("onnx_describe");
  const int status = run_logged("/usr/bin/python3 '" + (kTools / "check_onnx.py").string() + "' --describe '" + path + "'",
                                dir / "log");
  REQUIRE(status == 0);
  return read_text(dir / "log");
}

std::vector<keras::Tensor> run(const std::string& path, const std::vector<keras::Tensor>& inputs) {
  TempDir dir("onnx_run");
  std::string command = "node '" + (kTools / "run_onnx.js").string() + "' '" + path + "' '" + (dir / "out_") + "'";
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string file = dir / ("in_" + std::to_string(i) + ".npy");
    keras::utils::save_npy(file, inputs[i]);
    command += " '" + file + "'";
  }
  if (run_logged(command, dir / "log") != 0) throw std::runtime_error("ONNX Runtime failed: " + read_text(dir / "log"));
  std::vector<keras::Tensor> out;
  for (int i = 0; fs::exists(dir / ("out_" + std::to_string(i) + ".npy")); ++i)
    out.push_back(keras::utils::load_npy(dir / ("out_" + std::to_string(i) + ".npy")));
  return out;
}

double max_abs_diff(const keras::Tensor& a, const keras::Tensor& b) {
  if (a.shape() != b.shape()) return std::numeric_limits<double>::infinity();
  const auto x = a.astype(keras::DType::float32).to_vector<float>(), y = b.astype(keras::DType::float32).to_vector<float>();
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = std::abs(double(x[i]) - double(y[i]));
    if (!(d <= worst)) worst = d;  // NaN counts as the worst
  }
  return worst;
}

double export_and_compare(keras::Model& model, const std::vector<keras::Tensor>& inputs, int opset) {
  if (const char* forced = std::getenv("KERAS_ONNX_TEST_OPSET")) opset = std::atoi(forced);
  TempDir dir("onnx_export");
  const std::string path = dir / "model.onnx";
  keras::export_onnx(model, path, {.opset = opset});
  const std::string problems = check(path);
  INFO("onnx.checker: " << problems);
  CHECK(problems.empty());
  if (!runtime_available()) return 0;
  const std::vector<keras::Tensor> ours = model.predict_outputs(keras::Arrays(inputs));
  const std::vector<keras::Tensor> theirs = run(path, inputs);
  REQUIRE(theirs.size() == ours.size());
  double worst = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    INFO("output " << i << ": kerascpp " << keras::shape_str(ours[i].shape()) << ", ONNX Runtime "
                   << keras::shape_str(theirs[i].shape()));
    CHECK(ours[i].shape() == theirs[i].shape());
    worst = std::max(worst, max_abs_diff(ours[i], theirs[i]));
  }
  return worst;
}

}  // namespace keras_test::onnx
