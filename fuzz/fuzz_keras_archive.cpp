// Fuzzes .keras loading (keras::models::load_model on a zip archive): the zip reader's checks (names,
// sizes, checksums), config.json and compile_config, and the object-path weights inside. Models that load
// are run once on zeros.
#include "fuzz_input.hpp"
#include "keras/keras.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = keras_fuzz::as_file(data, size, ".keras");
  return keras_fuzz::run([&] {
    auto model = keras::models::load_model(path);
    if (auto shape = model->batch_input_shape(); shape && keras::shape_size(*shape) != 0) {
      keras::Shape s = *shape;
      for (auto& d : s) d = d < 0 ? 1 : d;
      if (keras::shape_size(s) < (1 << 20)) (void)model->predict(keras::Tensor::zeros(s));
    }
  });
}
