// Fuzzes the .npy reader (keras::utils::load_npy).
#include "fuzz_input.hpp"
#include "keras/utils/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = keras_fuzz::as_file(data, size, ".npy");
  return keras_fuzz::run([&] { (void)keras::utils::load_npy(path); });
}
