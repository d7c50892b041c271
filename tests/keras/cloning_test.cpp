// keras::models::clone_model: same architecture and config, new weights not shared with the original,
// Sequential stays Sequential, clone_function for Sequential, a clear error where it is not supported.
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

TEST_CASE("clone_model: a functional model is cloned from its config; clone_function is refused with the fix") {
  backend::clear_session();
  KerasTensor in = Input({3});
  KerasTensor h = layers::Dense(4, {.activation = "tanh"})(in);
  Model model(in, layers::Dense(1)(h));
  auto clone = models::clone_model(model);
  CHECK(clone->get_config() == model.get_config());
  clone->set_weights(model.get_weights());
  CHECK(same_values(clone->predict(x, {}), model.predict(x, {})));
  CHECK_THROWS_WITH(models::clone_model(model, {.clone_function = [](const Layer&) -> LayerPtr { return nullptr; }}),
                    Catch::Contains("Sequential models only"));
}
