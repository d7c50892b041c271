// kerascpp: the command-line tool (the C++ counterpart of saved_model_cli and tensorflowjs_converter).
//   kerascpp summary MODEL
//   kerascpp predict MODEL IN.npy [IN2.npy ...] -o OUT.npy [--batch-size N]
//                    (one IN.npy per model input, in order; several outputs: OUT_0.npy, OUT_1.npy, ...)
//   kerascpp evaluate MODEL --dataset fashion_mnist|mnist [--data-dir DIR] [--batch-size N]
//   kerascpp convert MODEL OUT        (OUT: x.keras Keras 3 archive, x.h5 Keras HDF5, x.json Keras JSON +
//                                      x.weights.h5, x.onnx ONNX (opset 17), else a TF.js folder)
// MODEL is a Keras .keras archive or .h5 file, a Keras JSON config with its weights beside it (x.weights.h5), a TF.js
// folder / model.json, or an ONNX file of the patterns kerascpp exports (keras::models::load_onnx). Errors go to
// stderr with exit status 1 (2 for usage errors).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <keras/keras.hpp>
#include <keras/export/onnx/export_onnx.hpp>
#include <keras/import/onnx/load_onnx.hpp>
#include <keras/saving/tfjs.hpp>

#include "keras/json.hpp"

namespace k = keras;
namespace fs = std::filesystem;

namespace {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr const char* kUsage =
    "usage: kerascpp summary MODEL\n"
    "       kerascpp predict MODEL IN.npy [IN2.npy ...] -o OUT.npy [--batch-size N]\n"
    "                (one IN.npy per model input; several outputs are written to OUT_0.npy, OUT_1.npy, ...)\n"
    "       kerascpp evaluate MODEL --dataset fashion_mnist|mnist [--data-dir DIR] [--batch-size N]\n"
    "       kerascpp convert MODEL OUT   (OUT: *.keras, *.h5, *.json, *.onnx, or a folder for TF.js)\n"
    "MODEL: a .keras archive, a .h5 file, a Keras JSON with x.weights.h5 beside it, a TF.js model.json/folder, or\n"
    "       an .onnx file (the op patterns kerascpp exports)\n";

// x.json → x.weights.h5
std::string weights_beside(const std::string& json_path) {
  return (fs::path(json_path).parent_path() / (fs::path(json_path).stem().string() + ".weights.h5")).string();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw k::IOError("Cannot open " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::shared_ptr<k::Model> load_any(const std::string& path) {
  if (!fs::exists(path)) throw k::IOError("No such file or folder: " + path);
  if (fs::is_directory(path)) return k::models::load_tfjs(path);
  if (path.ends_with(".onnx")) return k::models::load_onnx(path);
  if (path.ends_with(".json")) {
    const std::string text = read_text(path);
    if (text.find("\"weightsManifest\"") != std::string::npos) return k::models::load_tfjs(path);
    auto model = k::models::model_from_json(text);
    const std::string weights = weights_beside(path);
    if (!fs::exists(weights))
      throw k::IOError("The Keras JSON " + path + " needs its weights in " + weights + " (not found)");
    if (!model->built() && model->batch_input_shape()) model->ensure_built(*model->batch_input_shape());
    model->load_weights(weights);
    return model;
  }
  return k::models::load_model(path);
}

// Options after the positional arguments: "--name value" pairs and "-o value".
std::string take_option(std::vector<std::string>& args, const std::string& name, const std::string& fallback = "") {
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i] == name) {
      if (i + 1 >= args.size()) throw UsageError(name + " needs a value");
      std::string v = args[i + 1];
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
      return v;
    }
  return fallback;
}

std::int64_t to_batch_size(const std::string& s) {
  try {
    const long long v = std::stoll(s);
    if (v > 0) return v;
  } catch (const std::exception&) {
  }
  throw UsageError("--batch-size must be a positive integer, got '" + s + "'");
}

int summary(std::vector<std::string> args) {
  if (args.size() != 1) throw UsageError("summary takes one MODEL");
  load_any(args[0])->summary(std::cout);
  return 0;
}

int predict(std::vector<std::string> args) {
  const std::string out = take_option(args, "-o");
  const auto batch_size = to_batch_size(take_option(args, "--batch-size", "32"));
  if (out.empty()) throw UsageError("predict needs -o OUT.npy");
  if (args.size() < 2) throw UsageError("predict needs MODEL and at least one IN.npy");
  auto model = load_any(args[0]);
  std::vector<k::Tensor> inputs;
  for (std::size_t i = 1; i < args.size(); ++i) {  // strings stay strings (a model with TextVectorization reads them)
    const k::Tensor t = k::utils::load_npy(args[i]);
    inputs.push_back(t.dtype() == k::DType::string ? t : t.astype(k::DType::float32));
  }
  const std::vector<k::Tensor> outputs = model->predict_outputs(inputs, {.batch_size = batch_size});
  if (outputs.size() == 1) {
    k::utils::save_npy(out, outputs[0]);
    return 0;
  }
  // Several outputs: OUT_0.npy, OUT_1.npy, ... in the order of the model's outputs.
  const std::string stem = out.size() > 4 && out.substr(out.size() - 4) == ".npy" ? out.substr(0, out.size() - 4) : out;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string path = stem + "_" + std::to_string(i) + ".npy";
    k::utils::save_npy(path, outputs[i]);
    std::cout << path << ": " << model->output_names()[i] << " " << k::shape_str(outputs[i].shape()) << "\n";
  }
  return 0;
}

int evaluate(std::vector<std::string> args) {
  const std::string dataset = take_option(args, "--dataset");
  const auto batch_size = to_batch_size(take_option(args, "--batch-size", "32"));
  std::string dir = take_option(args, "--data-dir");
  if (args.size() != 1) throw UsageError("evaluate takes one MODEL");
  k::datasets::TrainTest data;
  if (dataset == "fashion_mnist")
    data = dir.empty() ? k::datasets::fashion_mnist::load_data() : k::datasets::fashion_mnist::load_data(dir);
  else if (dataset == "mnist")
    data = dir.empty() ? k::datasets::mnist::load_data() : k::datasets::mnist::load_data(dir);
  else
    throw UsageError("--dataset must be fashion_mnist or mnist, got '" + dataset + "'");
  auto model = load_any(args[0]);
  k::Shape shape = model->batch_input_shape().value_or(k::Shape{-1, 28, 28});
  shape[0] = data.test.x.dim(0);
  k::Tensor x = (data.test.x / 255.f);
  if (k::shape_size(shape) != x.size())
    throw k::ValueError("The model's input shape " + k::shape_str(*model->batch_input_shape()) +
                        " does not hold 28x28 images");
  x = x.reshape(shape);
  const k::Tensor y = data.test.y;
  if (model->compiled()) {
    // Integer labels for sparse losses; one-hot rows for the others when the model outputs class scores.
    const std::string loss = model->training_config()["loss"].dump();
    const std::int64_t classes = model->compute_output_shape(*model->batch_input_shape()).back();
    const bool one_hot = classes > 1 && loss.find("sparse") == std::string::npos && loss.find("Sparse") == std::string::npos;
    const k::Tensor targets = one_hot ? k::ops::one_hot(y, classes) : y;
    const auto logs = model->evaluate(x, targets, {.batch_size = batch_size, .verbose = 0});
    std::cout << fmt::format("loss: {:.4f}\n", logs.at("loss"));
  }
  const k::Tensor pred = model->predict(x, {.batch_size = batch_size});
  if (pred.ndim() != 2 || pred.dim(0) != y.dim(0))
    throw k::ValueError("The model's output has shape " + k::shape_str(pred.shape()) +
                        "; evaluate needs one row of class scores per image");
  std::int64_t correct = 0;
  const float* p = pred.data<float>();
  const std::int64_t classes = pred.dim(1);
  for (std::int64_t i = 0; i < y.dim(0); ++i) {
    const float* row = p + i * classes;
    const std::int64_t guess = classes == 1 ? (row[0] > 0.5f) : std::max_element(row, row + classes) - row;
    correct += guess == y.data<std::int32_t>()[i];
  }
  std::cout << fmt::format("accuracy: {:.4f}\n", double(correct) / double(y.dim(0)));
  return 0;
}

int convert(std::vector<std::string> args) {
  if (args.size() != 2) throw UsageError("convert takes MODEL and OUT");
  auto model = load_any(args[0]);
  const std::string& out = args[1];
  if (out.ends_with(".keras") || out.ends_with(".h5") || out.ends_with(".hdf5")) {
    model->save(out);
  } else if (out.ends_with(".onnx")) {
    k::export_onnx(*model, out);
  } else if (out.ends_with(".json")) {
    const std::string text = model->to_json(), tmp = out + ".tmp";
    {
      std::ofstream f(tmp, std::ios::trunc);
      f << text;
      f.close();
      if (!f) throw k::IOError("Cannot write " + out);
    }
    model->save_weights(weights_beside(out));
    fs::rename(tmp, out);
  } else {
    k::export_tfjs(*model, out);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
      std::cout << kUsage;
      return args.empty() ? 2 : 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "summary") return summary(args);
    if (command == "predict") return predict(args);
    if (command == "evaluate") return evaluate(args);
    if (command == "convert") return convert(args);
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError& e) {
    std::cerr << "kerascpp: " << e.what() << '\n' << kUsage;
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "kerascpp: error: " << e.what() << '\n';
    return 1;
  }
}
