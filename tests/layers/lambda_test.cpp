// Lambda: a C++ callable as a layer; named functions serialize and load, unknown names fail clearly.
#include <filesystem>

#include <catch2/catch.hpp>

#include "gradient_check.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;
using keras::testing::random_tensor;

namespace {
const bool registered = layers::register_lambda_function("double_and_square", [](const Tensor& x) {
  return ops::square(x * 2.f);
});
const bool registered_sum = layers::register_lambda_function("row_sum", [](const Tensor& x) {
  return ops::sum(x, {-1}, true);
});
}  // namespace

TEST_CASE("Lambda runs its callable, differentiates through it and infers the output shape", "[lambda]") {
  layers::Lambda layer([](const Tensor& x) { return ops::concatenate({x, -x}, -1); });
  const Tensor x = random_tensor({2, 3});
  CHECK(layer(x).shape() == Shape{2, 6});
  CHECK(layer.compute_output_shape({-1, 3}) == Shape{-1, 6});
  CHECK(layers::Lambda("row_sum", {.output_shape = Shape{1}}).compute_output_shape({-1, 7}) == Shape{-1, 1});
  keras::testing::check_gradients([&](const std::vector<Tensor>& in) { return layers::Lambda("double_and_square")(in[0]); },
                                  {random_tensor({3, 2})});
}

TEST_CASE("a Lambda of a registered function saves and loads - an unknown one fails with the fix", "[lambda]") {
  Sequential model({layers::Input({3}), layers::Dense(2), layers::Lambda("double_and_square"), layers::Lambda("row_sum")});
  const json c = model.layers()[1]->get_config();
  CHECK(c["function"] == "double_and_square");
  CHECK(c["function_type"] == "function");
  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_lambda_model.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const Tensor x = random_tensor({4, 3});
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  std::filesystem::remove(path);

  json unknown = serialize_object("Lambda", c);
  unknown["config"]["function"] = "not_registered";
  CHECK_THROWS_WITH(Layer::deserialize(unknown), Catch::Contains("register_lambda_function(\"not_registered\", fn)"));
  unknown["config"]["function_type"] = "lambda";
  CHECK_THROWS_WITH(Layer::deserialize(unknown), Catch::Contains("holds a Python lambda (bytecode)"));
}
