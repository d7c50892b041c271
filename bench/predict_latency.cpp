// Inference with one workload of bench_models.hpp (workload 4 is the seed CNN, --model cnn): predict()
// throughput over a set of samples (the seed CNN: the 10,000 Fashion-MNIST test images; the others:
// random samples), and the latency of one sample (median and p99 over 1,000 calls). With --onnx FILE it
// also writes the model as ONNX, which bench/predict_latency_ort.js runs in ONNX Runtime the same way.
//   build/bin/predict_latency --model cnn|resnet20|transformer|lstm|... --batch-size 32 --threads 2 [--onnx F]
// Prints "predict_samples_per_sec", "latency_median_us" and "latency_p99_us".
#include <algorithm>
#include <cstdio>

#include <keras/keras.hpp>

#include "bench_args.hpp"
#include "bench_models.hpp"
#include "bench_timing.hpp"

namespace k = keras;

int main(int argc, char** argv) try {
  BenchArgs args = parse_bench_args(argc, argv);
  k::utils::set_num_threads(args.threads);
  k::utils::set_random_seed(1);
  bench::Workload w = bench::make_workload(args.model);
  k::Tensor x;
  if (args.model == "mlp" || args.model == "cnn") {
    auto [train, test] = k::datasets::fashion_mnist::load_data();
    x = (test.x / 255.f).reshape(bench::batched(-1, w.sample_shape));
  } else {
    x = bench::random_inputs(w, args.samples > 0 ? args.samples : 1024);
  }
  if (!args.onnx.empty()) k::export_onnx(w.model, args.onnx);
  w.model.predict(x.slice(0, std::min<std::int64_t>(x.dim(0), 2 * args.batch_size)), {.batch_size = args.batch_size});  // warm-up
  const double start = now_us();
  const k::Tensor out = w.model.predict(x, {.batch_size = args.batch_size});
  const double throughput = double(x.dim(0)) / ((now_us() - start) / 1e6);

  const k::Tensor one = x.slice(0, 1);
  for (int i = 0; i < 50; ++i) w.model.predict_on_batch(one);
  std::vector<double> latencies;
  for (int i = 0; i < 1000; ++i) {
    const double t0 = now_us();
    w.model.predict_on_batch(one);
    latencies.push_back(now_us() - t0);
  }
  std::printf("model: %s\nthreads: %d\nbatch_size: %ld\noutput_checksum: %.4f\npredict_samples_per_sec: %.0f\n"
              "latency_median_us: %.1f\nlatency_p99_us: %.1f\n",
              args.model.c_str(), args.threads, args.batch_size, double(k::ops::sum(out).item()), throughput,
              percentile(latencies, 50), percentile(latencies, 99));
} catch (const std::exception& e) {
  std::fprintf(stderr, "predict_latency: %s\n", e.what());
  return 1;
}
