// The products, convolutions and poolings of the benchmark workloads (and the narrow convolution + pooling
// pair, predicting and training), one call at a time: oneDNN's against
// kerascpp's own kernels (the register tiles called directly, whatever their `*_fits` rule would choose;
// poolings: the library's path with own kernels allowed), the two alternating call by call, so that a busy
// machine slows both alike. GFLOP/s per shape, the best of --repetitions calls each, and which of the two the
// library runs for that shape on this CPU ("own" or "onednn"). bench/kernel_shapes.sh runs it on both ISAs.
//   build/bin/kernel_shapes --threads 2 [--repetitions 30]
// Prints one "name: oneDNN-GFLOP/s own-GFLOP/s chosen" line per shape.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <keras/keras.hpp>
#include <keras/kernels/attention.hpp>
#include <keras/kernels/conv_max_pool.hpp>
#include <keras/kernels/conv_weight_gradient.hpp>
#include <keras/kernels/cpu_dispatch.hpp>
#include <keras/kernels/convolution.hpp>
#include <keras/kernels/matmul.hpp>
#include <keras/kernels/packed_weights.hpp>
#include <keras/kernels/pooling.hpp>
#include <keras/ops/fused_attention.hpp>

#include "bench_timing.hpp"

namespace kk = keras::kernels;

namespace {

std::vector<float> random_floats(std::int64_t n, unsigned seed) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<float>((seed = seed * 1103515245u + 12345u) >> 16 & 0x7fff) / 32768.0f - 0.5f;
  return v;
}

struct Conv {
  const char* name;
  std::int64_t n, h, w, c, oc, k, stride;  // square kernels and images; h = 1: a 1-D convolution over w
};

kk::ConvArgs conv_args(const Conv& s) {
  kk::ConvArgs a;
  a.n = s.n, a.c = s.c, a.oc = s.oc;
  const std::int64_t pad = s.k / 2, out_w = (s.w + 2 * pad - s.k) / s.stride + 1;
  if (s.h == 1) {
    a.rank = 1, a.in = {s.w, 1, 1}, a.k = {s.k, 1, 1}, a.out = {out_w, 1, 1}, a.stride = {s.stride, 1, 1};
    a.pad_l = {pad, 0, 0};
    a.pad_r = {std::max<std::int64_t>(0, (out_w - 1) * s.stride + s.k - s.w - pad), 0, 0};
  } else {
    const std::int64_t out_h = (s.h + 2 * pad - s.k) / s.stride + 1;
    a.rank = 2, a.in = {s.h, s.w, 1}, a.k = {s.k, s.k, 1}, a.out = {out_h, out_w, 1}, a.stride = {s.stride, s.stride, 1};
    a.pad_l = {pad, pad, 0};
    a.pad_r = {std::max<std::int64_t>(0, (out_h - 1) * s.stride + s.k - s.h - pad),
               std::max<std::int64_t>(0, (out_w - 1) * s.stride + s.k - s.w - pad), 0};  // our kernels take pads >= 0
  }
  return a;
}

int repetitions = 30;

// fn(ours) runs one call of the shape on oneDNN (false) or on our kernel (true), alternating; `chosen`: whether
// the library runs ours for this shape.
template <class Fn>
void duel(const std::string& name, double flops, bool chosen, Fn&& fn) {
  double theirs = 1e30, ours = 1e30;
  for (int i = 0; i < repetitions; ++i)
    for (const bool own : {false, true}) {
      const double t0 = now_us();
      fn(own);
      double& best = own ? ours : theirs;
      best = std::min(best, now_us() - t0);
    }
  std::printf("%s: %.1f %.1f %s\n", name.c_str(), flops / theirs / 1e3, flops / ours / 1e3, chosen ? "own" : "onednn");
}

}  // namespace

int main(int argc, char** argv) try {
  int threads = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--threads") threads = std::atoi(argv[i + 1]);
    else if (flag == "--repetitions") repetitions = std::atoi(argv[i + 1]);
    else throw std::invalid_argument("unknown flag " + flag + " (use --threads, --repetitions)");
  }
  if (kk::cpu_level() < kk::CpuLevel::avx2) throw std::runtime_error("our kernels need AVX2 (the CPU, or ONEDNN_MAX_CPU_ISA, allows less)");
  keras::utils::set_num_threads(threads);
  std::printf("threads: %d\nisa: %s\n", threads, kk::cpu_level_name(kk::cpu_level()));

  // Inference's matrix products against a layer's weights (m, k, n): Dense layers of the workloads.
  struct Product { const char* name; std::int64_t m, k, n; };
  for (const Product& s : std::vector<Product>{{"dense_cnn_b32_1600x1024", 32, 1600, 1024},
                                               {"dense_cnn_b1_1600x1024", 1, 1600, 1024},
                                               {"dense_mlp_b32_784x512", 32, 784, 512},
                                               {"dense_ffn_b128_256x1024", 128, 256, 1024},
                                               {"dense_ffn_b512_256x1024", 512, 256, 1024},
                                               {"dense_ffn_b1024_256x1024", 1024, 256, 1024},
                                               {"dense_ffn_b2048_256x1024", 2048, 256, 1024},
                                               {"dense_ffn_b4096_256x1024", 4096, 256, 1024},
                                               {"dense_ffn_b4096_1024x256", 4096, 1024, 256},
                                               {"dense_attention_b4096_256x256", 4096, 256, 256},
                                               {"dense_lstm_b32_128x512", 32, 128, 512}}) {
    const auto a = random_floats(s.m * s.k, 1), b = random_floats(s.k * s.n, 2), bias = random_floats(s.n, 3);
    std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
    const kk::MatmulArgs args{.m = s.m, .n = s.n, .k = s.k, .bias = bias.data()};
    duel(std::string("predict_") + s.name, 2.0 * s.m * s.k * s.n, kk::packed_matmul_fits(args), [&](bool own) {
      if (own) kk::packed_matmul(a.data(), b.data(), 1, c.data(), args);
      else kk::matmul(a.data(), b.data(), c.data(), args);
    });
  }

  // Attention's core over the Transformer block's heads (32 sequences x 8 heads, 128 positions, depth 32; one
  // sequence: 8 heads), softmax(Q K^T) V: as MultiHeadAttention ran it before, oneDNN's batched products and
  // softmax with the weights as a tensor, against the one op (ops::fused_attention); predicting (forward) and
  // training (forward and the gradients of q, k and v). GFLOP/s of the products, the backward counted as 4.
  for (const std::int64_t heads : {256, 8}) {
    const std::int64_t T = 128, d = 32;
    const keras::Tensor q = keras::Tensor::from_vector(random_floats(heads * T * d, 1), {heads, T, d});
    const keras::Tensor k = keras::Tensor::from_vector(random_floats(heads * T * d, 2), {heads, T, d});
    const keras::Tensor v = keras::Tensor::from_vector(random_floats(heads * T * d, 3), {heads, T, d});
    const bool chosen = kk::attention_fits({.n = heads, .t = T, .s = T, .d = d, .dv = d});
    if (!chosen) {  // the one op refuses these shapes on this CPU (it returns no tensor): nothing to duel
      std::printf("attention_%lldx%lldx%lld: not served by the fused core on this CPU\n", (long long)heads, (long long)T, (long long)d);
      continue;
    }
    auto core = [&](bool own) {
      return own ? keras::ops::fused_attention(q, k, v)
                 : keras::ops::batch_matmul(keras::ops::softmax(keras::ops::batch_matmul(q, k, false, true), -1), v);
    };
    const double flops = 2.0 * 2 * heads * T * T * d;
    const std::string shape = std::to_string(heads) + "x" + std::to_string(T) + "x" + std::to_string(d);
    duel("predict_attention_" + shape, flops, chosen, [&](bool own) { core(own); });
    duel("train_attention_" + shape, 3 * flops, chosen, [&](bool own) {
      keras::GradientTape tape;
      for (const auto* t : {&q, &k, &v}) tape.watch(*t);
      const keras::Tensor y = core(own);
      tape.gradient(keras::ops::sum(y), std::vector<keras::Tensor>{q, k, v});
    });
  }

  // Convolutions (channels_last, "same" padding) of the seed CNN, ResNet-20 and the Embedding + Conv1D model.
  const std::vector<Conv> convs = {
      {"cnn_conv1_5x5_1to32", 0, 28, 28, 1, 32, 5, 1},     {"cnn_conv2_3x3_32to64", 0, 12, 12, 32, 64, 3, 1},
      {"resnet_stem_3x3_3to16", 0, 32, 32, 3, 16, 3, 1},   {"resnet_s1_3x3_16to16", 0, 32, 32, 16, 16, 3, 1},
      {"resnet_s2_3x3_32to32", 0, 16, 16, 32, 32, 3, 1},   {"resnet_s3_3x3_64to64", 0, 8, 8, 64, 64, 3, 1},
      {"resnet_down_3x3_16to32_s2", 0, 32, 32, 16, 32, 3, 2}, {"resnet_1x1_16to32_s2", 0, 32, 32, 16, 32, 1, 2},
      {"textcnn_conv1d_k5_128to128", 0, 1, 200, 128, 128, 5, 1},
  };
  for (const std::int64_t batch : {1, 32, 128}) {
    for (Conv s : convs) {
      s.n = batch;
      const kk::ConvArgs a = conv_args(s);
      const std::int64_t positions = a.out[0] * a.out[1] * a.out[2];
      const double flops = 2.0 * s.n * positions * s.oc * s.c * s.k * (s.h == 1 ? 1 : s.k);
      const auto x = random_floats(s.n * s.h * s.w * s.c, 4), kernel = random_floats(s.k * s.k * s.c * s.oc, 5);
      const auto bias = random_floats(s.oc, 6), dy = random_floats(s.n * positions * s.oc, 7);
      std::vector<float> y(dy.size()), dkernel(kernel.size()), dbias(bias.size());
      std::uint64_t version = 1;
      const std::string name = s.name + std::string("_b") + std::to_string(batch);
      const bool packs = kk::packed_conv_fits(a);
      if (batch <= 32)  // predict: the kernel packed (ours) or reordered (oneDNN) once
        duel("predict_" + name, flops, packs, [&](bool own) {
          if (own) kk::packed_conv(x.data(), kernel.data(), 1, nullptr, bias.data(), nullptr, y.data(), a, kk::Eltwise::relu);
          else kk::conv_inference(x.data(), kernel.data(), 1, bias.data(), nullptr, y.data(), a, kk::Eltwise::relu);
        });
      if (batch >= 32) {  // training: repacked every step (a new version), then the weight gradient
        duel("train_forward_" + name, flops, packs, [&](bool own) {
          if (own) kk::packed_conv(x.data(), kernel.data(), ++version, nullptr, bias.data(), nullptr, y.data(), a, kk::Eltwise::linear);
          else kk::conv_forward(x.data(), kernel.data(), bias.data(), y.data(), a);
        });
        duel("train_weight_gradient_" + name, flops, kk::conv_weight_gradient_fits(a), [&](bool own) {
          kk::set_own_kernels(own);  // conv_backward_weights runs ours where the rule says so; ours directly:
          if (own) kk::conv_weight_gradient(x.data(), dy.data(), dkernel.data(), dbias.data(), a);
          else kk::conv_backward_weights(x.data(), dy.data(), dkernel.data(), dbias.data(), a);
          kk::set_own_kernels(true);
        });
      }
    }
  }

  // Max pooling 2 x 2 of the seed CNN (rates in G input values per second, not GFLOP/s).
  struct Pool { const char* name; std::int64_t h, c; };
  for (const std::int64_t batch : {1, 32, 128})
    for (const Pool& s : std::vector<Pool>{{"pool1_24x24x32", 24, 32}, {"pool2_10x10x64", 10, 64}}) {
      kk::PoolArgs a;
      a.n = batch, a.c = s.c, a.in = {s.h, s.h, 1}, a.k = {2, 2, 1}, a.out = {s.h / 2, s.h / 2, 1}, a.stride = {2, 2, 1};
      const double values = double(batch) * s.h * s.h * s.c;
      const auto x = random_floats(batch * s.h * s.h * s.c, 8);
      std::vector<float> y(x.size() / 4), dx(x.size());
      kk::set_own_kernels(false);  // the two paths keep different workspaces: room for the larger
      const std::size_t theirs = kk::pool_workspace_bytes(kk::Pooling::max, a);
      kk::set_own_kernels(true);
      std::vector<char> workspace(std::max(theirs, kk::pool_workspace_bytes(kk::Pooling::max, a)));
      const std::string name = std::string(s.name) + "_b" + std::to_string(batch) + "_gvalues";
      // kerascpp's own loops serve tiling max pooling where own_kernels() allows it (below AVX-512).
      const bool own_pool = kk::cpu_level() != kk::CpuLevel::avx512;
      if (batch <= 32)
        duel("predict_max_" + name, values, own_pool, [&](bool own) {
          kk::set_own_kernels(own);
          kk::pool_forward(kk::Pooling::max, x.data(), y.data(), nullptr, a);
        });
      if (batch >= 32)
        duel("train_max_forward_backward_" + name, values, own_pool, [&](bool own) {
          kk::set_own_kernels(own);
          kk::pool_forward(kk::Pooling::max, x.data(), y.data(), workspace.data(), a);
          kk::pool_backward(kk::Pooling::max, y.data(), dx.data(), workspace.data(), a);
        });
      kk::set_own_kernels(true);
    }

  // predict's narrow convolution + relu + 2 x 2 max pooling ("valid", as the seed CNN's first layer):
  // oneDNN's convolution and the library's pooling against kernels::conv_max_pool (GFLOP/s of the convolution).
  // Training (batch 32 and 128): forward and weight gradient, GFLOP/s of the two convolutions. The pair: the
  // convolution, pooling forward and backward, the weight gradient; the one pass: conv_max_pool keeping the
  // windows' winners, then the weight gradient unpooling band by band where our tiles serve it (else
  // max_pool_2x2_unpool and the same weight gradient).
  for (const std::int64_t batch : {1, 32, 128})
    for (Conv s : std::vector<Conv>{{"cnn_conv1_pool_5x5_1to32", 0, 28, 28, 1, 32, 5, 1},
                                    {"conv_pool_3x3_3to32", 0, 32, 32, 3, 32, 3, 1}}) {
      s.n = batch;
      kk::ConvArgs a = conv_args(s);
      a.pad_l = a.pad_r = {0, 0, 0};
      a.out = {s.h - s.k + 1, s.w - s.k + 1, 1};
      kk::PoolArgs p;
      p.n = batch, p.c = s.oc, p.in = {a.out[0], a.out[1], 1}, p.k = {2, 2, 1}, p.out = {a.out[0] / 2, a.out[1] / 2, 1};
      p.stride = {2, 2, 1};
      const double flops = 2.0 * batch * a.out[0] * a.out[1] * s.oc * s.c * s.k * s.k;
      const auto x = random_floats(batch * s.h * s.w * s.c, 9), kernel = random_floats(s.k * s.k * s.c * s.oc, 10);
      const auto bias = random_floats(s.oc, 11);
      std::vector<float> conv(static_cast<std::size_t>(batch * a.out[0] * a.out[1] * s.oc)), y(conv.size() / 4);
      if (batch <= 32)
        duel(std::string("predict_") + s.name + "_b" + std::to_string(batch), flops, kk::conv_max_pool_fits(a), [&](bool own) {
          if (own) return kk::conv_max_pool(x.data(), kernel.data(), bias.data(), y.data(), nullptr, a, true);
          kk::conv_inference(x.data(), kernel.data(), 1, bias.data(), nullptr, conv.data(), a, kk::Eltwise::relu);
          kk::pool_forward(kk::Pooling::max, conv.data(), y.data(), nullptr, p);
        });
      if (batch == 1) continue;
      std::vector<float> dz(conv.size()), dkernel(kernel.size()), dbias(bias.size());
      std::vector<char> workspace(kk::pool_workspace_bytes(kk::Pooling::max, p));
      std::vector<std::uint8_t> winners(y.size());
      duel(std::string("train_") + s.name + "_b" + std::to_string(batch), 2 * flops, kk::conv_max_pool_fits(a),
           [&](bool own) {
             if (own) {  // as keras/ops/conv_max_pool.cpp's backward pass does for a first layer
               kk::conv_max_pool(x.data(), kernel.data(), bias.data(), y.data(), winners.data(), a, false);
               if (kk::unpooled_weight_gradient_fits(a))
                 return kk::unpooled_weight_gradient(y.data(), y.data(), winners.data(), x.data(), dkernel.data(),
                                                     dbias.data(), a, false);
               kk::max_pool_2x2_unpool(y.data(), y.data(), winners.data(), dz.data(), a, false);
             } else {
               kk::conv_forward(x.data(), kernel.data(), bias.data(), conv.data(), a, kk::Eltwise::linear);
               kk::pool_forward(kk::Pooling::max, conv.data(), y.data(), workspace.data(), p);
               kk::pool_backward(kk::Pooling::max, y.data(), dz.data(), workspace.data(), p);
             }
             kk::conv_backward_weights(x.data(), dz.data(), dkernel.data(), dbias.data(), a);
           });
    }
} catch (const std::exception& e) {
  std::fprintf(stderr, "kernel_shapes: %s\n", e.what());
  return 1;
}
