// Fuzzes the idx (MNIST) reader, plain and gzip (keras::datasets::read_idx).
#include "datasets/idx.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const bool gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  const std::string path = keras_fuzz::as_file(data, size, gz ? ".idx.gz" : ".idx");
  return keras_fuzz::run([&] { (void)keras::datasets::read_idx(path); });
}
