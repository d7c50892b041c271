#include <fstream>
#include <map>
#include <regex>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"
#include "event_reader.hpp"
#include "keras/saving/hdf5_format.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {
std::vector<fs::path> event_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

// tag → (step → value) over every scalar of a file; the first event must be the file version.
std::map<std::string, std::map<std::int64_t, float>> scalars(const fs::path& file) {
  const auto events = evreader::read_events(file.string());
  REQUIRE(!events.empty());
  CHECK(events[0].file_version == "brain.Event:2");
  CHECK(events[0].values.empty());
  std::map<std::string, std::map<std::int64_t, float>> out;
  for (std::size_t i = 1; i < events.size(); ++i) {
    CHECK(events[i].file_version.empty());
    CHECK(events[i].wall_time > 1.6e9);
    if (!events[i].graph_def.empty()) continue;  // write_graph's graph (tensorboard_graph_test.cpp)
    REQUIRE(events[i].values.size() == 1);
    const auto& v = events[i].values[0];
    if (v.simple_value) out[v.tag][events[i].step] = *v.simple_value;
  }
  return out;
}
}  // namespace

TEST_CASE("CRC-32C of the writer and of the independent reader agree with the standard check value", "[tensorboard]") {
  CHECK(summary::crc32c("123456789") == 0xE3069283u);
  CHECK(evreader::crc32c_bitwise("123456789") == 0xE3069283u);
  const std::string data = summary::encode_scalar_event(1.7e9, 3, "loss", 0.5f);
  CHECK(summary::masked_crc32c(data) == evreader::masked(data));
}

TEST_CASE("TensorBoard writes train and validation event files whose scalars equal the History", "[tensorboard]") {
  const auto dir = cbtest::temp_dir("tb");
  Sequential m({layers::Input({2}), layers::Dense(3, {.activation = "relu"}), layers::Dense(1)});
  m.compile({.optimizer = "adam", .loss = "mse", .metrics = {"mae"}});
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {8, 2});
  const Tensor y = Tensor::from_vector<float>({1, 0, 1, 0, 1, 0, 1, 0}, {8, 1});
  auto h = m.fit(x, y, {.batch_size = 2, .epochs = 3, .verbose = 0,
                        .callbacks = {callbacks::TensorBoard(dir.string(), {.histogram_freq = 1, .update_freq = std::int64_t{2}})},
                        .validation_split = 0.25});
  const std::regex name(R"(events\.out\.tfevents\.\d{10}\..+\.\d+\.\d+\.v2)");
  for (const char* sub : {"train", "validation"}) {
    const auto files = event_files(dir / sub);
    REQUIRE(files.size() == 1);
    CHECK(std::regex_match(files[0].filename().string(), name));
  }
  const auto train = scalars(event_files(dir / "train")[0]);
  const auto val = scalars(event_files(dir / "validation")[0]);
  for (const std::string key : {"loss", "mae"}) {
    REQUIRE(train.count("epoch_" + key));
    REQUIRE(val.count("epoch_" + key));
    REQUIRE(train.at("epoch_" + key).size() == 3);
    for (int e = 0; e < 3; ++e) {
      CHECK(train.at("epoch_" + key).at(e) == static_cast<float>(h.history.at(key)[e]));
      CHECK(val.at("epoch_" + key).at(e) == static_cast<float>(h.history.at("val_" + key)[e]));
    }
  }
  // 6 training samples in batches of 2: 9 batches; update_freq 2 writes global batches 0, 2, 4, 6, 8
  REQUIRE(train.count("batch_loss"));
  std::vector<std::int64_t> steps;
  for (const auto& [s, v] : train.at("batch_loss")) steps.push_back(s);
  CHECK(steps == std::vector<std::int64_t>{0, 2, 4, 6, 8});
  CHECK(train.at("batch_loss").at(8) == static_cast<float>(h.history.at("loss")[2]));  // last batch's running mean
  CHECK(val.count("evaluation_loss_vs_iterations"));
  CHECK(val.at("evaluation_loss_vs_iterations").rbegin()->first == 9);  // optimizer iterations
  CHECK_FALSE(train.count("epoch_learning_rate"));  // constant learning rate: Keras logs it only for schedules

  // Weight histograms, one per weight and epoch; the last ones describe the final weights.
  const auto events = evreader::read_events(event_files(dir / "train")[0].string());
  std::map<std::string, evreader::Histo> last;
  int histograms = 0;
  for (const auto& e : events)
    for (const auto& v : e.values)
      if (v.histo) {
        ++histograms;
        if (e.step == 2) last[v.tag] = *v.histo;
      }
  CHECK(histograms == 4 * 3);
  for (const auto& layer : m.layers())
    for (const auto& [wname, var] : saving::named_weights(*layer)) {
      std::string tag = std::regex_replace(wname, std::regex(":"), "_") + "/histogram";
      REQUIRE(last.count(tag));
      const auto& hist = last.at(tag);
      const auto values = var->value().to_vector<float>();
      CHECK(hist.num == values.size());
      CHECK(hist.min == *std::min_element(values.begin(), values.end()));
      CHECK(hist.max == *std::max_element(values.begin(), values.end()));
      double sum = 0, counted = 0;
      for (float v : values) sum += v;
      for (double c : hist.bucket) counted += c;
      CHECK(hist.sum == Approx(sum).margin(1e-6));
      CHECK(counted == values.size());
      CHECK(hist.bucket.size() == hist.bucket_limit.size());
    }
  fs::remove_all(dir);
}

TEST_CASE("TensorBoard logs the learning rate of a schedule and a callback's lr", "[tensorboard]") {
  const auto dir = cbtest::temp_dir("tb_lr");
  Sequential m({layers::Input({2}), layers::Dense(1)});
  m.compile({.optimizer = optimizers::SGD({.learning_rate = optimizers::schedules::ExponentialDecay(0.1, 1, 0.5)}), .loss = "mse"});
  m.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
        {.batch_size = 2, .epochs = 2, .verbose = 0, .callbacks = {callbacks::TensorBoard(dir.string())}});
  const auto train = scalars(event_files(dir / "train")[0]);
  REQUIRE(train.count("epoch_learning_rate"));
  CHECK(train.at("epoch_learning_rate").at(1) == Approx(0.1 * 0.5 * 0.5 * 0.5 * 0.5));  // after 4 steps
  CHECK_FALSE(fs::exists(dir / "validation"));

  auto plain = cbtest::tiny_model();
  const auto dir2 = cbtest::temp_dir("tb_lr2");
  plain.fit(Tensor::ones({4, 2}), Tensor::zeros({4, 1}),
            {.epochs = 2, .verbose = 0,
             .callbacks = {callbacks::ReduceLROnPlateau({.monitor = "loss"}), callbacks::TensorBoard(dir2.string())}});
  CHECK(scalars(event_files(dir2 / "train")[0]).at("epoch_lr").at(1) == Approx(0.01));
  fs::remove_all(dir);
  fs::remove_all(dir2);
}

TEST_CASE("summary::create_file_writer writes scalars a reader decodes and a corrupted byte fails the CRC", "[tensorboard]") {
  const auto dir = cbtest::temp_dir("summary");
  auto writer = summary::create_file_writer((dir / "run1").string());
  for (int step = 0; step < 5; ++step) writer->scalar("metrics/loss", 1.0 / (step + 1), step);
  writer->histogram("w", std::vector<double>{1, 2, 2, 3}, 7, 2);
  writer->flush();
  const auto events = evreader::read_events(writer->path());
  REQUIRE(events.size() == 7);
  for (int step = 0; step < 5; ++step) {
    const auto& e = events[static_cast<std::size_t>(step) + 1];
    CHECK(e.step == step);
    CHECK(e.values[0].tag == "metrics/loss");
    CHECK(*e.values[0].simple_value == static_cast<float>(1.0 / (step + 1)));
  }
  const auto& h = *events[6].values[0].histo;
  CHECK(events[6].step == 7);
  CHECK(h.min == 1);
  CHECK(h.max == 3);
  CHECK(h.num == 4);
  CHECK(h.sum == 8);
  CHECK(h.sum_squares == 18);
  CHECK(h.bucket_limit == std::vector<double>{2, 3});
  CHECK(h.bucket == std::vector<double>{3, 1});  // (-inf, 2] holds 1, 2, 2; (2, 3] holds 3

  std::string bytes;
  {
    std::ifstream in(writer->path(), std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() - 10] ^= 0x01;
  const auto bad = dir / "corrupt";
  std::ofstream(bad, std::ios::binary) << bytes;
  CHECK_THROWS_WITH(evreader::read_events(bad.string()), Catch::Contains("CRC"));
  fs::remove_all(dir);
}
