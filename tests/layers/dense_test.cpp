#include <fstream>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {
Tensor floats(const json& values, const Shape& shape) { return Tensor::from_vector(values.get<std::vector<float>>(), shape); }

void check_close(const Tensor& got, const json& want, const std::string& what) {
  auto g = got.to_vector<float>();
  auto w = want.get<std::vector<double>>();
  REQUIRE(g.size() == w.size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    INFO(what << "[" << i << "]: " << g[i] << " vs PyTorch " << w[i]);
    CHECK(std::abs(g[i] - w[i]) <= 1e-5 * std::max(1.0, std::abs(w[i])));
  }
}
}  // namespace

TEST_CASE("Dense forward and backward match PyTorch for every activation") {
  std::ifstream in(std::string(keras_test::golden_dir) + "/dense.json");
  REQUIRE(in.good());
  const json golden = json::parse(in);
  for (const auto& c : golden["cases"]) {
    const std::string act = c["activation"];
    SECTION(act) {
      const Shape xs = c["x_shape"].get<Shape>(), ks = c["kernel_shape"].get<Shape>();
      layers::Dense dense(ks[1], {.activation = act});
      Tensor x = floats(c["x"], xs);
      dense(x);  // builds
      dense.set_weights({floats(c["kernel"], ks), floats(c["bias"], {ks[1]})});
      GradientTape tape;
      tape.watch(x);
      Tensor y = dense(x, true);
      check_close(y, c["y"], act + " y");
      Tensor target = ops::sum(ops::multiply(y, floats(c["w"], {xs[0], ks[1]})));
      auto grads = tape.gradient(target, {x, dense.kernel()->value(), dense.bias()->value()});
      check_close(grads[0], c["dx"], act + " dx");
      check_close(grads[1], c["dkernel"], act + " dkernel");
      check_close(grads[2], c["dbias"], act + " dbias");
    }
  }
}

TEST_CASE("Dense gradients pass a finite-difference check") {
  layers::Dense dense(3, {.activation = "tanh"});
  Tensor x = keras::testing::random_tensor({2, 4});
  dense(x);
  keras::testing::check_gradients([&](const std::vector<Tensor>& v) { return dense(v[0], true); }, {x});
}

TEST_CASE("Dense builds Keras's weights, shapes, names and config") {
  backend::clear_session();
  layers::Dense a(4), b(8, {.activation = "relu", .use_bias = false});
  CHECK(a.name() == "dense");
  CHECK(b.name() == "dense_1");
  Tensor y = a(Tensor::ones({2, 3}));
  CHECK(y.shape() == Shape{2, 4});
  REQUIRE(a.weights().size() == 2);
  CHECK(a.weights()[0]->name() == "kernel");
  CHECK(a.weights()[0]->shape() == Shape{3, 4});
  CHECK(a.weights()[1]->shape() == Shape{4});
  CHECK(a.count_params() == 16);
  CHECK(a(Tensor::ones({5, 7, 3})).shape() == Shape{5, 7, 4});  // applied over the last axis
  b(Tensor::ones({1, 3}));
  CHECK(b.weights().size() == 1);

  json c = b.get_config();
  CHECK(c["units"] == 8);
  CHECK(c["activation"] == "relu");
  CHECK(c["use_bias"] == false);
  CHECK(c["kernel_initializer"]["class_name"] == "GlorotUniform");
  auto again = Layer::deserialize(serialize_object("Dense", c));
  CHECK(again->class_name() == "Dense");
  CHECK(again->get_config() == c);
}

TEST_CASE("Dense rejects bad arguments and inputs with clear errors") {
  CHECK_THROWS_AS(layers::Dense(0), ValueError);
  CHECK_THROWS_WITH(layers::Dense(4, {.activation = "relux"}), Catch::Contains("Unknown activation") && Catch::Contains("relu"));
  layers::Dense d(4, {.name = "probe"});
  d(Tensor::ones({2, 3}));
  CHECK_THROWS_WITH(d(Tensor::ones({2, 5})), Catch::Contains("probe") && Catch::Contains("(2, 5)"));
}

TEST_CASE("frozen layers keep their weights out of training") {
  layers::Dense d(2);
  d(Tensor::ones({1, 3}));
  d.set_trainable(false);
  CHECK(d.trainable_weights().empty());
  CHECK(d.non_trainable_weights().size() == 2);
  d.set_trainable(true);
  CHECK(d.trainable_weights().size() == 2);
}
