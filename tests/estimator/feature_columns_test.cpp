// Feature columns against the preprocessing layers they are built on, and tf's id conventions.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>

#include "data/element.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/ops/math.hpp"
#include "keras/estimator/dense_features.hpp"
#include "keras/estimator/feature_columns.hpp"
#include "keras/variable.hpp"
#include "layers/core/embedding.hpp"
#include "layers/preprocessing/categorical/hashed_crossing.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"
#include "layers/preprocessing/numeric/discretization.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace est = keras::estimator;

namespace {
Tensor strings(std::vector<std::string> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return data::Component::strings(std::move(v), {n}).tensor();
}
std::vector<std::int64_t> ids_of(const est::Column& c, const est::FeatureTensors& f) { return c->ids(f).to_vector<std::int64_t>(); }
}  // namespace

TEST_CASE("numeric_column reads float32 rows and applies normalizer_fn", "[estimator][feature_columns]") {
  auto plain = est::numeric_column("x", {.shape = {2}});
  auto scaled = est::numeric_column("x", {.shape = {2}, .normalizer_fn = [](const Tensor& t) {
                                            return ops::multiply(t, Tensor::scalar(2.f));
                                          }});
  est::FeatureTensors f{{"x", Tensor::from_vector<std::int64_t>({1, 2, 3, 4}, {2, 2})}};
  CHECK(plain->dense_dimension() == 2);
  CHECK(plain->dense(f, {}).dtype() == DType::float32);
  CHECK(plain->dense(f, {}).to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  CHECK(scaled->dense(f, {}).to_vector<float>() == std::vector<float>{2, 4, 6, 8});
  est::FeatureTensors wrong{{"x", Tensor::from_vector<float>({1, 2, 3}, {3})}};
  CHECK_THROWS_WITH(plain->dense(wrong, {}), Catch::Contains("numeric_column('x') has shape (2)"));
  CHECK_THROWS_WITH(plain->dense({{"y", wrong.at("x")}}, {}), Catch::Contains("reads feature 'x'"));
}

TEST_CASE("bucketized_column equals Discretization one-hot", "[estimator][feature_columns]") {
  const std::vector<double> boundaries{0.0, 1.5, 4.0};
  auto b = est::bucketized_column(est::numeric_column("v"), boundaries);
  CHECK(b->name() == "v_bucketized");
  CHECK(b->num_buckets() == 4);
  const Tensor v = Tensor::from_vector<float>({-1.f, 0.f, 1.4f, 1.5f, 3.9f, 4.f, 100.f}, {7, 1});
  layers::Discretization reference({.bin_boundaries = boundaries, .output_mode = "one_hot"});
  const Tensor expected = reference(v);
  const Tensor got = b->dense({{"v", v}}, {});
  REQUIRE(got.shape() == expected.shape());
  CHECK(got.to_vector<float>() == expected.astype(DType::float32).to_vector<float>());
  CHECK(ids_of(b, {{"v", v}}) == std::vector<std::int64_t>{0, 1, 1, 2, 2, 3, 3});
  // Two values per example: the second one's buckets follow the first's, as tf offsets them.
  auto b2 = est::bucketized_column(est::numeric_column("w", {.shape = {2}}), {1.0});
  CHECK(b2->num_buckets() == 4);
  CHECK(ids_of(b2, {{"w", Tensor::from_vector<float>({0.f, 2.f, 2.f, 0.f}, {2, 2})}}) == std::vector<std::int64_t>{0, 3, 1, 2});
  CHECK_THROWS_WITH(est::bucketized_column(est::numeric_column("v"), {2.0, 1.0}), Catch::Contains("sorted"));
}

TEST_CASE("vocabulary columns give tf's ids: vocabulary first, OOV buckets after it", "[estimator][feature_columns]") {
  const est::FeatureTensors f{{"color", strings({"green", "purple", "red", "blue"})}};
  auto dropped = est::categorical_column_with_vocabulary_list("color", std::vector<std::string>{"red", "green", "blue"});
  CHECK(dropped->num_buckets() == 3);
  CHECK(ids_of(dropped, f) == std::vector<std::int64_t>{1, -1, 0, 2});
  auto with_default = est::categorical_column_with_vocabulary_list("color", std::vector<std::string>{"red", "green", "blue"},
                                                                   {.default_value = 0});
  CHECK(ids_of(with_default, f) == std::vector<std::int64_t>{1, 0, 0, 2});
  auto with_oov = est::categorical_column_with_vocabulary_list("color", std::vector<std::string>{"red", "green", "blue"},
                                                               {.num_oov_buckets = 4});
  CHECK(with_oov->num_buckets() == 7);
  const auto oov = static_cast<std::int64_t>(layers::preprocessing::fingerprint64("purple") % 4);
  CHECK(ids_of(with_oov, f) == std::vector<std::int64_t>{1, 3 + oov, 0, 2});

  auto ints = est::categorical_column_with_vocabulary_list("n", std::vector<std::int64_t>{10, 20, 30}, {.num_oov_buckets = 2});
  const auto int_oov = static_cast<std::int64_t>(layers::preprocessing::fingerprint64("7") % 2);
  CHECK(ids_of(ints, {{"n", Tensor::from_vector<std::int64_t>({30, 7, 10}, {3})}}) ==
        std::vector<std::int64_t>{2, 3 + int_oov, 0});

  keras_test::TempDir dir("fc_vocab");
  { std::ofstream(dir / "colors.txt") << "red\ngreen\nblue\n"; }
  auto file = est::categorical_column_with_vocabulary_file("color", dir / "colors.txt");
  CHECK(ids_of(file, f) == ids_of(dropped, f));
  CHECK_THROWS_AS(est::categorical_column_with_vocabulary_file("color", dir / "missing.txt"), IOError);
  CHECK_THROWS_WITH(est::categorical_column_with_vocabulary_list("c", std::vector<std::string>{"a", "a"}), Catch::Contains("duplicates"));
}

TEST_CASE("identity and hash-bucket columns", "[estimator][feature_columns]") {
  auto identity = est::categorical_column_with_identity("id", 4);
  CHECK(ids_of(identity, {{"id", Tensor::from_vector<std::int64_t>({3, 0, 2}, {3})}}) == std::vector<std::int64_t>{3, 0, 2});
  CHECK_THROWS_WITH(identity->ids({{"id", Tensor::from_vector<std::int64_t>({4}, {1})}}), Catch::Contains("outside [0, 4)"));
  auto with_default = est::categorical_column_with_identity("id", 4, 0);
  CHECK(ids_of(with_default, {{"id", Tensor::from_vector<std::int64_t>({5, 1}, {2})}}) == std::vector<std::int64_t>{0, 1});

  // tf.strings.to_hash_bucket_fast: FarmHash Fingerprint64 mod n; integers hash their decimal text.
  auto hashed = est::categorical_column_with_hash_bucket("w", 1000);
  const std::vector<std::string> words{"the", "estimator", "", "日本"};
  std::vector<std::int64_t> expected;
  for (const auto& w : words) expected.push_back(static_cast<std::int64_t>(layers::preprocessing::fingerprint64(w) % 1000));
  CHECK(ids_of(hashed, {{"w", strings(words)}}) == expected);
  CHECK(ids_of(hashed, {{"w", Tensor::from_vector<std::int64_t>({42, -3}, {2})}}) ==
        std::vector<std::int64_t>{static_cast<std::int64_t>(layers::preprocessing::fingerprint64("42") % 1000),
                                  static_cast<std::int64_t>(layers::preprocessing::fingerprint64("-3") % 1000)});
  // The tf.keras.layers.Hashing documentation's example: num_bins=3 on A..E gives 1, 0, 1, 1, 2.
  auto three = est::categorical_column_with_hash_bucket("w", 3);
  CHECK(ids_of(three, {{"w", strings({"A", "B", "C", "D", "E"})}}) == std::vector<std::int64_t>{1, 0, 1, 1, 2});
}

TEST_CASE("crossed_column equals HashedCrossing on raw values and categorical ids", "[estimator][feature_columns]") {
  const Tensor a = strings({"x", "y", "x", "z"});
  const Tensor v = Tensor::from_vector<float>({0.5f, 2.f, 3.f, -1.f}, {4});
  auto bucket = est::bucketized_column(est::numeric_column("v"), {1.0, 2.5});
  auto cross = est::crossed_column({std::string("a"), bucket}, 50);
  CHECK(cross->name() == "a_X_v_bucketized");
  CHECK(cross->num_buckets() == 50);
  layers::HashedCrossing reference(50);
  const Tensor bucket_ids = bucket->ids({{"v", v.reshape({4, 1})}});
  const Tensor expected = reference.call_all({a.reshape({4, 1}), bucket_ids})[0];
  CHECK(ids_of(cross, {{"a", a}, {"v", v.reshape({4, 1})}}) == expected.astype(DType::int64).reshape({4}).to_vector<std::int64_t>());
  CHECK_THROWS_WITH(est::crossed_column({std::string("a"), est::categorical_column_with_hash_bucket("b", 10)}, 5),
                    Catch::Contains("hash_bucket"));
}

TEST_CASE("indicator_column is a one-hot, multi-hot over several ids, zero for a dropped value", "[estimator][feature_columns]") {
  auto voc = est::categorical_column_with_vocabulary_list("c", std::vector<std::string>{"a", "b", "c"});
  auto ind = est::indicator_column(voc);
  CHECK(ind->name() == "c_indicator");
  const Tensor t = data::Component::strings({"a", "c", "c", "c", "q", "b"}, {3, 2}).tensor();
  CHECK(ind->dense({{"c", t}}, {}).to_vector<float>() == std::vector<float>{1, 0, 1, 0, 0, 2, 0, 1, 0});
  CHECK_THROWS_WITH(est::indicator_column(est::numeric_column("x")), Catch::Contains("needs a categorical column"));
}

TEST_CASE("embedding_column combines table rows and trains through DenseFeatures", "[estimator][feature_columns]") {
  auto voc = est::categorical_column_with_identity("id", 3);
  auto mean = est::embedding_column(voc, 2);
  auto sum = est::embedding_column(voc, 2, {.combiner = "sum"});
  auto sqrtn = est::embedding_column(voc, 2, {.combiner = "sqrtn"});
  const Tensor table = Tensor::from_vector<float>({1, 2, 10, 20, 100, 200}, {3, 2});
  const est::FeatureTensors f{{"id", Tensor::from_vector<std::int64_t>({0, 2, 1, 1}, {2, 2})}};
  CHECK(mean->dense(f, table).to_vector<float>() == std::vector<float>{50.5f, 101.f, 10.f, 20.f});
  CHECK(sum->dense(f, table).to_vector<float>() == std::vector<float>{101.f, 202.f, 20.f, 40.f});
  const auto r = sqrtn->dense(f, table).to_vector<float>();
  CHECK(r[0] == Approx(101.0 / std::sqrt(2.0)));
  CHECK(r[2] == Approx(20.0 / std::sqrt(2.0)));
  CHECK(mean->weight_stddev() == Approx(1.0 / std::sqrt(2.0)));
  // One id per example: the Embedding layer's lookup with the same table.
  layers::Embedding lookup(3, 2);
  const Tensor single = Tensor::from_vector<std::int64_t>({2, 0, 1}, {3, 1});
  lookup(single);  // builds it
  lookup.set_weights({table});
  CHECK(mean->dense({{"id", single}}, table).to_vector<float>() == lookup(single).reshape({3, 2}).to_vector<float>());

  // In DenseFeatures: columns by name (id_embedding before x), the table is a trainable weight.
  est::DenseFeatures layer({est::numeric_column("x"), mean});
  CHECK(layer.input_keys() == std::vector<std::string>{"id", "x"});
  const est::FeatureTensors batch{{"id", Tensor::from_vector<std::int64_t>({2, 0}, {2, 1})},
                                  {"x", Tensor::from_vector<float>({7.f, 8.f}, {2, 1})}};
  const Tensor out = layer(batch);
  REQUIRE(out.shape() == Shape{2, 3});
  REQUIRE(layer.trainable_weights().size() == 1);
  const auto w = layer.trainable_weights()[0]->value().to_vector<float>();
  CHECK(out.to_vector<float>() == std::vector<float>{w[4], w[5], 7.f, w[0], w[1], 8.f});
  GradientTape tape;
  const Tensor y = layer(batch);
  const Tensor g = tape.gradient(ops::sum(y), layer.trainable_weights())[0];
  CHECK(g.to_vector<float>() == std::vector<float>{1, 1, 0, 0, 1, 1});
  CHECK_THROWS_WITH(est::DenseFeatures({voc}), Catch::Contains("wrap it with embedding_column or indicator_column"));
  CHECK_THROWS_WITH(layer(est::FeatureTensors{{"x", batch.at("x")}}), Catch::Contains("no feature 'id'"));
  const est::Features symbolic{{"x", Input({1})}};
  CHECK_THROWS_WITH(est::input_layer(symbolic, {mean}), Catch::Contains("read feature 'id', which the features do not have"));
}
