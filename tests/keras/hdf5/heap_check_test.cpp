// Files whose global heap (where h5py's variable-length string attributes live) is corrupt must be refused
// before HDF5 1.10 reads them: it copies a corrupt object size's worth of bytes (found by fuzz_hdf5_model,
// a segfault) and loops forever on a zero size.
#include "keras/hdf5/heap_check.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

#include "keras/keras.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
using Catch::Matchers::Contains;

namespace {

const std::string kFixture = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/tf2.13_mlp_adam.h5";

/// A copy of the fixture with 8-byte values written at offsets from its (only) global heap collection.
std::string with_heap_bytes(const keras_test::TempDir& dir, const std::string& name,
                            std::initializer_list<std::pair<std::size_t, std::uint64_t>> writes) {
  std::ifstream in(kFixture, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = bytes.find(std::string("GCOL\x01\x00\x00\x00", 8));
  REQUIRE(at != std::string::npos);
  for (auto [offset, value] : writes) std::memcpy(bytes.data() + at + offset, &value, 8);  // little-endian, as HDF5
  const std::string path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("a file whose global heap objects do not tile the heap is refused, naming the file") {
  if (!std::filesystem::exists(kFixture)) {
    WARN("skipped: " << kFixture << " is absent (it is beside the project in CI)");
    return;
  }
  keras_test::TempDir dir("heap_check");
  CHECK_NOTHROW(hdf5::check_global_heaps(kFixture));
  CHECK(models::load_model(kFixture)->count_params() > 0);
  // Header: "GCOL", version, 3 reserved, size (8 bytes); then the first object: index, refcount, reserved, size.
  const std::string huge = with_heap_bytes(dir, "huge_object.h5", {{24, 0x7fffffffffffULL}});
  const std::string zero = with_heap_bytes(dir, "zero_size.h5", {{16, 0}, {24, 0}});  // free space of size 0
  const std::string tiny = with_heap_bytes(dir, "tiny_heap.h5", {{8, 4}});  // a heap smaller than its header
  for (const auto& path : {huge, zero, tiny}) {
    CHECK_THROWS_WITH(models::load_model(path), Contains(path) && Contains("global heap"));
    CHECK_THROWS_AS(models::load_model(path), IOError);
  }
  auto model = models::load_model(kFixture);
  CHECK_THROWS_WITH(model->load_weights(huge), Contains("global heap"));
}
