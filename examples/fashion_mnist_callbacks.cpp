// Fashion-MNIST with the full set of Keras callbacks: early stopping that restores the best weights,
// best-only checkpoints, a learning-rate schedule and plateau reduction, a CSV log, TensorBoard logs,
// NaN termination, fault-tolerant backups, and a callback written here that adds its own log entry.
// Usage: fashion_mnist_callbacks --logdir DIR [--epochs N]
//   then: tensorboard --logdir DIR/tb
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include <keras/keras.hpp>

namespace k = keras;

// A custom callback: puts the gap between training and validation accuracy into the epoch logs, where
// the callbacks after it (CSVLogger, TensorBoard, History) see it as one more metric.
class AccuracyGap : public k::callbacks::Callback {
 public:
  void on_epoch_end(int, k::Logs& logs) override {
    if (logs.contains("accuracy") && logs.contains("val_accuracy"))
      logs["accuracy_gap"] = logs.at("accuracy") - logs.at("val_accuracy");
  }
};

int main(int argc, char** argv) try {
  int epochs = 10;
  std::string logdir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--epochs") && i + 1 < argc) epochs = std::stoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--logdir") && i + 1 < argc) logdir = argv[++i];
    else throw k::ValueError(std::string("unknown argument ") + argv[i] + " (use --logdir DIR [--epochs N])");
  }
  if (logdir.empty()) throw k::ValueError("--logdir DIR is required");
  const std::filesystem::path dir(logdir);
  k::utils::set_random_seed(1);
  auto [train, test] = k::datasets::fashion_mnist::load_data();

  k::Sequential model({
      k::layers::Input({28, 28}),
      k::layers::Flatten(),
      k::layers::Dense(256, {.activation = "relu"}),
      k::layers::Dropout(0.2),
      k::layers::Dense(10),
  });
  model.compile({.optimizer = k::optimizers::Adam({.learning_rate = 1e-3}),
                 .loss = k::losses::SparseCategoricalCrossentropy({.from_logits = true}),
                 .metrics = {"accuracy"}});

  namespace cb = k::callbacks;
  auto history = model.fit(
      train.x / 255.f, train.y,
      {.batch_size = 128,
       .epochs = epochs,
       .verbose = 2,
       .callbacks = {cb::BackupAndRestore((dir / "backup").string()),
                     cb::LearningRateScheduler([](int epoch, double lr) { return epoch < 3 ? lr : lr * 0.8; }),
                     cb::ReduceLROnPlateau({.factor = 0.5, .patience = 1, .verbose = 1, .min_lr = 1e-5}),
                     cb::EarlyStopping({.monitor = "val_loss", .patience = 3, .verbose = 1, .restore_best_weights = true}),
                     cb::ModelCheckpoint((dir / "ckpt-{epoch:02d}-{val_loss:.3f}.h5").string(),
                                         {.verbose = 1, .save_best_only = true}),
                     cb::TerminateOnNaN(),
                     AccuracyGap(),
                     cb::CSVLogger((dir / "log.csv").string()),
                     cb::TensorBoard((dir / "tb").string(), {.histogram_freq = 1})},
       .validation_split = 0.1});

  const auto results = model.evaluate(test.x / 255.f, test.y, {.batch_size = 512, .verbose = 0});
  std::printf("epochs run: %zu, test_accuracy: %.4f\n", history.epoch.size(), results.at("accuracy"));
  std::printf("files in %s:\n", logdir.c_str());
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) std::printf("  %s\n", std::filesystem::relative(e.path(), dir).c_str());
} catch (const std::exception& e) {
  std::fprintf(stderr, "fashion_mnist_callbacks: %s\n", e.what());
  return 1;
}
