// Fuzzes Keras JSON model configs (keras::models::model_from_json): every layer's from_config, the
// Sequential and functional graph readers (Keras 2 and 3 schemas).
#include <string>

#include "fuzz_input.hpp"
#include "keras/keras.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  return keras_fuzz::run([&] {
    auto model = keras::models::model_from_json(text);
    (void)model->to_json();
  });
}
