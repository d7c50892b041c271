// Fuzzes tf.train.Example decoding (the protobuf wire format) and parse_single_example's checks of
// fixed-length, variable-length and defaulted features against what the bytes hold.
#include "data/example_parsing.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace keras::data;
  static const FeatureMap features = {
      {"image", FixedLenFeature{{2, 3}, "float32"}},
      {"label", FixedLenFeature{{}, "int64", Component(keras::Tensor::full({}, 9, keras::DType::int64))}},
      {"name", FixedLenFeature{{}, "string", Component(std::string("none"))}},
      {"words", VarLenFeature{"string"}},
      {"scores", VarLenFeature{"float32"}}};
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  keras_fuzz::run([&] { (void)decode_example(bytes); });
  return keras_fuzz::run([&] { (void)parse_single_example(bytes, features); });
}
