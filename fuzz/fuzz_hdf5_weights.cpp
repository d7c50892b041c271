// Fuzzes weights-only HDF5 loading (Model::load_weights) into a fixed model, by position and by name.
#include "fuzz_input.hpp"
#include "keras/keras.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static keras::Sequential model({keras::layers::Input({8}), keras::layers::Dense(4), keras::layers::Dense(2)});
  const std::string path = keras_fuzz::as_file(data, size, ".weights.h5");
  return keras_fuzz::run([&] {
    model.load_weights(path);
    model.load_weights(path, {.by_name = true, .skip_mismatch = true});
  });
}
