// Inference-time fusion (keras/epilogue.hpp, keras/fused_chains.hpp): predict runs Conv + BatchNormalization +
// Add + activation as one convolution (and an LSTM after an Embedding on kept token projections), and must
// give what the layers give one by one (a recording tape turns fusion off, so the same model under a
// GradientTape is the reference).
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/fused_chains.hpp"
#include "keras/kernels/cpu_dispatch.hpp"
#include "keras/keras.hpp"
#include "keras/kernels/lstm_inference.hpp"
#include "keras/ops/conv_max_pool.hpp"
#include "keras/ops/recurrent.hpp"

using namespace keras;
using keras::testing::max_relative_error;

namespace {

// The graph's nodes in execution order, found from its outputs (as FunctionalGraph orders them).
std::vector<std::shared_ptr<Node>> nodes_of(const std::vector<KerasTensor>& outputs) {
  std::vector<std::shared_ptr<Node>> nodes;
  std::set<const Node*> seen;
  std::function<void(const std::shared_ptr<Node>&)> visit = [&](const std::shared_ptr<Node>& n) {
    if (!seen.insert(n.get()).second) return;
    for (const auto& in : n->inputs) visit(in.node());
    nodes.push_back(n);
  };
  for (const auto& t : outputs) visit(t.node());
  return nodes;
}

// Moving statistics, gamma and beta away from their initial values, so that folding them matters.
void randomize_batch_norms(Model& model) {
  std::uint64_t seed = 11;
  for (const auto& layer : model.layers())
    if (layer->class_name() == "BatchNormalization")
      for (const auto& w : layer->weights()) {
        const bool positive = w->name().find("variance") != std::string::npos || w->name().find("gamma") != std::string::npos;
        w->assign(positive ? random::uniform(w->shape(), 0.5, 2.0, DType::float32, ++seed)
                           : random::normal(w->shape(), 0.0, 0.5, DType::float32, ++seed));
      }
}

// The model's output one layer at a time: under a recording tape nothing is fused.
Tensor layer_by_layer(Model& model, const Tensor& x) {
  GradientTape tape;
  return model(x, false);
}

KerasTensor residual_block(const KerasTensor& x, std::int64_t filters, std::int64_t stride) {
  auto y = layers::Conv2D(filters, {3, 3}, {.strides = {stride, stride}, .padding = "same", .use_bias = false})(x);
  y = layers::ReLU()(layers::BatchNormalization()(y));
  y = layers::BatchNormalization()(layers::Conv2D(filters, {3, 3}, {.padding = "same"})(y));
  KerasTensor shortcut = x;
  if (stride != 1 || x.shape().back() != filters) shortcut = layers::Conv2D(filters, {1, 1}, {.strides = {stride, stride}})(x);
  return layers::Activation("relu")(layers::add({shortcut, y}));
}

}  // namespace

TEST_CASE("predict fuses Conv2D + BatchNormalization + Add + relu chains and matches the layers one by one") {
  utils::set_random_seed(3);
  KerasTensor in = Input({10, 10, 3});
  KerasTensor x = layers::Activation("relu")(layers::BatchNormalization()(layers::Conv2D(8, {3, 3}, {.padding = "same"})(in)));
  x = residual_block(x, 8, 1);
  x = residual_block(x, 16, 2);
  KerasTensor out = layers::Dense(4)(layers::GlobalAveragePooling2D()(x));
  Model model(in, out);
  randomize_batch_norms(model);
  const Tensor images = random::normal({5, 10, 10, 3}, 0.0, 1.0, DType::float32, 7);

  const Tensor fused = model.predict(images);
  const Tensor reference = layer_by_layer(model, images);
  CHECK(max_relative_error(fused, reference) < 1e-5);

  // The chains: the stem (conv, BN, relu), then per block conv-BN-ReLU and conv-BN-Add-relu. In the second
  // block the 1x1 shortcut convolution comes first in execution order and takes the Add and the relu (the
  // residual is then the second convolution's BatchNormalization, a chain of its own).
  const FusedChains chains = find_fused_chains(nodes_of({out}), {out});
  CHECK(chains.by_tail.size() == 6);
  int with_residual = 0;
  for (const auto& [tail, chain] : chains.by_tail) {
    CHECK(chain.head->layer->class_name() == "Conv2D");
    CHECK(tail == chain.steps.back());
    if (chain.residual.defined()) {
      ++with_residual;
      CHECK(tail->layer->class_name() == "Activation");
      CHECK(std::any_of(chain.steps.begin(), chain.steps.end(), [](const Node* n) { return n->layer->class_name() == "Add"; }));
    }
  }
  CHECK(with_residual == 2);

  // New weights are folded at the next call (nothing is cached from the last one).
  for (const auto& w : model.trainable_weights()) w->assign(w->value() * 0.5f);
  CHECK(max_relative_error(model.predict(images), layer_by_layer(model, images)) < 1e-5);
}

TEST_CASE("fused chains stop at tensors read elsewhere, other axes, activations of their own and masks") {
  utils::set_random_seed(4);
  KerasTensor in = Input({12, 4});
  KerasTensor conv = layers::Conv1D(6, 3, {.padding = "same"})(in);
  KerasTensor normalized = layers::BatchNormalization()(conv);
  KerasTensor relu = layers::Activation("relu")(normalized);                         // normalized is also an output
  KerasTensor activated = layers::Conv1D(6, 3, {.activation = "relu"})(relu);       // its own activation
  KerasTensor other_axis = layers::BatchNormalization({.axis = 1})(activated);     // not the channels
  KerasTensor shared = layers::Conv1D(6, 1)(other_axis);
  KerasTensor doubled = layers::add({shared, shared});                              // the same tensor twice
  Model model(in, {normalized, layers::Activation("tanh")(doubled)});
  randomize_batch_norms(model);
  // Only the first convolution and its BatchNormalization fuse: the relu reads a tensor that is also an output.
  const FusedChains chains = find_fused_chains(nodes_of(model.outputs()), model.outputs());
  REQUIRE(chains.by_tail.size() == 1);
  const FusedChain& chain = chains.by_tail.begin()->second;
  CHECK(chain.head == conv.node().get());
  REQUIRE(chain.steps.size() == 1);
  CHECK(chain.steps[0] == normalized.node().get());

  const Tensor x = random::normal({3, 12, 4}, 0.0, 1.0, DType::float32, 9);
  const auto fused = model.predict_outputs({x});
  GradientTape tape;
  const auto reference = model.call_all({x}, {.training = false});
  REQUIRE(fused.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) CHECK(max_relative_error(fused[i], reference[i]) < 1e-5);

  // A Conv1D chain with a sigmoid fuses and matches.
  KerasTensor in2 = Input({16, 3});
  KerasTensor y = layers::Activation("sigmoid")(layers::BatchNormalization()(layers::Conv1D(5, 3)(in2)));
  Model small(in2, layers::Flatten()(y));
  randomize_batch_norms(small);
  CHECK(find_fused_chains(nodes_of(small.outputs()), small.outputs()).by_tail.size() == 1);
  const Tensor z = random::normal({2, 16, 3}, 0.0, 1.0, DType::float32, 10);
  CHECK(max_relative_error(small.predict(z), layer_by_layer(small, z)) < 1e-5);
}

TEST_CASE("predict runs a narrow Conv2D and the 2 x 2 max pooling after it in one pass and matches the layers") {
  // The kernel itself (keras/kernels/conv_max_pool.hpp) against conv then max_pool, where it serves this CPU:
  // odd sizes (the pooling floors), "same" padding, no bias, channel counts past a 32-channel pair.
  struct Case {
    Shape x;
    std::int64_t filters, k;
    std::string padding;
    bool bias, relu;
  };
  const std::vector<Case> cases{{{3, 28, 28, 1}, 32, 5, "valid", true, true}, {{2, 13, 11, 3}, 48, 3, "same", true, false},
                                {{2, 9, 10, 3}, 16, 5, "same", false, true},  {{1, 4, 5, 2}, 64, 2, "valid", true, true},
                                {{2, 7, 7, 1}, 8, 3, "valid", true, true}};
  std::uint64_t seed = 20;
  for (const Case& c : cases) {
    INFO(shape_str(c.x) << " filters " << c.filters << " kernel " << c.k << " " << c.padding);
    const Tensor x = random::normal(c.x, 0.0, 1.0, DType::float32, ++seed);
    const Tensor kernel = random::normal({c.k, c.k, c.x.back(), c.filters}, 0.0, 0.3, DType::float32, ++seed);
    const Tensor bias = c.bias ? random::normal({c.filters}, 0.0, 0.3, DType::float32, ++seed) : Tensor();
    const auto act = c.relu ? kernels::Eltwise::relu : kernels::Eltwise::linear;
    const Tensor reference = ops::max_pool(ops::conv(x, kernel, bias, {1, 1}, c.padding, {1, 1}, 1, act), {2, 2});
    const Tensor fused = ops::conv_max_pool(x, kernel, bias, {1, 1}, c.padding, {1, 1}, 1, c.relu);
    const bool served = !kernels::own_kernels()                    ? false
                        : kernels::cpu_level() == kernels::CpuLevel::avx512 ? c.filters % 16 == 0
                        : kernels::cpu_level() == kernels::CpuLevel::avx2 ? c.filters % 8 == 0 : false;
    CHECK(fused.defined() == served);
    if (!fused.defined()) continue;
    REQUIRE(fused.shape() == reference.shape());
    CHECK(max_relative_error(fused, reference) < 1e-5);
  }
  // Not served: a stride, a dilation, a wide window (3 x 3 over 16 channels).
  const Tensor x = random::normal({1, 12, 12, 16}, 0.0, 1.0, DType::float32, 40);
  const Tensor wide = random::normal({3, 3, 16, 32}, 0.0, 0.3, DType::float32, 41);
  CHECK_FALSE(ops::conv_max_pool(x, wide, Tensor(), {1, 1}, "valid", {1, 1}, 1, true).defined());
  const Tensor one = random::normal({1, 12, 12, 1}, 0.0, 1.0, DType::float32, 42);
  const Tensor narrow = random::normal({3, 3, 1, 32}, 0.0, 0.3, DType::float32, 43);
  CHECK(ops::conv_max_pool(one, narrow, Tensor(), {1, 1}, "valid", {1, 1}, 1, true).defined() ==
        (kernels::own_kernels() && kernels::cpu_level() != kernels::CpuLevel::baseline));
  CHECK_FALSE(ops::conv_max_pool(one, narrow, Tensor(), {2, 2}, "valid", {1, 1}, 1, true).defined());
  CHECK_FALSE(ops::conv_max_pool(one, narrow, Tensor(), {1, 1}, "valid", {2, 2}, 1, true).defined());

  // In a model: the seed CNN's first layers pair up, and predict matches the layers one by one.
  utils::set_random_seed(5);
  KerasTensor in = Input({28, 28, 1});
  KerasTensor conv = layers::Conv2D(32, {5, 5}, {.activation = "relu"})(in);
  KerasTensor pooled = layers::MaxPooling2D({2, 2})(conv);
  KerasTensor conv2 = layers::Conv2D(16, {3, 3})(pooled);
  KerasTensor read_twice = layers::add({layers::MaxPooling2D({2, 2})(conv2), layers::MaxPooling2D({2, 2})(conv2)});
  KerasTensor other_pool = layers::MaxPooling2D({3, 3}, {.strides = {1, 1}})(layers::Conv2D(8, {3, 3})(read_twice));
  Model model(in, layers::Dense(3)(layers::Flatten()(other_pool)));
  const FusedChains chains = find_fused_chains(nodes_of(model.outputs()), model.outputs());
  REQUIRE(chains.conv_before_pool.size() == 1);  // conv2 has two readers; the last pooling is 3 x 3
  CHECK(chains.conv_before_pool.begin()->first == pooled.node().get());
  CHECK(chains.conv_before_pool.begin()->second == conv.node().get());
  CHECK(chains.pool_of_conv.at(conv.node().get()) == pooled.node().get());
  CHECK(find_fused_chains(nodes_of(model.outputs()), model.outputs(), true).conv_before_pool == chains.conv_before_pool);
  const Tensor images = random::uniform({4, 28, 28, 1}, 0.0, 1.0, DType::float32, 43);
  CHECK(max_relative_error(model.predict(images), layer_by_layer(model, images)) < 1e-5);
}

TEST_CASE("predict runs an LSTM after an Embedding on each token's input projection, made once and kept") {
  // The op (keras/kernels/lstm_tokens.hpp) against the two layers, where it serves this CPU; then after the
  // weights change (the kept projections follow their version stamps); ids it leaves to the layers.
  utils::set_random_seed(12);
  auto embedding = std::make_shared<layers::Embedding>(37, 12);
  auto lstm = std::make_shared<layers::LSTM>(16, layers::LSTMOptions{.return_sequences = true});
  auto last = std::make_shared<layers::LSTM>(16);
  Tensor ids = random::randint({5, 9}, 0, 37, DType::int64, 13);
  (void)(*last)((*embedding)(ids, false), false);  // builds the three layers
  (void)(*lstm)((*embedding)(ids, false), false);
  const kernels::RnnArgs args{5, 9, 12, 16, kernels::RnnCell::lstm};
  const bool served = kernels::lstm_inference_fits(args);
  auto check = [&](const Tensor& token_ids, const std::string& what) {
    INFO(what);
    for (const auto& layer : {lstm, last}) {
      const auto& cell = layer->cell();
      const Tensor fused = ops::lstm_over_tokens(token_ids, embedding->embeddings()->value(), cell.kernel()->value(),
                                                 cell.recurrent_kernel()->value(), cell.bias()->value(),
                                                 layer->rnn_options().return_sequences);
      CHECK(fused.defined() == served);
      if (!fused.defined()) continue;
      const Tensor reference = (*layer)((*embedding)(token_ids, false), false);
      REQUIRE(fused.shape() == reference.shape());
      CHECK(max_relative_error(fused, reference) < 1e-5);
    }
  };
  check(ids, "int64 ids");
  check(ids, "again, from the kept projections");
  check(ids.astype(DType::float32), "whole float ids");
  embedding->embeddings()->assign(random::normal({37, 12}, 0.0, 1.0, DType::float32, 14));
  check(ids, "new embeddings");
  lstm->cell().kernel()->assign(random::normal({12, 64}, 0.0, 0.3, DType::float32, 15));
  lstm->cell().bias()->assign(random::normal({64}, 0.0, 0.3, DType::float32, 16));
  check(ids.astype(DType::int32), "a new kernel and bias, int32 ids");
  // Ids the Embedding layer reports: out of range, fractional, not a number.
  const Tensor table = embedding->embeddings()->value();
  const auto& cell = last->cell();
  for (const Tensor& bad : {Tensor::full({1, 3}, 37.f), Tensor::full({1, 3}, -1.f), Tensor::full({1, 3}, 1.5f),
                            Tensor::full({1, 3}, std::nanf(""))})
    CHECK_FALSE(ops::lstm_over_tokens(bad, table, cell.kernel()->value(), cell.recurrent_kernel()->value(),
                                      cell.bias()->value(), false).defined());

  // In a model: the LSTM reads the Embedding's rows itself, predict matches the layers one by one, and an id
  // out of range still gets the Embedding's error. With mask_zero the two stay apart.
  KerasTensor in = Input({9});
  KerasTensor out = layers::Dense(3)((*lstm)((*embedding)(in)));
  Model model(in, out);
  const FusedChains chains = find_fused_chains(nodes_of(model.outputs()), model.outputs());
  REQUIRE(chains.embedding_before.size() == 1);
  CHECK(chains.embedding_before.begin()->second->layer.get() == embedding.get());
  CHECK(find_fused_chains(nodes_of(model.outputs()), model.outputs(), true).embedding_before.empty());
  const Tensor many = random::randint({40, 9}, 0, 37, DType::float32, 17);
  CHECK(max_relative_error(model.predict(many, {.batch_size = 8}), layer_by_layer(model, many)) < 1e-5);
  CHECK_THROWS_WITH(model.predict(Tensor::full({2, 9}, 40.f)), Catch::Contains("Embedding"));
  KerasTensor masked_in = Input({9});
  Model masked(masked_in, layers::LSTM(4)(layers::Embedding(37, 6, {.mask_zero = true})(masked_in)));
  CHECK(find_fused_chains(nodes_of(masked.outputs()), masked.outputs()).embedding_before.empty());
  CHECK(max_relative_error(masked.predict(many), layer_by_layer(masked, many)) < 1e-5);
}
