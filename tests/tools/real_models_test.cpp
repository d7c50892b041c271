// Real model files written by real Keras (2.0.5 to 3.13, legacy HDF5 and .keras archives), gathered from
// public repositories: every one loads with keras::models::load_model and predicts the reference that the
// independent reader tools/read_keras_h5.py (h5py + NumPy) computed, within |ours - ref| <= tol * (1 + |ref|);
// where the author recorded a Fashion-MNIST test accuracy, it is reproduced to 4 decimals.
// tests/real_models/manifest.json lists the files (tests/real_models/make_references.py writes it). Files
// whose licence does not let the project commit them are looked for in $KERAS_REAL_MODELS_EXTRA and skipped
// with a warning when it is unset. Tags: [h5] for HDF5 files named .h5/.hdf5, [keras_archive] for files
// named .keras (Keras 3 zips, and the HDF5 files that tf.keras 2.10-2.12 wrote under that name).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "datasets/fashion_mnist.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/keras_archive.hpp"
#include "keras/saving/zip_archive.hpp"
#include "test_paths.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {

const fs::path kCommitted = fs::path(keras_test::golden_dir) / ".." / "real_models";

nlohmann::json manifest() {
  std::ifstream in(kCommitted / "manifest.json");
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

bool is_archive_name(const std::string& file) { return fs::path(file).extension() == ".keras"; }

// Where an entry's files are, or "" when they are not here (an uncommitted file without the extra folder).
std::string folder_of(const nlohmann::json& entry) {
  if (entry["location"] == "committed") return kCommitted.string();
  const char* extra = std::getenv("KERAS_REAL_MODELS_EXTRA");
  if (extra && fs::exists(fs::path(extra) / entry["file"].get<std::string>())) return extra;
  return "";
}

// The first index where ours and the reference differ by more than tol * (1 + |ref|), with both values; NaN
// matches NaN (one corpus file holds NaN weights: its author's training diverged).
std::string compare(const Tensor& ours, const Tensor& ref, double tol) {
  if (ours.shape() != ref.shape()) {
    return fmt::format("shape ({}) where the reference has ({})", fmt::join(ours.shape(), ", "), fmt::join(ref.shape(), ", "));
  }
  const auto a = ours.to_vector<float>(), b = ref.to_vector<float>();
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (!(std::abs(double(a[i]) - b[i]) <= tol * (1 + std::abs(double(b[i]))))) {
      return fmt::format("element {} is {} where the reference has {}", i, a[i], b[i]);
    }
  }
  return "";
}

double fashion_mnist_accuracy(Model& model) {
  auto [train, test] = datasets::fashion_mnist::load_data();
  const auto pixels = test.x.to_vector<std::uint8_t>();
  Tensor x = Tensor::empty({test.x.shape()[0], 28, 28, 1});
  for (std::size_t i = 0; i < pixels.size(); ++i) x.data<float>()[i] = float(pixels[i]) / 255.f;
  const Tensor y = model.predict(x, {.batch_size = 500});
  const auto probs = y.to_vector<float>();
  const auto labels = test.y.to_vector<std::int32_t>();
  const std::size_t classes = probs.size() / labels.size();
  std::size_t right = 0;
  for (std::size_t n = 0; n < labels.size(); ++n) {
    std::size_t best = 0;
    for (std::size_t c = 1; c < classes; ++c)
      if (probs[n * classes + c] > probs[n * classes + best]) best = c;
    right += best == std::size_t(labels[n]);
  }
  return double(right) / double(labels.size());
}

// Loads and checks every entry whose name is (or is not) a .keras name; a failure names the file and goes on.
void check_corpus(bool archives) {
  const auto m = manifest();
  int checked = 0, absent = 0;
  for (const auto& entry : m["models"]) {
    const std::string file = entry["file"];
    if (is_archive_name(file) != archives) continue;
    const std::string folder = folder_of(entry);
    if (folder.empty()) {
      ++absent;
      continue;
    }
    const std::string path = folder + "/" + file;
    INFO(path << " (" << entry.value("keras_version", "?") << ")");
    if (entry.contains("expect_error")) {
      // A subclassed model's class is not built in: the loader must say so, naming the class.
      try {
        models::load_model(path);
        FAIL_CHECK("loaded, although the file's model class is not built in");
      } catch (const keras::Error& e) {
        CHECK_THAT(e.what(), Catch::Contains(entry["expect_error"].get<std::string>()));
      }
      ++checked;
      continue;
    }
    try {
      auto model = models::load_model(path);
      std::vector<Tensor> inputs;
      for (const auto& name : entry["inputs"]) inputs.push_back(utils::load_npy(folder + "/" + name.get<std::string>()));
      const auto outputs = model->predict_outputs(Arrays(inputs));
      REQUIRE(outputs.size() == entry["expected"].size());
      for (std::size_t k = 0; k < outputs.size(); ++k) {
        const Tensor ref = utils::load_npy(folder + "/" + entry["expected"][k].get<std::string>());
        const std::string diff = compare(outputs[k], ref, entry["tolerance"].get<double>());
        INFO("output " << k);
        CHECK(diff == "");
      }
      if (entry.contains("accuracy") && fs::exists("/usr/share/datasets/fashion-mnist")) {
        const double accuracy = fashion_mnist_accuracy(*model);
        CHECK(std::round(accuracy * 1e4) / 1e4 == Approx(entry["accuracy"]["value"].get<double>()).margin(1e-9));
      }
    } catch (const std::exception& e) {
      FAIL_CHECK("threw: " << e.what());
    }
    ++checked;
  }
  if (absent) WARN(absent << " uncommitted corpus files skipped: set KERAS_REAL_MODELS_EXTRA to their folder");
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("real Keras HDF5 files (Keras 2.0.5 to 3.13) load and predict their independent references", "[real_models][h5]") {
  check_corpus(false);
}

TEST_CASE("real .keras files (Keras 3.0 to 3.13, tf.keras 2.10 to 2.15) load and predict their independent references",
          "[real_models][keras_archive]") {
  check_corpus(true);
}

// Item 2 of the .keras work: what kerascpp writes for a real archive has the original's entries, config.json
// (up to key order and default-valued keys) and weight paths, shapes and dtypes, as judged by the separately
// written tools/compare_keras_archives.py (zipfile, json, h5py). Archives of tf.keras 2.13-2.15 are left out:
// kerascpp rewrites them as Keras 3 archives (Keras 3 module names, no metric-state groups), by design.
TEST_CASE("real .keras archives written back by kerascpp are structurally identical to the originals",
          "[real_models][keras_archive]") {
  const auto m = manifest();
  const fs::path out_dir = fs::temp_directory_path() / ("kerascpp_roundtrip_" + std::to_string(::getpid()));
  fs::create_directories(out_dir);
  const std::string compare_tool = (fs::path(keras_test::golden_dir) / ".." / ".." / "tools" / "compare_keras_archives.py").string();
  int checked = 0;
  for (const auto& entry : m["models"]) {
    const std::string file = entry["file"], folder = folder_of(entry);
    if (folder.empty() || entry.contains("expect_error") || !saving::is_zip_file(folder + "/" + file) ||
        entry.value("keras_version", "").rfind("3.", 0) != 0)
      continue;
    INFO(file);
    const std::string rewritten = (out_dir / file).string();
    try {
      models::load_model(folder + "/" + file)->save(rewritten);
    } catch (const std::exception& e) {
      FAIL_CHECK("threw: " << e.what());
      continue;
    }
    const std::string report = (out_dir / (file + ".txt")).string();
    const int status = std::system(("/usr/bin/python3 " + compare_tool + " '" + folder + "/" + file + "' '" + rewritten +
                                    "' > '" + report + "' 2>&1").c_str());
    std::ifstream in(report);
    const std::string differences((std::istreambuf_iterator<char>(in)), {});
    INFO(differences);
    CHECK(status == 0);
    ++checked;
  }
  fs::remove_all(out_dir);
  CHECK(checked > 0);
}
