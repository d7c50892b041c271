// Fuzzes TFRecord framing (lengths, masked CRC-32C, truncation; plain and GZIP — the first input byte
// picks which) and then tf.train.Example decoding of every record that passes its CRCs.
#include "data/example_parsing.hpp"
#include "data/tfrecord_dataset.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace keras::data;
  if (size == 0) return 0;
  const bool gzip = data[0] & 1;
  const std::string path = keras_fuzz::as_file(data + 1, size - 1, gzip ? ".tfrecord.gz" : ".tfrecord");
  return keras_fuzz::run([&] {
    int n = 0;
    for (const Element& record : TFRecordDataset(path, {.compression_type = gzip ? "GZIP" : ""})) {
      keras_fuzz::run([&] { (void)decode_example(record.leaf().str()); });
      if (++n == 256) break;
    }
  });
}
