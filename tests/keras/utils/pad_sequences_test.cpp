// keras::utils::pad_sequences: Keras's docstring examples, PyTorch's pad_sequence as the reference for
// every padding/truncating/maxlen/value/dtype case (tests/golden/make_utils_golden.py), samples with a
// shape, and bad options.
#include <catch2/catch.hpp>

#include "golden.hpp"

using namespace keras;
using utils::pad_sequences;

TEST_CASE("pad_sequences reproduces Keras's docstring examples", "[utils]") {
  const std::vector<std::vector<int>> sequence{{1}, {2, 3}, {4, 5, 6}};
  auto ints = [](const Tensor& t) {
    REQUIRE(t.dtype() == DType::int32);
    REQUIRE(t.shape()[0] == 3);
    return t.to_vector<std::int32_t>();
  };
  CHECK(ints(pad_sequences(sequence)) == std::vector<std::int32_t>{0, 0, 1, 0, 2, 3, 4, 5, 6});
  CHECK(ints(pad_sequences(sequence, {.value = -1})) == std::vector<std::int32_t>{-1, -1, 1, -1, 2, 3, 4, 5, 6});
  CHECK(ints(pad_sequences(sequence, {.padding = "post"})) == std::vector<std::int32_t>{1, 0, 0, 2, 3, 0, 4, 5, 6});
  CHECK(ints(pad_sequences(sequence, {.maxlen = 2})) == std::vector<std::int32_t>{0, 1, 2, 3, 5, 6});
}

TEST_CASE("pad_sequences equals PyTorch's pad_sequence for every option", "[utils]") {
  const json g = keras::testing::load_golden("utils.json")["pad_sequences"];
  const auto seqs = g["sequences"].get<std::vector<std::vector<std::int64_t>>>();
  for (const auto& c : g["cases"]) {
    utils::PadSequencesOptions o{.dtype = c["dtype"].get<std::string>(), .padding = c["padding"].get<std::string>(),
                                 .truncating = c["truncating"].get<std::string>(), .value = c["value"].get<double>()};
    if (!c["maxlen"].is_null()) o.maxlen = c["maxlen"].get<std::int64_t>();
    INFO(c.dump().substr(0, 120));
    const Tensor got = pad_sequences(seqs, o);
    CHECK(dtype_name(got.dtype()) == o.dtype);
    CHECK(got.shape() == c["output"]["shape"].get<Shape>());
    CHECK(got.astype(DType::float32).to_vector<float>() == c["output"]["data"].get<std::vector<float>>());
  }
}

TEST_CASE("pad_sequences keeps each time step's shape", "[utils]") {
  const std::vector<Tensor> seqs{Tensor::from_vector<float>({1, 2, 3, 4}, {2, 2}), Tensor::zeros({0, 2}),
                                 Tensor::from_vector<float>({5, 6, 7, 8, 9, 10}, {3, 2})};
  const Tensor out = pad_sequences(seqs, {.maxlen = 2, .dtype = "float32", .padding = "post", .value = -1});
  CHECK(out.shape() == Shape{3, 2, 2});
  CHECK(out.to_vector<float>() == std::vector<float>{1, 2, 3, 4, -1, -1, -1, -1, 7, 8, 9, 10});
  const std::vector<Tensor> mixed{Tensor::zeros({2, 2}), Tensor::zeros({2, 3})};
  CHECK_THROWS_WITH(pad_sequences(mixed), Catch::Contains("sequence 1 has samples of shape"));
}

TEST_CASE("pad_sequences refuses bad options", "[utils]") {
  const std::vector<std::vector<int>> s{{1, 2}};
  CHECK_THROWS_WITH(pad_sequences(s, {.maxlen = -1}), Catch::Contains("maxlen must be >= 0"));
  CHECK_THROWS_WITH(pad_sequences(s, {.padding = "middle"}), Catch::Contains("padding must be"));
  CHECK_THROWS_WITH(pad_sequences(s, {.truncating = "both"}), Catch::Contains("truncating must be"));
  CHECK_THROWS_AS(pad_sequences(s, {.dtype = "complex64"}), ValueError);
}

TEST_CASE("pad_sequences pads string sequences (dtype object or str) and keeps float64", "[utils]") {
  using Strings = std::vector<std::string>;
  const std::vector<Strings> words{{"a"}, {"b", "c"}, {"d", "e", "f"}};
  // Keras: pad_sequences(words, dtype=object, value="<pad>", padding="post", maxlen=2, truncating="post").
  const Tensor t = pad_sequences(words, {.maxlen = 2, .dtype = "object", .padding = "post", .truncating = "post",
                                         .string_value = "<pad>"});
  REQUIRE(t.dtype() == DType::string);
  CHECK(t.shape() == Shape{3, 2});
  CHECK(t.to_vector<std::string>() == Strings{"a", "<pad>", "b", "c", "d", "e"});
  CHECK(pad_sequences(words, {.dtype = "str"}).to_vector<std::string>() ==
        Strings{"", "", "a", "", "b", "c", "d", "e", "f"});
  // Strings with a numeric dtype (Keras's "dtype is not compatible with value") and numbers with a string dtype.
  CHECK_THROWS_AS(pad_sequences(words), ValueError);
  CHECK_THROWS_WITH(pad_sequences(words), Catch::Contains("object"));
  CHECK_THROWS_WITH(pad_sequences(std::vector<std::vector<int>>{{1}}, {.dtype = "object"}), Catch::Contains("numeric"));

  // float64: values that float32 would round stay exact, and the padding value is a double too.
  const std::vector<std::vector<double>> reals{{0.1 + 1e-12}, {1.0 / 3, 2e-300}};
  const Tensor d = pad_sequences(reals, {.dtype = "float64", .value = 0.25});
  REQUIRE(d.dtype() == DType::float64);
  CHECK(d.to_vector<double>() == std::vector<double>{0.25, 0.1 + 1e-12, 1.0 / 3, 2e-300});
  // float64 sequences into Keras's default int32 are cut as NumPy's astype.
  CHECK(pad_sequences(std::vector<std::vector<double>>{{1.9, -2.7}}).to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{1, -2});
}
