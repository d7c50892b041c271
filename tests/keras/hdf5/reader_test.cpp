// kerascpp reads HDF5 files with a version 0/1 superblock itself (keras/hdf5/reader.hpp). Every
// group, dataset and string attribute it reads must equal what the HDF5 library reads from the same file:
// the real Keras fixtures, and files h5py wrote with every numeric type, both layouts and both group kinds
// (tests/golden/make_hdf5_reader_golden.py). Damaged files are an IOError, never a crash.
#include "keras/hdf5/reader.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <hdf5.h>

#include "keras/keras.hpp"
#include "keras/hdf5/file.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

using namespace keras;
using Catch::Matchers::Contains;

namespace {

const std::string kGolden = std::string(keras_test::golden_dir) + "/hdf5_reader/";
const std::string kFixtures = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/";

std::string text(const Tensor& t) {
  std::string s = shape_str(t.shape());
  if (t.dtype() == DType::float32)
    for (float v : t.to_vector<float>()) s += fmt::format(" {}", v);
  else
    for (auto v : t.to_vector<std::int64_t>()) s += fmt::format(" {}", v);
  return s;
}

/// What the HDF5 library reads: every member of every group, as "path" -> text, for comparison.
struct LibraryView {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;       // members
  std::vector<std::pair<std::string, std::string>> datasets;                  // text(values)
  std::vector<std::pair<std::string, std::vector<std::string>>> string_attrs;  // (group path@name, values)
  std::vector<std::string> other_attrs;
};

std::vector<std::string> library_strings(hid_t attr) {
  hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  std::vector<std::string> out;
  if (H5Tis_variable_str(type) > 0) {
    std::vector<char*> ptrs(n);
    hid_t mem = H5Tcopy(H5T_C_S1);
    H5Tset_size(mem, H5T_VARIABLE);
    H5Tset_cset(mem, H5Tget_cset(type));
    REQUIRE(H5Aread(attr, mem, ptrs.data()) >= 0);
    for (char* p : ptrs) out.emplace_back(p ? p : "");
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
    H5Tclose(mem);
  } else {
    const std::size_t size = H5Tget_size(type);
    std::vector<char> buf(size * n + 1, '\0');
    REQUIRE(H5Aread(attr, type, buf.data()) >= 0);
    for (std::size_t i = 0; i < n; ++i) out.emplace_back(buf.data() + i * size, strnlen(buf.data() + i * size, size));
  }
  H5Tclose(type);
  H5Sclose(space);
  return out;
}

void library_walk(hid_t group, const std::string& path, LibraryView& view) {
  H5G_info_t info;
  H5Gget_info(group, &info);
  std::vector<std::string> members;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[1024];
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    members.emplace_back(name);
  }
  view.groups.emplace_back(path, members);
  H5O_info_t o;
  H5Oget_info(group, &o);
  for (unsigned i = 0; i < o.num_attrs; ++i) {
    hid_t attr = H5Aopen_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, i, H5P_DEFAULT, H5P_DEFAULT);
    char name[1024];
    H5Aget_name(attr, sizeof name, name);
    hid_t type = H5Aget_type(attr);
    hid_t space = H5Aget_space(attr);
    if (H5Tget_class(type) == H5T_STRING)
      view.string_attrs.emplace_back(path + "@" + name, library_strings(attr));
    else if (H5Sget_simple_extent_npoints(space) > 0)  // an empty array of any type reads as no strings
      view.other_attrs.push_back(path + "@" + name);
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attr);
  }
  for (const auto& name : members) {
    const std::string child = path.empty() ? name : path + "/" + name;
    H5O_info_t ci;
    H5Oget_info_by_name(group, name.c_str(), &ci, H5P_DEFAULT);
    if (ci.type == H5O_TYPE_GROUP) {
      hid_t g = H5Gopen2(group, name.c_str(), H5P_DEFAULT);
      library_walk(g, child, view);
      H5Gclose(g);
      continue;
    }
    hid_t ds = H5Dopen2(group, name.c_str(), H5P_DEFAULT), space = H5Dget_space(ds), type = H5Dget_type(ds);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    const bool is_float = H5Tget_class(type) == H5T_FLOAT;
    Tensor t = Tensor::empty(Shape(dims.begin(), dims.end()), is_float ? DType::float32 : DType::int64);
    // The compressed dataset is read here (the library has zlib) and refused by kerascpp's reader.
    if (t.size()) H5Dread(ds, is_float ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.raw_data());
    view.datasets.emplace_back(child, text(t));
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(ds);
  }
}

LibraryView library_view(const std::string& path) {
  LibraryView view;
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  hid_t root = H5Gopen2(f, "/", H5P_DEFAULT);
  library_walk(root, "", view);
  H5Gclose(root);
  H5Fclose(f);
  return view;
}

/// Reads everything the library read through keras::hdf5 and compares; returns the number of values compared.
std::size_t compare_with_library(const std::string& path) {
  const LibraryView view = library_view(path);
  hdf5::File file = hdf5::File::open(path);
  hdf5::Group root = file.root();
  auto group = [&](const std::string& p) { return p.empty() ? file.root() : root.open_group(p); };
  std::size_t compared = 0;
  for (const auto& [p, members] : view.groups) {
    INFO(path << ": group " << p);
    CHECK(group(p).children() == members);
  }
  for (const auto& [p, expected] : view.datasets) {
    INFO(path << ": dataset " << p);
    if (p == "compressed" && hdf5::Reader::open(path)) {  // the HDF5 library reads it in other files
      CHECK_THROWS_WITH(root.read_dataset(p), Contains("compressed") && Contains(path));
      continue;
    }
    CHECK(text(root.read_dataset(p)) == expected);
    ++compared;
  }
  for (const auto& [key, expected] : view.string_attrs) {
    INFO(path << ": attribute " << key);
    const auto at = key.find('@');
    const hdf5::Group g = group(key.substr(0, at));
    CHECK(g.has_attr(key.substr(at + 1)));
    CHECK(g.string_list_attr(key.substr(at + 1)) == expected);
    ++compared;
  }
  for (const auto& key : view.other_attrs) {
    INFO(path << ": attribute " << key);
    const auto at = key.find('@');
    CHECK_THROWS_AS(group(key.substr(0, at)).string_list_attr(key.substr(at + 1)), IOError);
  }
  return compared;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Reads every group, dataset and attribute it can find; damage must be a keras::Error. (A damaged link
/// can point back to a parent group: `budget` bounds the walk.)
void read_everything(const hdf5::Group& g, int& budget) {
  for (const auto& name : g.children()) {
    if (--budget < 0) return;
    try {
      read_everything(g.open_group(name), budget);
    } catch (const IOError&) {
      (void)g.read_dataset(name);
    }
  }
  for (const char* attr : {"layer_names", "weight_names", "model_config", "keras_version", "backend"})
    if (g.has_attr(attr)) (void)g.string_list_attr(attr);
}

}  // namespace

TEST_CASE("kerascpp's HDF5 reader reads h5py's files (every type, layout and group kind) as the HDF5 library does") {
  const std::string path = kGolden + "variants.h5";
  REQUIRE(hdf5::Reader::open(path) != nullptr);  // superblock 0: kerascpp's reader
  CHECK(compare_with_library(path) > 300);
  hdf5::File f = hdf5::File::open(path);
  const hdf5::Group root = f.root();
  const std::vector<float> expected{-2.5f, -1.f, 0.f, 0.5f, 1.5f, 3.f};
  for (const char* name : {"floats/le_f2", "floats/le_f4", "floats/le_f8", "floats/be_f4", "floats/be_f8"}) {
    INFO(name);
    const Tensor t = root.read_dataset(name);
    CHECK(t.shape() == Shape{2, 3});
    CHECK(t.to_vector<float>() == expected);
  }
  CHECK(root.read_dataset("ints/le_i1").to_vector<std::int64_t>() == std::vector<std::int64_t>{-128, -1, 0, 1, 2, 127});
  CHECK(root.read_dataset("ints/be_i8").to_vector<std::int64_t>() == std::vector<std::int64_t>{-128, -1, 0, 1, 2, 127});
  CHECK(root.read_dataset("ints/be_u8").to_vector<std::int64_t>() == std::vector<std::int64_t>{128, 1, 0, 1, 2, 127});
  CHECK(root.read_dataset("scalar").shape().empty());
  CHECK(root.read_dataset("scalar").to_vector<float>() == std::vector<float>{7.25f});
  CHECK(root.read_dataset("compact").to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  CHECK(root.open_group("ordered").children() == std::vector<std::string>{"alpha", "mid", "zeta"});
  CHECK(root.open_group("many").children().size() == 300);
  CHECK(root.read_dataset("many/w299").to_vector<float>() == std::vector<float>{299});
  CHECK(root.open_group("a").string_list_attr("fixed_list") == std::vector<std::string>{"ab", "cde"});
  CHECK(root.open_group("a").string_attr("vlen") == "variable length");
  CHECK(root.string_attr("long").size() == 20'003);
  CHECK(root.has("a/b/c/deep"));
  CHECK_FALSE(root.has("a/b/missing"));
  CHECK_FALSE(root.has("scalar/below_a_dataset"));
  CHECK_THROWS_WITH(root.open_group("scalar"), Contains("not a group"));
}

TEST_CASE("files with a version 2/3 superblock (h5py libver='latest') are read by the HDF5 library, alike") {
  const std::string path = kGolden + "variants_latest.h5";
  CHECK(hdf5::Reader::open(path) == nullptr);
  CHECK(compare_with_library(path) > 300);
}

TEST_CASE("kerascpp's HDF5 reader reads every real Keras fixture as the HDF5 library does") {
  if (!std::filesystem::exists(kFixtures)) {
    WARN("skipped: " << kFixtures << " is absent (it is beside the project in CI)");
    return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(kFixtures)) {
    if (entry.path().extension() != ".h5") continue;
    INFO(entry.path());
    CHECK(compare_with_library(entry.path().string()) > 0);
  }
}

TEST_CASE("a truncated or bit-flipped HDF5 file is an IOError naming it, never a crash") {
  const std::string source = kGolden + "variants.h5";
  const std::string bytes = file_bytes(source);
  keras_test::TempDir dir("hdf5_reader");
  const std::string path = dir / "damaged.h5";
  auto attempt = [&](const std::string& content) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    try {
      hdf5::File f = hdf5::File::open(path);
      int budget = 1000;
      read_everything(f.root(), budget);
    } catch (const IOError& e) {
      CHECK_THAT(e.what(), Contains(path));
    }
  };
  for (std::size_t n = 0; n < bytes.size(); n += bytes.size() / 64) attempt(bytes.substr(0, n));
  // The metadata: the superblock, the root's object header, B-tree, heaps and the first datasets' headers.
  for (std::size_t i = 0; i < 6000; i += 3) {
    std::string flipped = bytes;
    flipped[i] = static_cast<char>(flipped[i] ^ (i % 2 ? 0xff : 0x10));
    attempt(flipped);
  }
}

TEST_CASE("fuzz findings inside HDF5 1.10 are refused by kerascpp's reader") {
  // fuzz_hdf5_weights: a variable-length string's global heap index past the heap's table (HDF5 1.10 reads
  // outside its object table). fuzz_hdf5_model: a string length of 4 GB (HDF5 1.10 allocates it).
  for (const char* name : {"hdf5_weights_heap_index.h5", "hdf5_model_string_length.h5"}) {
    const std::string path = std::string(keras_test::golden_dir) + "/fuzz_findings/" + name;
    INFO(path);
    CHECK_THROWS_WITH(models::load_model(path), Contains(path) && Contains("global heap"));
    auto model = Sequential({layers::Input({8}), layers::Dense(4), layers::Dense(2)});
    CHECK_THROWS_AS(model.load_weights(path), IOError);
  }
}
