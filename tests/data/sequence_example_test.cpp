// tf.train.Example / SequenceExample: bytes from Python's protobuf parsed (VarLenFeature as a sparse
// tensor, FixedLenSequenceFeature, parse_single_sequence_example), and the encoders' bytes equal Python's.
#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "data/example_parsing.hpp"
#include "golden.hpp"

using namespace keras;
using namespace keras::data;
using I = std::vector<std::int64_t>;

namespace {
std::string unhex(const std::string& h) {
  std::string out;
  for (std::size_t i = 0; i < h.size(); i += 2) out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}
I ints(const Element& e) { return e.leaf().tensor().astype(DType::int64).to_vector<std::int64_t>(); }
}  // namespace

TEST_CASE("VarLenFeature parses into a sparse tensor (indices, values, dense_shape) as tf's", "[data][example]") {
  const json g = keras::testing::load_golden("sequence_examples.json");
  const std::string ex = unhex(g["example_hex"]);
  Element e = parse_single_example(ex, {{"age", VarLenFeature{"int64"}}, {"tags", VarLenFeature{"string"}}, {"missing", VarLenFeature{"float32"}}});
  REQUIRE(SparseTensor::is_sparse(e["age"]));
  const SparseTensor age = SparseTensor::from_element(e["age"]);
  CHECK(age.indices.shape() == Shape{2, 1});
  CHECK(age.indices.to_vector<std::int64_t>() == I{0, 1});
  CHECK(age.values.tensor().to_vector<std::int64_t>() == g["example"]["age"].get<I>());
  CHECK(age.dense_shape.to_vector<std::int64_t>() == I{2});
  CHECK(SparseTensor::from_element(e["tags"]).values.string_values() == std::vector<std::string>{"a", "bc"});
  const SparseTensor missing = SparseTensor::from_element(e["missing"]);
  CHECK(missing.indices.shape() == Shape{0, 1});
  CHECK(missing.dense_shape.to_vector<std::int64_t>() == I{0});

  // A batch: indices (row, position), dense_shape (batch, longest); to_dense pads with the default.
  auto short_one = make_example(named({{"age", Tensor::from_vector<std::int64_t>({7})}}));
  Element batch = parse_example(Component::strings({ex, short_one}, {2}), {{"age", VarLenFeature{"int64"}}});
  const SparseTensor b = SparseTensor::from_element(batch["age"]);
  CHECK(b.indices.to_vector<std::int64_t>() == I{0, 0, 0, 1, 1, 0});
  CHECK(b.values.tensor().to_vector<std::int64_t>() == I{29, -3, 7});
  CHECK(b.dense_shape.to_vector<std::int64_t>() == I{2, 2});
  CHECK(b.to_dense(-1).tensor().to_vector<std::int64_t>() == I{29, -3, 7, -1});
  // Parsing the batch row by row and batching gives a ragged result: that is what the sparse form is for.
  CHECK_THROWS_WITH(SparseTensor::from_element(batch), Catch::Contains("Expected a sparse tensor"));
}

TEST_CASE("FixedLenSequenceFeature parses groups of values, padded in a batch", "[data][example]") {
  const json g = keras::testing::load_golden("sequence_examples.json");
  const std::string ex = unhex(g["example_hex"]);
  Element e = parse_single_example(ex, {{"scores", FixedLenSequenceFeature{{2}, "float32", true}},
                                        {"nothing", FixedLenSequenceFeature{{2}, "float32", true}}});
  CHECK(e["scores"].leaf().shape() == Shape{2, 2});
  CHECK(e["scores"].leaf().tensor().to_vector<float>() == g["example"]["scores"].get<std::vector<float>>());
  CHECK(e["nothing"].leaf().shape() == Shape{0, 2});
  auto short_one = make_example(named({{"scores", Tensor::from_vector<float>({9.f, 8.f})}}));
  Element batch = parse_example(Component::strings({ex, short_one}, {2}), {{"scores", FixedLenSequenceFeature{{2}, "float32", true, -1.0}}});
  CHECK(batch["scores"].leaf().shape() == Shape{2, 2, 2});
  CHECK(batch["scores"].leaf().tensor().to_vector<float>() == std::vector<float>{0.5f, 1.25f, -2.f, 4.f, 9.f, 8.f, -1.f, -1.f});
  CHECK_THROWS_WITH(parse_single_example(ex, {{"scores", FixedLenSequenceFeature{{3}, "float32", true}}}),
                    Catch::Contains("4 values do not split into rows of shape (3,)"));
  CHECK_THROWS_WITH(parse_single_example(ex, {{"scores", FixedLenSequenceFeature{{2}, "float32"}}}),
                    Catch::Contains("needs allow_missing = true"));
}

TEST_CASE("parse_single_sequence_example reads context and feature lists Python's protobuf wrote", "[data][example]") {
  const json g = keras::testing::load_golden("sequence_examples.json");
  const std::string bytes = unhex(g["sequence_example_hex"]);
  auto [context, seq] = parse_single_sequence_example(
      bytes, {{"length", FixedLenFeature{{}, "int64"}}, {"name", FixedLenFeature{{}, "string"}}},
      {{"frames", FixedLenSequenceFeature{{2}, "float32"}}, {"tokens", VarLenFeature{"int64"}}});
  CHECK(ints(context["length"]) == I{3});
  CHECK(context["name"].leaf().str() == "seq");
  CHECK(seq["frames"].leaf().shape() == Shape{3, 2});
  CHECK(seq["frames"].leaf().tensor().to_vector<float>() == std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f});
  const SparseTensor tokens = SparseTensor::from_element(seq["tokens"]);
  CHECK(tokens.indices.to_vector<std::int64_t>() == I{0, 0, 0, 1, 1, 0});
  CHECK(tokens.values.tensor().to_vector<std::int64_t>() == I{1, 2, 3});
  CHECK(tokens.dense_shape.to_vector<std::int64_t>() == I{3, 2});
  auto dense = parse_single_sequence_example(bytes, {}, {{"tokens", VarLenFeature{.dtype = "int64", .to_dense = true}}}).second;
  CHECK(ints(dense["tokens"]) == I{1, 2, 3, 0, 0, 0});

  CHECK_THROWS_WITH(parse_single_sequence_example(bytes, {}, {{"absent", FixedLenSequenceFeature{{2}, "float32"}}}),
                    Catch::Contains("'absent' is missing from the SequenceExample's feature_lists"));
  CHECK(parse_single_sequence_example(bytes, {}, {{"absent", FixedLenSequenceFeature{{2}, "float32", true}}}).second["absent"].leaf().shape() ==
        Shape{0, 2});
  CHECK_THROWS_WITH(parse_single_sequence_example(bytes, {}, {{"frames", FixedLenSequenceFeature{{3}, "float32"}}}),
                    Catch::Contains("step 0: FixedLenSequenceFeature of shape (3,) needs 3 values, the step has 2"));
  CHECK_THROWS_WITH(parse_single_sequence_example(bytes, {}, {{"frames", FixedLenFeature{{2}, "float32"}}}),
                    Catch::Contains("belongs in context_features"));
  CHECK_THROWS_AS(parse_single_sequence_example(bytes.substr(0, 20), {}, {}), IOError);
}

TEST_CASE("encode_example, make_example and encode_sequence_example write Python's bytes", "[data][example]") {
  const json g = keras::testing::load_golden("sequence_examples.json");
  std::map<std::string, ExampleFeature> features = {{"age", ExampleFeature::int64_list({29, -3})},
                                                    {"scores", ExampleFeature::float_list({0.5f, 1.25f, -2.f, 4.f})},
                                                    {"tags", ExampleFeature::bytes_list({"a", "bc"})},
                                                    {"empty", ExampleFeature::float_list({})}};
  CHECK(encode_example(features) == unhex(g["example_hex"]));
  const std::string made = make_example(named({{"age", Tensor::from_vector<std::int64_t>({29, -3})},
                                               {"scores", Tensor::from_vector<float>({0.5f, 1.25f, -2.f, 4.f}, {2, 2})},
                                               {"tags", Component::strings({"a", "bc"}, {2})},
                                               {"empty", Tensor::zeros({0})}}));
  CHECK(made == unhex(g["example_hex"]));
  SequenceExampleFeatures seq;
  seq.context = {{"length", ExampleFeature::int64_list({3})}, {"name", ExampleFeature::bytes_list({"seq"})}};
  seq.feature_lists["tokens"] = {ExampleFeature::int64_list({1, 2}), ExampleFeature::int64_list({3}), ExampleFeature::int64_list({})};
  seq.feature_lists["frames"] = {ExampleFeature::float_list({0.5f, 1.5f}), ExampleFeature::float_list({2.5f, 3.5f}),
                                 ExampleFeature::float_list({4.5f, 5.5f})};
  CHECK(encode_sequence_example(seq) == unhex(g["sequence_example_hex"]));
  const auto back = decode_sequence_example(encode_sequence_example(seq));
  CHECK(back.feature_lists.at("tokens").size() == 3);
  CHECK_THROWS_WITH(make_example(Element(Tensor::zeros({2}))), Catch::Contains("make_example needs named components"));
}
