#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<Sequential> small_model() {
  utils::set_random_seed(5);
  auto model = std::make_shared<Sequential>(std::vector<LayerRef>{layers::Input({4}), layers::Dense(6, {.activation = "tanh"}),
                                                                  layers::Dense(2)});
  model->compile({.optimizer = optimizers::Adam({.learning_rate = 0.05}), .loss = "mse"});
  return model;
}

Tensor batch_x() {
  Tensor x = Tensor::empty({8, 4});
  for (int i = 0; i < 32; ++i) x.data<float>()[i] = float((i * 7) % 5) / 5.f - 0.4f;
  return x;
}
Tensor batch_y() {
  Tensor y = Tensor::empty({8, 2});
  for (int i = 0; i < 16; ++i) y.data<float>()[i] = float(i % 3) - 1.f;
  return y;
}

std::vector<Tensor> weights_of(const Model& m) {
  std::vector<Tensor> out;
  for (const auto& w : m.weights()) out.push_back(w->numpy());
  return out;
}

bool same(const std::vector<Tensor>& a, const std::vector<Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].to_vector<float>() != b[i].to_vector<float>()) return false;
  return true;
}

}  // namespace

TEST_CASE("Checkpoint restore brings back weights and optimizer state: training continues bit-exactly") {
  keras_test::TempDir dir("checkpoint");
  auto model = small_model();
  for (int i = 0; i < 3; ++i) model->train_on_batch(batch_x(), batch_y());
  train::Checkpoint ckpt(*model);
  const std::string path = ckpt.save(dir / "ckpt");
  CHECK(path == dir / "ckpt-1.h5");
  CHECK(ckpt.save_counter() == 1);
  const auto saved = weights_of(*model);

  model->train_on_batch(batch_x(), batch_y());
  const auto continued = weights_of(*model);
  const auto iterations = model->optimizer().iterations();
  model->train_on_batch(batch_x(), batch_y());  // drift further

  ckpt.restore(path);
  CHECK(same(weights_of(*model), saved));
  CHECK(model->optimizer().iterations() == iterations - 1);
  model->train_on_batch(batch_x(), batch_y());
  CHECK(same(weights_of(*model), continued));  // Adam's m and v came back too
}

TEST_CASE("Checkpoint saves extra variables and its save counter") {
  keras_test::TempDir dir("checkpoint_vars");
  auto model = small_model();
  auto step = std::make_shared<Variable>("step", Tensor::full({}, 7.0, DType::int64), false);
  train::Checkpoint ckpt(*model, {.variables = {{"step", step}}});
  ckpt.save(dir / "c");
  const std::string second = ckpt.save(dir / "c");
  CHECK(second == dir / "c-2.h5");
  step->assign(Tensor::full({}, 9.0, DType::int64));
  train::Checkpoint fresh(*model, {.variables = {{"step", step}}});
  fresh.restore(second);
  CHECK(step->value().item() == 7.0);
  CHECK(fresh.save_counter() == 2);
}

TEST_CASE("CheckpointManager numbers checkpoints, keeps max_to_keep and finds the latest again") {
  keras_test::TempDir dir("checkpoint_manager");
  auto model = small_model();
  train::Checkpoint ckpt(*model);
  train::CheckpointManager manager(ckpt, dir / "run", {.max_to_keep = 2});
  CHECK_FALSE(manager.latest_checkpoint());
  CHECK_FALSE(train::latest_checkpoint(dir / "run"));
  for (int i = 0; i < 3; ++i) manager.save();
  CHECK(manager.checkpoints() == std::vector<std::string>{dir / "run/ckpt-2.h5", dir / "run/ckpt-3.h5"});
  CHECK_FALSE(fs::exists(dir / "run/ckpt-1.h5"));
  CHECK(*manager.latest_checkpoint() == dir / "run/ckpt-3.h5");
  CHECK(*train::latest_checkpoint(dir / "run") == dir / "run/ckpt-3.h5");

  std::ifstream state(dir / "run/checkpoint");
  std::string text((std::istreambuf_iterator<char>(state)), {});
  CHECK(text == "model_checkpoint_path: \"ckpt-3.h5\"\nall_model_checkpoint_paths: \"ckpt-2.h5\"\n"
                "all_model_checkpoint_paths: \"ckpt-3.h5\"\n");

  // A new process (a new manager on the same folder) resumes from the latest one.
  auto other = small_model();
  train::Checkpoint other_ckpt(*other);
  train::CheckpointManager again(other_ckpt, dir / "run", {.max_to_keep = 2});
  CHECK(again.checkpoints().size() == 2);
  CHECK(*again.restore_or_initialize() == dir / "run/ckpt-3.h5");
  CHECK(other_ckpt.save_counter() == 3);
  CHECK(same(weights_of(*other), weights_of(*model)));
  CHECK(again.save() == dir / "run/ckpt-4.h5");
}

TEST_CASE("Checkpoint errors name the file and the problem") {
  keras_test::TempDir dir("checkpoint_errors");
  auto model = small_model();
  train::Checkpoint ckpt(*model);
  CHECK_THROWS_AS(ckpt.restore(dir / "missing.h5"), IOError);
  model->save_weights(dir / "weights.h5");
  CHECK_THROWS_WITH(ckpt.restore(dir / "weights.h5"), Catch::Contains("not a kerascpp checkpoint"));
  CHECK_THROWS_AS(train::CheckpointManager(ckpt, dir / "x", {.max_to_keep = 0}), ValueError);
  Sequential unbuilt({layers::Dense(3)});
  train::Checkpoint c2(unbuilt);
  const std::string path = ckpt.save(dir / "ok");
  CHECK_THROWS_WITH(c2.restore(path), Catch::Contains("not built"));
}
