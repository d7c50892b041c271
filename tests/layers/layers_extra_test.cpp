// The layer classes real Keras files hold beside the common ones: Identity, ThresholdedReLU, RMSNormalization,
// EinsumDense, SpectralNormalization, Dropout(noise_shape), transposed convolutions with groups, and the config
// fields of Embedding and the normalization layers (regularizers, constraints, BatchNormalization over several
// axes, LayerNormalization's rms_scaling). Values and gradients against tests/golden/layers_extra.json
// (tests/golden/make_layers_extra_golden.py, NumPy).
#include <filesystem>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/hdf5_format.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::random_tensor;

namespace {

void check_close(const Tensor& got, const json& want) {
  Tensor w = golden_tensor(want);
  const auto values = w.to_vector<float>();
  keras::testing::check_close(got, w.shape(), std::vector<double>(values.begin(), values.end()));
}

/// The gradients of sum(layer(x, training) * w) with respect to x and `weights`.
std::vector<Tensor> gradients(Layer& layer, const Tensor& x, const Tensor& w, const std::vector<Tensor>& weights,
                              bool training = false) {
  GradientTape tape;
  tape.watch(x);
  Tensor y = layer(x, training);
  std::vector<Tensor> sources{x};
  sources.insert(sources.end(), weights.begin(), weights.end());
  return tape.gradient(ops::sum(ops::multiply(y, w)), sources);
}

/// A layer rebuilt from its serialized config.
std::shared_ptr<Layer> round_trip(const Layer& layer) {
  return Layer::deserialize(json{{"class_name", layer.class_name()}, {"config", layer.get_config()}});
}

}  // namespace

TEST_CASE("Identity passes inputs and masks through and round-trips its config", "[layers_extra]") {
  backend::clear_session();
  layers::Identity id;
  CHECK(id.name() == "identity");
  const Tensor x = random_tensor({2, 3});
  CHECK(id(x).to_vector<float>() == x.to_vector<float>());
  CHECK(round_trip(id)->class_name() == "Identity");
  // The mask of an Embedding flows through it.
  KerasTensor in = Input({4});
  KerasTensor h = layers::Identity()(layers::Embedding(10, 3, {.mask_zero = true})(in));
  Model model(in, layers::GlobalAveragePooling1D()(h));
  const Tensor ids = Tensor::from_vector<float>({1, 2, 0, 0}, {1, 4});
  const Tensor y = model.predict(ids);
  CHECK(y.shape() == Shape{1, 3});
}

TEST_CASE("ThresholdedReLU matches NumPy and checks theta", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["thresholded_relu"]) {
    layers::ThresholdedReLU layer(c["theta"].get<double>());
    const Tensor x = golden_tensor(c["x"]);
    check_close(layer(x), c["y"]);
    check_close(gradients(layer, x, golden_tensor(c["w"]), {})[0], c["dx"]);
    CHECK(round_trip(layer)->get_config()["theta"] == Approx(c["theta"].get<double>()));
  }
  CHECK(layers::ThresholdedReLU().get_config()["theta"] == Approx(1.0));
  backend::clear_session();
  CHECK(layers::ThresholdedReLU().name() == "thresholded_re_lu");
  CHECK_THROWS_WITH(layers::ThresholdedReLU(-1.0), Catch::Contains("should be >= 0"));
}

TEST_CASE("RMSNormalization matches NumPy, gradients included, and writes Keras's config", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["rms_normalization"]) {
    const std::vector<int> axis =
        c["axis"].is_array() ? c["axis"].get<std::vector<int>>() : std::vector<int>{c["axis"].get<int>()};
    layers::RMSNormalization layer({.axis = axis, .epsilon = c["epsilon"].get<double>()});
    const Tensor x = golden_tensor(c["x"]);
    layer(x);
    REQUIRE(layer.weights().size() == 1);
    CHECK(layer.scale()->name() == "scale");
    layer.set_weights({golden_tensor(c["scale"])});
    check_close(layer(x), c["y"]);
    auto g = gradients(layer, x, golden_tensor(c["w"]), {layer.scale()->value()});
    check_close(g[0], c["dx"]);
    check_close(g[1], c["dscale"]);
  }
  layers::RMSNormalization fresh;
  CHECK(fresh.get_config()["axis"] == -1);
  CHECK(fresh.get_config()["epsilon"] == Approx(1e-6));
  fresh(Tensor::ones({2, 4}));
  CHECK(fresh.get_config()["axis"] == json::array({-1}));  // Keras's build makes the axis a list
  auto loaded = Layer::deserialize(json::parse(R"({"class_name": "RMSNormalization",
      "config": {"name": "rms", "axis": [1, 2], "epsilon": 1e-5, "trainable": true, "dtype": "float32"}})"));
  loaded->ensure_built(Shape{-1, 3, 4});
  CHECK(loaded->weights()[0]->shape() == Shape{3, 4});
  CHECK_THROWS_WITH(layers::RMSNormalization({.axis = {3}})(Tensor::ones({2, 4})), Catch::Contains("out of bounds"));
}

TEST_CASE("EinsumDense matches np.einsum for the equations Keras users write", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["einsum_dense"]) {
    const std::string eq = c["equation"].get<std::string>();
    SECTION(eq + " " + c["output_shape"].dump()) {
      // From a Keras config, as files hold it (output_shape an int or a list with nulls).
      json config = {{"name", "einsum"}, {"equation", eq}, {"output_shape", c["output_shape"]},
                     {"bias_axes", c["bias_axes"]}, {"activation", c["activation"]}};
      auto layer = Layer::deserialize(json{{"class_name", "EinsumDense"}, {"config", config}});
      const Tensor x = golden_tensor(c["x"]);
      Shape symbolic = x.shape();
      symbolic[0] = -1;
      layer->ensure_built(symbolic);
      auto& einsum = dynamic_cast<layers::EinsumDense&>(*layer);
      CHECK(einsum.kernel()->shape() == golden_tensor(c["kernel"]).shape());
      std::vector<Tensor> weights{golden_tensor(c["kernel"])};
      if (!c["bias"].is_null()) {
        REQUIRE(einsum.bias());
        CHECK(einsum.bias()->shape() == golden_tensor(c["bias"]).shape());
        weights.push_back(golden_tensor(c["bias"]));
      } else {
        CHECK_FALSE(einsum.bias());
      }
      layer->set_weights(weights);
      const Tensor y = (*layer)(x);
      check_close(y, c["y"]);
      Shape want = y.shape();
      want[0] = -1;
      CHECK(layer->compute_output_shape(symbolic) == want);
      std::vector<Tensor> sources;
      for (const auto& w : layer->weights()) sources.push_back(w->value());
      auto g = gradients(*layer, x, golden_tensor(c["w"]), sources);
      check_close(g[0], c["dx"]);
      check_close(g[1], c["dkernel"]);
      if (!c["bias"].is_null()) check_close(g[2], c["dbias"]);
      // The config round-trips, None sizes as null.
      const json written = layer->get_config();
      CHECK(written["equation"] == eq);
      CHECK(written["bias_axes"] == c["bias_axes"]);
      auto again = round_trip(*layer);
      again->ensure_built(symbolic);
      again->set_weights(weights);
      check_close((*again)(x), c["y"]);
    }
  }
}

TEST_CASE("EinsumDense writes Keras's config and refuses what it cannot compute", "[layers_extra]") {
  backend::clear_session();
  layers::EinsumDense layer("abc,cd->abd", {-1, 64}, {.bias_axes = "d"});
  CHECK(layer.name() == "einsum_dense");
  const json c = layer.get_config();
  CHECK(c["output_shape"] == json::parse("[null, 64]"));
  CHECK(c["bias_axes"] == "d");
  CHECK(c["kernel_initializer"]["class_name"] == "GlorotUniform");
  CHECK(c.contains("activity_regularizer"));
  CHECK(layer.compute_output_shape(Shape{-1, 32, 128}) == Shape{-1, 32, 64});
  CHECK(layers::EinsumDense("ab,bc->ac", {64}).get_config()["bias_axes"].is_null());
  CHECK_THROWS_WITH(layers::EinsumDense("ab,bc", {4})(Tensor::ones({2, 3})), Catch::Contains("Invalid einsum equation"));
  CHECK_THROWS_WITH(layers::EinsumDense("ab,bc->ac", {4}, {.bias_axes = "x"})(Tensor::ones({2, 3})),
                    Catch::Contains("bias dimension 'x'"));
  CHECK_THROWS_WITH(layers::EinsumDense("abc,cd->abd", {5, 4})(Tensor::ones({2, 3, 2})),
                    Catch::Contains("do not match at shared dimension 'b'"));
  CHECK_THROWS_WITH(layers::EinsumDense("ab,bc->ac", {4})(Tensor::ones({2, 3, 2})), Catch::Contains("rank 2"));
  CHECK_THROWS_WITH(Layer::deserialize(json::parse(R"({"class_name": "EinsumDense", "config": {"name": "e",
      "equation": "ab,bc->ac", "output_shape": 4, "lora_rank": 2}})")), Catch::Contains("LoRA"));
  // It trains inside a model and survives an HDF5 round trip.
  KerasTensor in = Input({3, 5});
  Model model(in, layers::EinsumDense("...b,bc->...c", {2}, {.bias_axes = "c"})(in));
  model.compile({.optimizer = "sgd", .loss = "mse"});
  const Tensor x = random_tensor({4, 3, 5}), y = random_tensor({4, 3, 2}, -1, 1, 9);
  const double first = model.train_on_batch(x, y).at("loss");
  for (int i = 0; i < 10; ++i) model.train_on_batch(x, y);
  CHECK(model.test_on_batch(x, y).at("loss") < first);
  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_einsum_dense.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  std::filesystem::remove(path);
}

TEST_CASE("SpectralNormalization runs Keras's power iteration on Dense and Conv2D kernels", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["spectral_normalization"]) {
    const Tensor kernel = golden_tensor(c["kernel"]);
    const bool dense = kernel.ndim() == 2;
    LayerPtr inner = dense ? LayerPtr(std::make_shared<layers::Dense>(kernel.dim(1)))
                           : LayerPtr(std::make_shared<layers::Conv2D>(kernel.dim(3), Size2{2, 2}));
    layers::SpectralNormalization sn(inner, {.power_iterations = c["power_iterations"].get<std::int64_t>()});
    const Tensor x = dense ? random_tensor({2, kernel.dim(0)}) : random_tensor({1, 4, 4, kernel.dim(2)});
    sn(x);
    REQUIRE(sn.vector_u());
    CHECK(sn.vector_u()->shape() == Shape{1, kernel.shape().back()});
    CHECK_FALSE(sn.vector_u()->trainable());
    CHECK(sn.trainable_weights().size() == 2);  // kernel and bias
    const Tensor bias = random_tensor({kernel.shape().back()}, -0.5f, 0.5f, 3);
    inner->set_weights({kernel, bias});
    sn.vector_u()->assign(golden_tensor(c["vector_u"]));
    // Inference leaves the weights alone.
    sn(x, false);
    check_close(inner->weights()[0]->value(), c["kernel"]);
    const Tensor y = sn(x, true);
    check_close(inner->weights()[0]->value(), c["new_kernel"]);
    check_close(sn.vector_u()->value(), c["new_vector_u"]);
    CHECK(y.to_vector<float>() == (*inner)(x).to_vector<float>());  // the layer ran with the new kernel
  }
  layers::SpectralNormalization sn(layers::Dense(4), {.power_iterations = 2});
  const json c = sn.get_config();
  CHECK(c["power_iterations"] == 2);
  CHECK(c["layer"]["class_name"] == "Dense");
  auto loaded = round_trip(sn);
  CHECK(dynamic_cast<layers::SpectralNormalization&>(*loaded).layer()->class_name() == "Dense");
  CHECK_THROWS_WITH(layers::SpectralNormalization(layers::Dense(4), {.power_iterations = 0}),
                    Catch::Contains("power_iterations"));
  CHECK_THROWS_WITH(layers::SpectralNormalization(layers::Flatten())(Tensor::ones({2, 3})),
                    Catch::Contains("nor 'embeddings'"));
  // In an HDF5 file its weights follow Keras's order: the wrapped layer's, then vector_u.
  KerasTensor in = Input({5});
  auto wrapper = std::make_shared<layers::SpectralNormalization>(layers::Dense(3));
  Model model(in, (*wrapper)(in));
  std::vector<std::string> names;
  for (const auto& [name, variable] : saving::named_weights(*wrapper)) names.push_back(name);
  const std::string outer = wrapper->name(), inner = wrapper->layer()->name();
  CHECK(names == std::vector<std::string>{outer + "/" + inner + "/kernel:0", outer + "/" + inner + "/bias:0",
                                          outer + "/vector_u:0"});
  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_spectral.h5").string();
  model.save(path);
  auto loaded_model = models::load_model(path);
  const Tensor x = random_tensor({2, 5});
  CHECK(loaded_model->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  std::filesystem::remove(path);
}

TEST_CASE("Dropout(noise_shape) shares one mask along the axes of size 1", "[layers_extra]") {
  layers::Dropout dropout(0.5, {.seed = 3, .noise_shape = Shape{-1, 1, -1}});
  const Tensor x = Tensor::ones({4, 6, 5});
  const Tensor y = dropout(x, true);
  const auto v = y.to_vector<float>();
  int zeros = 0;
  for (std::int64_t b = 0; b < 4; ++b)
    for (std::int64_t c = 0; c < 5; ++c) {
      const float first = v[(b * 6) * 5 + c];
      CHECK((first == 0.f || first == Approx(2.f)));
      zeros += first == 0.f;
      for (std::int64_t t = 1; t < 6; ++t) CHECK(v[(b * 6 + t) * 5 + c] == first);  // one mask along axis 1
    }
  CHECK(zeros > 0);
  CHECK(zeros < 20);
  CHECK(dropout(x, false).to_vector<float>() == x.to_vector<float>());
  // The gradient is the mask.
  {
    GradientTape tape;
    Tensor xs = x.clone();
    tape.watch(xs);
    Tensor out = dropout(xs, true);
    Tensor g = tape.gradient(ops::sum(out), std::vector<Tensor>{xs})[0];
    const auto gv = g.to_vector<float>(), ov = out.to_vector<float>();
    CHECK(gv == ov);  // x is ones, so the output is the mask
  }
  const json c = dropout.get_config();
  CHECK(c["noise_shape"] == json::parse("[null, 1, null]"));
  auto loaded = round_trip(dropout);
  CHECK(*dynamic_cast<layers::Dropout&>(*loaded).noise_shape() == Shape{-1, 1, -1});
  CHECK(layers::Dropout(0.2).get_config()["noise_shape"].is_null());
  CHECK_THROWS_WITH(layers::Dropout(0.5, {.noise_shape = Shape{-1, 3}})(Tensor::ones({2, 4}), true),
                    Catch::Contains("does not broadcast"));
  CHECK_THROWS_WITH(layers::Dropout(0.5, {.noise_shape = Shape{1}})(Tensor::ones({2, 4}), true),
                    Catch::Contains("one size per input axis"));
}

TEST_CASE("Transposed convolutions take tf.keras's groups and compute as tf.keras does", "[layers_extra]") {
  const Tensor x = random_tensor({1, 3, 3, 4});
  layers::Conv2DTranspose grouped(6, {2, 2}, {.strides = {2, 2}, .groups = 2});
  layers::Conv2DTranspose plain(6, {2, 2}, {.strides = {2, 2}});
  grouped(x);
  plain(x);
  CHECK(grouped.kernel()->shape() == Shape{2, 2, 6, 4});  // tf.keras 2.x: groups does not shape the kernel
  plain.set_weights(grouped.get_weights());
  CHECK(grouped(x).to_vector<float>() == plain(x).to_vector<float>());
  CHECK(grouped.get_config()["groups"] == 2);
  CHECK_FALSE(plain.get_config().contains("groups"));  // Keras 3 refuses the key
  auto loaded = Layer::deserialize(json::parse(R"({"class_name": "Conv1DTranspose", "config": {"name": "t",
      "filters": 4, "kernel_size": [3], "strides": [1], "padding": "valid", "dilation_rate": [1], "groups": 2,
      "activation": "linear", "use_bias": true}})"));
  CHECK(loaded->get_config()["groups"] == 2);
  CHECK_THROWS_WITH(layers::Conv3DTranspose(5, {1, 1, 1}, {.groups = 2}), Catch::Contains("divisible"));
}

TEST_CASE("Embedding keeps its regularizers and constraint", "[layers_extra]") {
  layers::Embedding emb(6, 3, {.embeddings_regularizer = regularizers::L2(0.1),
                               .activity_regularizer = regularizers::L1(0.01),
                               .embeddings_constraint = constraints::NonNeg()});
  const Tensor ids = Tensor::from_vector<float>({1, 2, 5}, {1, 3});
  const Tensor y = emb(ids);
  const auto e = emb.embeddings()->value().to_vector<float>();
  double l2 = 0, l1 = 0;
  for (float v : e) l2 += 0.1 * v * v;
  for (float v : y.to_vector<float>()) l1 += 0.01 * std::abs(v);
  double total = 0;
  for (const auto& l : emb.losses()) total += l.item();
  CHECK(total == Approx(l2 + l1).epsilon(1e-5));
  const json c = emb.get_config();
  CHECK(c["embeddings_regularizer"]["class_name"] == "L2");
  CHECK(c["activity_regularizer"]["class_name"] == "L1");
  CHECK(c["embeddings_constraint"]["class_name"] == "NonNeg");
  auto loaded = round_trip(emb);
  const json again = loaded->get_config();
  CHECK(again["embeddings_regularizer"] == c["embeddings_regularizer"]);
  CHECK(again["embeddings_constraint"] == c["embeddings_constraint"]);
  CHECK(loaded->get_config()["activity_regularizer"] == c["activity_regularizer"]);
  // The constraint applies after an optimizer step.
  KerasTensor in = Input({3});
  Model model(in, layers::Flatten()(layers::Embedding(6, 2, {.embeddings_constraint = constraints::NonNeg()})(in)));
  model.compile({.optimizer = optimizers::SGD({.learning_rate = 10.0}), .loss = "mse"});
  model.train_on_batch(ids, Tensor::full({1, 6}, -5.f));
  for (float v : model.get_weights()[0].to_vector<float>()) CHECK(v >= 0.f);
}

TEST_CASE("BatchNormalization over several axes matches tf.keras's non-fused path", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["batch_norm_axes"]) {
    const auto axes = c["axes"].get<std::vector<int>>();
    auto layer = Layer::deserialize(json{{"class_name", "BatchNormalization"},
                                         {"config", {{"name", "bn"}, {"axis", axes},
                                                     {"momentum", c["momentum"]}, {"epsilon", c["epsilon"]}}}});
    auto& bn = dynamic_cast<layers::BatchNormalization&>(*layer);
    const Tensor x = golden_tensor(c["x"]);
    bn(x);
    CHECK(bn.gamma()->shape() == golden_tensor(c["gamma"]).shape());
    bn.set_weights({golden_tensor(c["gamma"]), golden_tensor(c["beta"]), golden_tensor(c["moving_mean"]),
                    golden_tensor(c["moving_variance"])});
    GradientTape tape;
    tape.watch(x);
    const Tensor y = bn(x, true);
    check_close(y, c["y"]);
    auto g = tape.gradient(ops::sum(ops::multiply(y, golden_tensor(c["w"]))),
                           {x, bn.gamma()->value(), bn.beta()->value()});
    check_close(g[0], c["dx"]);
    check_close(g[1], c["dgamma"]);
    check_close(g[2], c["dbeta"]);
    check_close(bn.moving_mean()->value(), c["new_moving_mean"]);
    check_close(bn.moving_variance()->value(), c["new_moving_variance"]);
    check_close(bn(golden_tensor(c["x_test"]), false), c["y_test"]);
    CHECK(bn.get_config()["axis"] == json(axes));
  }
  CHECK_THROWS_WITH(Layer::deserialize(json::parse(R"({"class_name": "BatchNormalization", "config": {"name": "b",
      "renorm": true}})")), Catch::Contains("renorm"));
}

TEST_CASE("BatchNormalization and LayerNormalization keep beta/gamma regularizers and constraints", "[layers_extra]") {
  const Tensor x = random_tensor({4, 3});
  layers::BatchNormalization bn({.gamma_initializer = initializers::Constant(2.0),
                                 .beta_regularizer = regularizers::L2(0.5), .gamma_regularizer = regularizers::L1(0.25),
                                 .gamma_constraint = constraints::MaxNorm(1.0)});
  bn(x);
  double total = 0;
  for (const auto& l : bn.losses()) total += l.item();
  CHECK(total == Approx(0.25 * 2.0 * 3));  // beta is zeros
  layers::LayerNormalization ln({.beta_regularizer = regularizers::L2(0.5), .gamma_constraint = constraints::NonNeg()});
  ln(x);
  for (const Layer* layer : {static_cast<const Layer*>(&bn), static_cast<const Layer*>(&ln)}) {
    const json c = layer->get_config();
    CHECK(c["beta_regularizer"]["class_name"] == "L2");
    auto loaded = round_trip(*layer);
    const json again = loaded->get_config();
    for (const char* k : {"beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint"})
      CHECK(again[k] == c[k]);
  }
  CHECK(bn.get_config()["gamma_constraint"]["class_name"] == "MaxNorm");
  CHECK(ln.get_config()["gamma_constraint"]["class_name"] == "NonNeg");
}

TEST_CASE("LayerNormalization(rms_scaling=True) matches Keras 3's formula", "[layers_extra]") {
  const json golden = keras::testing::load_golden("layers_extra.json");
  for (const auto& c : golden["layer_norm_rms_scaling"]) {
    auto layer = Layer::deserialize(json{{"class_name", "LayerNormalization"},
                                         {"config", {{"name", "ln"}, {"axis", -1}, {"epsilon", c["epsilon"]},
                                                     {"rms_scaling", true}}}});
    const Tensor x = golden_tensor(c["x"]);
    (*layer)(x);
    REQUIRE(layer->weights().size() == 1);  // gamma only
    layer->set_weights({golden_tensor(c["gamma"])});
    auto& ln = dynamic_cast<layers::LayerNormalization&>(*layer);
    check_close((*layer)(x), c["y"]);
    auto g = gradients(*layer, x, golden_tensor(c["w"]), {ln.gamma()->value()});
    check_close(g[0], c["dx"]);
    check_close(g[1], c["dgamma"]);
    CHECK(layer->get_config()["rms_scaling"] == true);
  }
  CHECK_FALSE(layers::LayerNormalization().get_config().contains("rms_scaling"));
}
