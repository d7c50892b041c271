#pragma once
// The libtorch twins of bench_models.hpp's workloads: the same layers and shapes in PyTorch's layouts
// (channels-first images, time-first attention), and random training data of that shape.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <torch/torch.h>

namespace bench {

struct TorchWorkload {
  std::shared_ptr<torch::nn::Module> module;
  std::function<torch::Tensor(const torch::Tensor&)> forward;
  std::vector<int64_t> sample_shape;  // one sample, PyTorch's layout
  int64_t vocabulary = 0;             // > 0: samples are token ids in [1, vocabulary)
  int64_t samples = 0;
};

struct BasicBlock : torch::nn::Module {
  BasicBlock(int64_t in, int64_t out, int64_t stride)
      : conv1(register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3).stride(stride).padding(1).bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(out).eps(1e-3).momentum(0.01)))),
        conv2(register_module("conv2", torch::nn::Conv2d(torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(false)))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(out).eps(1e-3).momentum(0.01)))) {
    if (stride != 1 || in != out)
      shortcut = register_module("shortcut", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 1).stride(stride)));
  }
  torch::Tensor forward(const torch::Tensor& x) {
    auto y = bn2(conv2(torch::relu(bn1(conv1(x)))));
    return torch::relu(y + (shortcut ? shortcut(x) : x));
  }
  torch::nn::Conv2d conv1, conv2, shortcut{nullptr};
  torch::nn::BatchNorm2d bn1, bn2;
};

struct ResNet20 : torch::nn::Module {
  ResNet20()
      : stem(register_module("stem", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)))),
        bn(register_module("bn", torch::nn::BatchNorm2d(torch::nn::BatchNorm2dOptions(16).eps(1e-3).momentum(0.01)))),
        head(register_module("head", torch::nn::Linear(64, 10))) {
    int64_t in = 16;
    for (int64_t stage = 0; stage < 3; ++stage)
      for (int b = 0; b < 3; ++b) {
        const int64_t out = 16 << stage;
        blocks.push_back(register_module("block" + std::to_string(stage * 3 + b),
                                         std::make_shared<BasicBlock>(in, out, stage > 0 && b == 0 ? 2 : 1)));
        in = out;
      }
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(bn(stem(x)));
    for (auto& block : blocks) x = block->forward(x);
    return head(x.mean({2, 3}));
  }
  torch::nn::Conv2d stem;
  torch::nn::BatchNorm2d bn;
  torch::nn::Linear head;
  std::vector<std::shared_ptr<BasicBlock>> blocks;
};

struct TransformerBlock : torch::nn::Module {
  TransformerBlock()
      : attention(register_module("attention", torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(256, 8)))),
        norm1(register_module("norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({256})))),
        norm2(register_module("norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({256})))),
        ff1(register_module("ff1", torch::nn::Linear(256, 1024))),
        ff2(register_module("ff2", torch::nn::Linear(1024, 256))),
        head(register_module("head", torch::nn::Linear(256, 10))) {}
  torch::Tensor forward(const torch::Tensor& x) {  // x: [time, batch, 256]
    auto attended = std::get<0>(attention->forward(x, x, x, torch::Tensor(), /*need_weights=*/false));
    auto h = norm1(x + attended);
    h = norm2(h + ff2(torch::gelu(ff1(h))));
    return head(h.mean(0));
  }
  torch::nn::MultiheadAttention attention;
  torch::nn::LayerNorm norm1, norm2;
  torch::nn::Linear ff1, ff2, head;
};

struct TextCnn : torch::nn::Module {
  TextCnn()
      : embedding(register_module("embedding", torch::nn::Embedding(20000, 128))),
        conv(register_module("conv", torch::nn::Conv1d(128, 128, 5))),
        head(register_module("head", torch::nn::Linear(128, 10))) {}
  torch::Tensor forward(const torch::Tensor& ids) {
    auto h = torch::relu(conv(embedding(ids).transpose(1, 2)));
    return head(std::get<0>(h.max(2)));
  }
  torch::nn::Embedding embedding;
  torch::nn::Conv1d conv;
  torch::nn::Linear head;
};

struct LstmClassifier : torch::nn::Module {
  LstmClassifier()
      : embedding(register_module("embedding", torch::nn::Embedding(10000, 128))),
        lstm(register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(128, 128).batch_first(true)))),
        head(register_module("head", torch::nn::Linear(128, 10))) {}
  torch::Tensor forward(const torch::Tensor& ids) {
    return head(std::get<0>(std::get<1>(lstm(embedding(ids))))[0]);
  }
  torch::nn::Embedding embedding;
  torch::nn::LSTM lstm;
  torch::nn::Linear head;
};

template <class M>
TorchWorkload wrap(std::shared_ptr<M> m, std::vector<int64_t> shape, int64_t vocabulary, int64_t samples,
                   bool time_first = false) {
  TorchWorkload w{m, nullptr, std::move(shape), vocabulary, samples};
  w.forward = [m, time_first](const torch::Tensor& x) { return m->forward(time_first ? x.transpose(0, 1) : x); };
  return w;
}

inline TorchWorkload make_torch_workload(const std::string& name) {
  namespace nn = torch::nn;
  if (name == "mlp")
    return wrap(std::make_shared<nn::SequentialImpl>(nn::Flatten(), nn::Linear(784, 512), nn::ReLU(),
                                                     nn::Linear(512, 256), nn::ReLU(), nn::Linear(256, 10)),
                {28, 28}, 0, 60000);
  if (name == "cnn")
    return wrap(std::make_shared<nn::SequentialImpl>(nn::Conv2d(1, 32, 5), nn::ReLU(), nn::MaxPool2d(2),
                                                     nn::Conv2d(32, 64, 3), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(),
                                                     nn::Linear(64 * 5 * 5, 1024), nn::ReLU(), nn::Dropout(0.5),
                                                     nn::Linear(1024, 10)),
                {1, 28, 28}, 0, 60000);
  if (name == "resnet20") return wrap(std::make_shared<ResNet20>(), {3, 32, 32}, 0, 2560);
  if (name == "transformer") return wrap(std::make_shared<TransformerBlock>(), {128, 256}, 0, 640, /*time_first=*/true);
  if (name == "textcnn") return wrap(std::make_shared<TextCnn>(), {200}, 20000, 4096);
  if (name == "lstm") return wrap(std::make_shared<LstmClassifier>(), {100}, 10000, 2048);
  throw std::invalid_argument("unknown --model " + name + " (available: mlp, cnn, resnet20, transformer, textcnn, lstm)");
}

/// `n` random samples of the workload's input (token ids as int64, what nn::Embedding takes).
inline torch::Tensor random_torch_inputs(const TorchWorkload& w, int64_t n) {
  std::vector<int64_t> shape{n};
  shape.insert(shape.end(), w.sample_shape.begin(), w.sample_shape.end());
  if (w.vocabulary > 0) return torch::randint(1, w.vocabulary, shape, torch::kLong);
  return torch::rand(shape);
}

}  // namespace bench
