// keras::utils::text_dataset_from_directory: Keras's indexing (class subfolders, .txt only, nested
// folders), labels in each label_mode, max_length in bytes, the seeded split, and clear errors.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "datasets/text_directory.hpp"
#include "keras/errors.hpp"
#include "temp_dir.hpp"

using namespace keras;

namespace {

// root/neg: 2 texts, root/pos: 3 texts (one nested, one with an upper-case extension), plus non-.txt files.
void make_tree(const keras_test::TempDir& root) {
  namespace fs = std::filesystem;
  fs::create_directories(root.path() / "neg");
  fs::create_directories(root.path() / "pos" / "more");
  std::ofstream(root / "neg/a.txt") << "awful film";
  std::ofstream(root / "neg/b.txt") << "dull";
  std::ofstream(root / "pos/c.txt") << "great fun\nsecond line";
  std::ofstream(root / "pos/D.TXT") << "superb";
  std::ofstream(root / "pos/more/e.txt") << "lovely, \xc3\xa9l\xc3\xa9gant";
  std::ofstream(root / "pos/notes.md") << "not a text sample";
  std::ofstream(root / "readme.txt") << "at the top: not in a class folder";
}

// text -> label over a whole dataset of (texts, labels) batches.
std::map<std::string, std::vector<float>> contents(const data::Dataset& ds) {
  std::map<std::string, std::vector<float>> out;
  for (const data::Element& e : ds) {
    const auto& texts = e[0].leaf().string_values();
    const Tensor y = e[1].leaf().tensor().astype(DType::float32);
    const auto ys = y.to_vector<float>();
    const std::size_t per = ys.size() / texts.size();
    for (std::size_t i = 0; i < texts.size(); ++i) out[texts[i]] = std::vector<float>(ys.begin() + long(i * per), ys.begin() + long((i + 1) * per));
  }
  return out;
}

}  // namespace

TEST_CASE("text_dataset_from_directory: classes, int/categorical/binary labels, batches of strings", "[data][text]") {
  keras_test::TempDir root("text_dir");
  make_tree(root);
  const std::string dir = root.path().string();
  const auto ds = utils::text_dataset_from_directory(dir, {.batch_size = 2, .seed = 1});
  CHECK(ds.class_names == std::vector<std::string>{"neg", "pos"});
  CHECK(ds.file_paths.size() == 5);
  const std::map<std::string, std::vector<float>> want{{"awful film", {0}}, {"dull", {0}}, {"great fun\nsecond line", {1}},
                                                       {"superb", {1}}, {"lovely, \xc3\xa9l\xc3\xa9gant", {1}}};
  CHECK(contents(ds) == want);
  std::vector<Shape> shapes;
  for (const data::Element& e : ds) {
    shapes.push_back(e[0].leaf().shape());
    CHECK(e[0].leaf().is_string());
    CHECK(e[1].leaf().tensor().dtype() == DType::int32);
  }
  CHECK(shapes == std::vector<Shape>{{2}, {2}, {1}});

  const auto cat = contents(utils::text_dataset_from_directory(dir, {.label_mode = "categorical", .shuffle = false}));
  CHECK(cat.at("dull") == std::vector<float>{1, 0});
  CHECK(cat.at("superb") == std::vector<float>{0, 1});
  const auto bin = utils::text_dataset_from_directory(dir, {.label_mode = "binary", .batch_size = 8, .shuffle = false});
  const data::Element e = *bin.begin();
  CHECK(e[1].leaf().shape() == Shape{5, 1});
  CHECK(e[1].leaf().tensor().to_vector<float>() == std::vector<float>{0, 0, 1, 1, 1});
  // Unshuffled order is Keras's: class folders, then by folder and name (uppercase sorts first).
  CHECK(e[0].leaf().string_values() ==
        std::vector<std::string>{"awful film", "dull", "superb", "great fun\nsecond line", "lovely, \xc3\xa9l\xc3\xa9gant"});
}

TEST_CASE("text_dataset_from_directory: no labels, max_length in bytes, unbatched", "[data][text]") {
  keras_test::TempDir root("text_dir");
  make_tree(root);
  const auto ds = utils::text_dataset_from_directory(root.path().string(),
                                                     {.labels = "", .batch_size = 0, .max_length = 4, .shuffle = false});
  std::vector<std::string> texts;
  for (const data::Element& e : ds) {
    REQUIRE(e.is_leaf());
    CHECK(e.leaf().shape().empty());
    texts.push_back(e.leaf().str());
  }
  CHECK(texts == std::vector<std::string>{"at t", "awfu", "dull", "supe", "grea", "love"});  // the top folder first
  CHECK(ds.class_names.empty());
}

TEST_CASE("text_dataset_from_directory: a seeded training/validation split is disjoint and reproducible", "[data][text]") {
  keras_test::TempDir root("text_dir");
  make_tree(root);
  const std::string dir = root.path().string();
  auto train = utils::text_dataset_from_directory(dir, {.seed = 9, .validation_split = 0.4, .subset = "training"});
  auto val = utils::text_dataset_from_directory(dir, {.seed = 9, .validation_split = 0.4, .subset = "validation"});
  CHECK(train.file_paths.size() == 3);
  CHECK(val.file_paths.size() == 2);
  std::set<std::string> both(train.file_paths.begin(), train.file_paths.end());
  both.insert(val.file_paths.begin(), val.file_paths.end());
  CHECK(both.size() == 5);
  CHECK(contents(train).size() == 3);
  auto again = utils::text_dataset_from_directory(dir, {.seed = 9, .validation_split = 0.4, .subset = "training"});
  CHECK(again.file_paths == train.file_paths);
}

TEST_CASE("text_dataset_from_directory: clear errors", "[data][text]") {
  keras_test::TempDir root("text_dir");
  make_tree(root);
  const std::string dir = root.path().string();
  using utils::text_dataset_from_directory;
  CHECK_THROWS_AS(text_dataset_from_directory(dir + "/missing"), IOError);
  CHECK_THROWS_WITH(text_dataset_from_directory(dir + "/missing"), Catch::Contains("is not a folder"));
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.label_mode = "sparse"}), Catch::Contains("label_mode must be one of"));
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.class_names = {"neg", "neutral"}}), Catch::Contains("do not match the subfolders"));
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.validation_split = 0.2, .subset = "training"}), Catch::Contains("give a seed"));
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.max_length = -1}), Catch::Contains("max_length must be >= 0"));
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.labels = "", .label_list = {0, 1}}), Catch::Contains("label_list has 2 labels"));
  std::filesystem::create_directories(root.path() / "empty" / "x");
  CHECK_THROWS_WITH(text_dataset_from_directory(dir + "/empty"), Catch::Contains("no text files found"));
  std::filesystem::create_directories(root.path() / "three");
  CHECK_THROWS_WITH(text_dataset_from_directory(dir, {.label_mode = "binary"}), Catch::Contains("needs exactly 2 classes"));
}
