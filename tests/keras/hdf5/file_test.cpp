// keras::hdf5 reads only what a file holds: a dataset whose declared shape the file does not store is an
// IOError before any memory is allocated for it (tests/golden/make_bad_shape_h5.py wrote the file with h5py).
#include "keras/hdf5/file.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "keras/errors.hpp"
#include "test_paths.hpp"

using namespace keras;
using Catch::Matchers::Contains;

TEST_CASE("a dataset declaring more values than the file stores is refused before allocation") {
  const std::string path = std::string(keras_test::golden_dir) + "/fuzz_findings/declared_shapes.h5";
  hdf5::File f = hdf5::File::open(path);
  CHECK(f.root().read_dataset("w_ok").to_vector<float>() == std::vector<float>{1, 2, 3});
  CHECK_THROWS_AS(f.root().read_dataset("w_unstored"), IOError);
  CHECK_THROWS_WITH(f.root().read_dataset("w_unstored"), Contains("1000000000 values") && Contains("w_unstored"));
  CHECK_THROWS_WITH(f.root().read_dataset("w_huge"), Contains("impossibly large shape") && Contains("w_huge"));
}
