// Fuzzes TF.js model.json reading (keras::models::load_tfjs): topology, weights manifest, shard
// slicing and dequantization, against a fixed 4 KiB shard file of pseudo-random bytes.
#include <filesystem>

#include "fuzz_input.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string dir = [] {
    const std::string d = "/dev/shm/kerascpp_fuzz_tfjs_" + std::to_string(::getpid());
    std::filesystem::create_directories(d);
    std::ofstream shard(d + "/group1-shard1of1.bin", std::ios::binary);
    for (unsigned i = 0; i < 4096; ++i) shard.put(static_cast<char>((i * 2654435761u) >> 24));
    return d;
  }();
  {
    std::ofstream out(dir + "/model.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  return keras_fuzz::run([&] { (void)keras::models::load_tfjs(dir + "/model.json"); });
}
