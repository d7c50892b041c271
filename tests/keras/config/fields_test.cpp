// KERAS_FIELDS and the config codec: the field list drives both directions, absent keys keep their
// defaults, Keras's spellings (one integer for every axis, null for unset) are read, and a wrong value
// names its key.
#include <catch2/catch.hpp>

#include "keras/config/codec.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/core/dense.hpp"

using namespace keras;

namespace test_fields {

struct Options {
  std::int64_t filters = 4;
  std::array<std::int64_t, 2> kernel_size{3, 3};
  std::optional<double> clipnorm{};
  std::string padding = "valid";
  initializers::InitializerRef kernel_initializer = "glorot_uniform";
  regularizers::RegularizerRef kernel_regularizer{};
  bool unlisted = false;  // not in the field list: never written or read
};
KERAS_FIELDS(Options, filters, kernel_size, clipnorm, padding, kernel_initializer, kernel_regularizer)

}  // namespace test_fields

TEST_CASE("KERAS_FIELDS writes every listed field in Keras's JSON and reads it back") {
  test_fields::Options o{.filters = 8, .kernel_size = {1, 5}, .clipnorm = 1.5, .padding = "same",
                         .kernel_initializer = "he_normal", .kernel_regularizer = "l2", .unlisted = true};
  json c = json::object();
  config::write_fields(c, o);
  CHECK(c.size() == 6);
  CHECK(c["kernel_size"] == json::array({1, 5}));
  CHECK(c["clipnorm"] == 1.5);
  CHECK(c["kernel_initializer"]["class_name"] == "HeNormal");
  CHECK(c["kernel_regularizer"]["class_name"] == "L2");

  test_fields::Options back;
  config::read_fields(c, back);
  CHECK(back.filters == 8);
  CHECK(back.kernel_size == std::array<std::int64_t, 2>{1, 5});
  CHECK(back.clipnorm == 1.5);
  CHECK(back.padding == "same");
  CHECK(back.kernel_initializer->class_name() == "HeNormal");
  CHECK(back.kernel_regularizer);
  CHECK_FALSE(back.unlisted);
  json again = json::object();
  config::write_fields(again, back);
  CHECK(again == c);
}

TEST_CASE("read_fields keeps defaults for absent keys and reads Keras's short spellings") {
  test_fields::Options o;
  config::read_fields(json{{"kernel_size", 7}, {"clipnorm", nullptr}, {"kernel_regularizer", nullptr}}, o);
  CHECK(o.kernel_size == std::array<std::int64_t, 2>{7, 7});
  CHECK_FALSE(o.clipnorm);
  CHECK_FALSE(o.kernel_regularizer);
  CHECK(o.filters == 4);
  CHECK(o.padding == "valid");
}

TEST_CASE("a config field of the wrong type is a ValueError that names the field") {
  test_fields::Options o;
  CHECK_THROWS_AS(config::read_fields(json{{"filters", "many"}}, o), ValueError);
  CHECK_THROWS_WITH(config::read_fields(json{{"filters", "many"}}, o), Catch::Contains("\"filters\""));
  CHECK_THROWS_WITH(config::read_fields(json{{"kernel_size", {1, 2, 3}}}, o), Catch::Contains("kernel_size"));
  CHECK_THROWS_WITH(config::read_fields(json{{"filters", 1e300}}, o), Catch::Contains("filters"));
}

TEST_CASE("a layer's config is its base fields plus the listed options, and from_config inverts it") {
  layers::Dense dense(3, {.activation = "relu", .use_bias = false, .name = "hidden", .trainable = false});
  const json c = dense.get_config();
  CHECK(c["name"] == "hidden");
  CHECK(c["trainable"] == false);
  CHECK(c["units"] == 3);
  CHECK(c["use_bias"] == false);
  auto back = layers::Dense::from_config(c);
  CHECK(back->name() == "hidden");
  CHECK_FALSE(back->trainable());
  CHECK(back->get_config() == c);
}
