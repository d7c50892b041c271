// A temporary layer called on symbolic tensors moves into the graph as it is: its own class (registered or not),
// its weights once built; a subclass without its own KERAS_LAYER line and a layer held by value are refused.
#include <catch2/catch.hpp>

#include "keras/keras.hpp"

using namespace keras;

namespace {

// y = x * scale + shift, per feature. Deliberately not registered by name: no config round trip can make it.
class ScaleShift : public Layer {
 public:
  ScaleShift() : Layer("", "scale_shift") {}
  void build(const Shape& input_shape) override {
    scale_ = add_weight("scale", {input_shape.back()}, "ones");
    shift_ = add_weight("shift", {input_shape.back()}, "zeros");
  }
  Tensor call(const Tensor& x, bool) override { return x * scale_->value() + shift_->value(); }

 private:
  std::shared_ptr<Variable> scale_, shift_;

  KERAS_LAYER(ScaleShift)
};
KERAS_REGISTER_LAYER(ScaleShift)

// A subclass that forgot its own KERAS_LAYER line: moving it as a ScaleShift would slice it.
class Forgetful : public ScaleShift {
 public:
  std::string class_name() const override { return "Forgetful"; }
};

void check_same(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  const auto x = a.to_vector<float>(), y = b.to_vector<float>();
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(x[i] == Approx(y[i]).margin(1e-6));
}

}  // namespace

TEST_CASE("a temporary of an unregistered custom layer joins a functional model, which trains", "[functional]") {
  backend::clear_session();
  utils::set_random_seed(5);
  CHECK_THROWS(Layer::deserialize(json{{"class_name", "ScaleShift"}, {"config", json::object()}}));
  const KerasTensor in = Input({2});
  Model model(in, layers::Dense(1)(ScaleShift()(in)));
  REQUIRE(model.layers().size() == 3);
  const auto moved = std::dynamic_pointer_cast<ScaleShift>(model.layers()[1]);
  REQUIRE(moved);
  CHECK(moved->class_name() == "ScaleShift");
  CHECK(moved->name() == "scale_shift");
  CHECK(model.count_params() == 2 + 2 + 3);

  // y = 3 x0 - 2 x1 + 1 on a grid of points.
  const std::int64_t n = 64;
  Tensor x = Tensor::empty({n, 2}), y = Tensor::empty({n, 1});
  for (std::int64_t i = 0; i < n; ++i) {
    const float a = float(i % 8) / 4.f - 1.f, b = float(i / 8) / 4.f - 1.f;
    x.data<float>()[2 * i] = a;
    x.data<float>()[2 * i + 1] = b;
    y.data<float>()[i] = 3 * a - 2 * b + 1;
  }
  model.compile({.optimizer = optimizers::Adam({.learning_rate = 0.05}), .loss = "mse"});
  const auto history = model.fit(x, y, {.batch_size = 16, .epochs = 30, .verbose = 0});
  const auto& loss = history.history.at("loss");
  CHECK(loss.back() < 0.05 * loss.front());
  CHECK(moved->get_weights()[0].to_vector<float>() != std::vector<float>{1.f, 1.f});  // the graph's layer trained
}

TEST_CASE("a built temporary keeps its weights in the graph, and a temporary model nests", "[functional]") {
  backend::clear_session();
  layers::Dense dense(2, {.name = "kept"});
  dense(Tensor::ones({1, 3}));
  const Tensor kernel = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {3, 2}), bias = Tensor::from_vector<float>({0.5f, -1}, {2});
  dense.set_weights({kernel, bias});
  const KerasTensor in = Input({3});
  const KerasTensor h = std::move(dense)(in);
  auto inner = std::make_shared<Model>(in, h);
  const Tensor x = Tensor::from_vector<float>({1, 0, -1, 2, 1, 0}, {2, 3});
  check_same(inner->predict(x), Tensor::from_vector<float>({-3.5f, -5, 5.5f, 7}, {2, 2}));

  // A functional model is a layer too: a temporary one moves into the outer graph.
  const KerasTensor outer_in = Input({3});
  Model outer(outer_in, Model(in, h, "inner_copy")(outer_in));
  REQUIRE(outer.layers().size() == 2);
  CHECK(outer.layers()[1]->class_name() == "Functional");
  check_same(outer.predict(x), inner->predict(x));
}

TEST_CASE("a subclass without its own KERAS_LAYER and a layer held by value are refused with the fix", "[functional]") {
  const KerasTensor in = Input({2});
  CHECK_THROWS_WITH(Forgetful()(in), Catch::Contains("KERAS_LAYER(Forgetful)"));
  ScaleShift local;
  CHECK_THROWS_WITH(local(in), Catch::Contains("std::shared_ptr"));
  CHECK_NOTHROW(std::make_shared<Forgetful>()->operator()(in));
}
