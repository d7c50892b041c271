// Dataset::save / load and snapshot: tf's documented save/load example, compression, shards, specs.
#include <atomic>
#include <filesystem>

#include <catch2/catch.hpp>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "test_util.hpp"

using namespace keras;
using namespace keras::data;
using namespace keras::data::testing;
namespace fs = std::filesystem;

TEST_CASE("save/load: tf's example saves range(2) and loads 0, 1 as int64 scalars", "[data][save]") {
  fs::remove_all("saved_data");
  Dataset::range(2).save("saved_data");
  auto loaded = Dataset::load("saved_data");
  CHECK(scalars(loaded) == std::vector<std::int64_t>{0, 1});
  CHECK(loaded.cardinality() == 2);
  CHECK(spec_str(loaded.element_spec()) == spec_str(Dataset::range(2).element_spec()));
  fs::remove_all("saved_data");
}

TEST_CASE("save/load: named components with strings, every compression, shards, spec checks", "[data][save]") {
  auto x = Tensor::from_vector<float>({0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}, {3, 2});
  auto ds = Dataset::from_tensor_slices(named({{"x", x}, {"name", Component::strings({"a", "bb", ""}, {3})}}));
  for (std::string compression : {"", "GZIP", "ZLIB"}) {
    INFO("compression " << compression);
    fs::remove_all("saved_named");
    ds.save("saved_named", {.compression = compression, .elements_per_shard = 2});
    CHECK(fs::exists("saved_named/shard_00000.tfrecord"));
    CHECK(fs::exists("saved_named/shard_00001.tfrecord"));
    auto loaded = Dataset::load("saved_named", {.element_spec = ds.element_spec()});
    std::vector<std::string> names;
    std::vector<float> xs;
    for (const Element& e : loaded) {
      names.push_back(e["name"].leaf().str());
      for (float v : e["x"].leaf().tensor().to_vector<float>()) xs.push_back(v);
    }
    CHECK(names == std::vector<std::string>{"a", "bb", ""});
    CHECK(xs == x.to_vector<float>());
    // A loaded dataset's iterator saves its position.
    auto it = loaded.make_iterator();
    it.get_next();
    it.get_next();
    const json state = it.save();
    auto again = loaded.make_iterator();
    again.restore(state);
    CHECK(again.get_next()["name"].leaf().str() == "");
  }
  CHECK_THROWS_WITH(Dataset::load("saved_named", {.element_spec = Dataset::range(1).element_spec()}),
                    Catch::Contains("load: the saved dataset's element_spec is"));
  fs::remove("saved_named/dataset_spec.json");
  CHECK_THROWS_WITH(Dataset::load("saved_named"), Catch::Contains("holds no saved dataset"));
  CHECK_THROWS_WITH(Dataset::range(3).repeat().save("saved_named"), Catch::Contains("save: the dataset is infinite"));
  CHECK_THROWS_WITH(Dataset::range(3).save("saved_named", {.compression = "SNAPPY"}), Catch::Contains("compression must be"));
  fs::remove_all("saved_named");
  // An empty dataset saves and loads as empty.
  Dataset::range(0).save("saved_empty");
  CHECK(scalars(Dataset::load("saved_empty")).empty());
  fs::remove_all("saved_empty");
}

TEST_CASE("snapshot: the first complete pass is written, later passes and programs read it", "[data][save]") {
  fs::remove_all("snap");
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto make = [calls] {
    return Dataset::range(5).map([calls](const Element& e) {
      ++*calls;
      return Element(Tensor::full({}, static_cast<double>(scalar(e) * 10), DType::int64));
    });
  };
  auto ds = make().snapshot("snap");
  // A partial pass leaves no snapshot.
  {
    auto it = ds.make_iterator();
    it.get_next();
  }
  CHECK_FALSE(fs::exists("snap/dataset_spec.json"));
  *calls = 0;
  CHECK(scalars(ds) == std::vector<std::int64_t>{0, 10, 20, 30, 40});
  CHECK(*calls == 5);
  CHECK(fs::exists("snap/dataset_spec.json"));
  CHECK(scalars(ds) == std::vector<std::int64_t>{0, 10, 20, 30, 40});
  CHECK(*calls == 5);  // read from the snapshot
  CHECK(scalars(make().snapshot("snap", {.compression = "NONE"})) == std::vector<std::int64_t>{0, 10, 20, 30, 40});
  CHECK(*calls == 5);  // a new pipeline at the same path reads it too
  CHECK(scalars(Dataset::load("snap")) == std::vector<std::int64_t>{0, 10, 20, 30, 40});
  fs::remove_all("snap");
}
