#pragma once
// Command-line flags shared by the benchmark programs: --model, --batch-size, --epochs, --threads,
// --samples (train on the first N samples only, for quick runs; 0 = all), --onnx (predict_latency: also
// write the model as this ONNX file, for ONNX Runtime's run of the same graph), --run-eagerly (1: compile
// with run_eagerly = true, the op-by-op train step; 0, the default: the compiled train step).
#include <cstdlib>
#include <stdexcept>
#include <string>

struct BenchArgs {
  std::string model = "mlp";
  long batch_size = 128;
  int epochs = 1;
  int threads = 2;
  long samples = 0;
  std::string onnx;
  bool run_eagerly = false;
};

inline BenchArgs parse_bench_args(int argc, char** argv) {
  BenchArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("flag " + flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--model") a.model = value;
    else if (flag == "--batch-size") a.batch_size = std::stol(value);
    else if (flag == "--epochs") a.epochs = std::stoi(value);
    else if (flag == "--threads") a.threads = std::stoi(value);
    else if (flag == "--samples") a.samples = std::stol(value);
    else if (flag == "--onnx") a.onnx = value;
    else if (flag == "--run-eagerly") a.run_eagerly = std::stoi(value) != 0;
    else throw std::invalid_argument("unknown flag " + flag + " (use --model, --batch-size, --epochs, --threads, --samples, --onnx, --run-eagerly)");
  }
  return a;
}
