// keras::models::clone_model: same architecture and config, new weights not shared with the original,
// Sequential stays Sequential, clone_function for Sequential, a clear error where it is not supported.
#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

namespace {

bool same_values(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return false;
  for (std::int64_t i = 0; i < a.size(); ++i)
    if (a.data<float>()[i] != b.data<float>()[i]) return false;
  return true;
}

const Tensor x = Tensor::from_vector(std::vector<float>{0.5f, -1.f, 2.f, 0.25f, 1.f, -0.5f}, {2, 3});

}  // namespace

TEST_CASE("clone_model: a Sequential model gets the same config and new, unshared weights") {
  backend::clear_session();
  utils::set_random_seed(3);
  Sequential model({layers::Input({3}), layers::Dense(4, {.activation = "relu"}), layers::Dropout(0.5), layers::Dense(2)});
  auto clone = models::clone_model(model);
  REQUIRE(dynamic_cast<Sequential*>(clone.get()) != nullptr);
  CHECK(clone->get_config() == model.get_config());
  const auto original = model.get_weights(), fresh = clone->get_weights();
  REQUIRE(fresh.size() == original.size());
  CHECK_FALSE(same_values(fresh[0], original[0]));  // new Glorot draws
  clone->set_weights(original);
  CHECK(same_values(clone->predict(x, {}), model.predict(x, {})));
  // Changing the clone leaves the original alone.
  clone->set_weights({Tensor::zeros({3, 4}), Tensor::zeros({4}), Tensor::zeros({4, 2}), Tensor::zeros({2})});
  CHECK(same_values(model.get_weights()[0], original[0]));
}

TEST_CASE("clone_model: clone_function makes each layer of a Sequential model") {
  backend::clear_session();
  Sequential model({layers::Input({3}), layers::Dense(4, {.activation = "relu"}), layers::Dropout(0.5), layers::Dense(2)});
  std::vector<std::string> seen;
  auto clone = models::clone_model(model, {.clone_function = [&](const Layer& l) -> LayerPtr {
                                             seen.push_back(l.class_name());
                                             if (l.class_name() == "Dropout") return std::make_shared<layers::Dropout>(0.1);
                                             return Layer::deserialize(serialize_object(l.class_name(), l.get_config()));
                                           }});
  CHECK(seen == std::vector<std::string>{"Dense", "Dropout", "Dense"});
  CHECK(clone->get_config()["layers"][2]["config"]["rate"].get<double>() == Approx(0.1));
  CHECK(clone->predict(x, {}).shape() == Shape{2, 2});
}

TEST_CASE("clone_model: a functional model is cloned from its config") {
  backend::clear_session();
  KerasTensor in = Input({3});
  KerasTensor h = layers::Dense(4, {.activation = "tanh"})(in);
  Model model(in, layers::Dense(1)(h));
  auto clone = models::clone_model(model);
  CHECK(clone->get_config() == model.get_config());
  clone->set_weights(model.get_weights());
  CHECK(same_values(clone->predict(x, {}), model.predict(x, {})));
}

TEST_CASE("clone_model: clone_function rebuilds a functional graph with shared layers and two inputs") {
  backend::clear_session();
  utils::set_random_seed(5);
  // Two inputs through one shared Dense, a Dropout, a merge: each layer is cloned once, in its place.
  KerasTensor a = Input({3}, {.name = "a"}), b = Input({3}, {.name = "b"});
  auto shared = std::make_shared<layers::Dense>(4, layers::DenseOptions{.activation = "relu", .name = "shared"});
  KerasTensor ha = (*shared)(a), hb = (*shared)(b);
  KerasTensor merged = layers::Add()({layers::Dropout(0.5, {.name = "drop"})(ha), hb});
  Model model({a, b}, layers::Dense(2, {.name = "head"})(merged), "two_inputs");
  std::map<std::string, int> calls;
  auto clone = models::clone_model(model, {.clone_function = [&](const Layer& l) -> LayerPtr {
                                             ++calls[l.name()];
                                             if (l.class_name() == "Dropout")
                                               return std::make_shared<layers::Dropout>(0.25, layers::DropoutOptions{.name = "drop"});
                                             return Layer::deserialize(serialize_object(l.class_name(), l.get_config()));
                                           }});
  // Once per layer (the shared Dense too), never for the Inputs.
  CHECK(calls == std::map<std::string, int>{{"shared", 1}, {"drop", 1}, {"add", 1}, {"head", 1}});
  REQUIRE(clone->layers().size() == model.layers().size());
  json want = model.get_config();
  json got = clone->get_config();
  for (auto& l : want["layers"])
    if (l["class_name"] == "Dropout") l["config"]["rate"] = 0.25;
  CHECK(got == want);  // same graph (inbound nodes of the shared layer included), the new Dropout rate
  // New weights, not shared; the same function once the weights are copied.
  const auto original = model.get_weights();
  CHECK_FALSE(same_values(clone->get_weights()[0], original[0]));
  clone->set_weights(original);
  const Tensor y = Tensor::from_vector(std::vector<float>{1.f, 0.5f, -2.f, 0.f, 0.3f, 0.7f}, {2, 3});
  CHECK(same_values(clone->predict({x, y}, {}), model.predict({x, y}, {})));
}

TEST_CASE("clone_model: a clone_function that returns the layer itself shares it") {
  backend::clear_session();
  KerasTensor in = Input({3});
  auto dense = std::make_shared<layers::Dense>(2, layers::DenseOptions{.name = "kept"});
  Model model(in, (*dense)(in));
  auto clone = models::clone_model(model, {.clone_function = [](const Layer& l) -> LayerPtr {
                                             return const_cast<Layer&>(l).shared_from_this();
                                           }});
  REQUIRE(clone->layers().size() == 2);
  CHECK(clone->layers()[1].get() == model.layers()[1].get());
  CHECK(same_values(clone->predict(x, {}), model.predict(x, {})));
  CHECK_THROWS_WITH(models::clone_model(model, {.clone_function = [](const Layer&) -> LayerPtr { return nullptr; }}),
                    Catch::Contains("returned no layer") && Catch::Contains("'kept'"));
}
