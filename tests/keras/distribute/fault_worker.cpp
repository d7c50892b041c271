// Launched by fault_test.cmake as `mpirun -np 2 fault_worker BACKUP_DIR KILL_AT WEIGHTS.npy [REFERENCE.npy]`:
// trains a small CNN for 3 epochs with BackupAndRestore(BACKUP_DIR) backing up every 4 batches. With
// KILL_AT > 0, rank 1 kills itself with SIGKILL after that many batches, while rank 0 waits for it in the
// gradient allreduce: the test checks that the job ends by itself. A relaunch with the same BACKUP_DIR
// resumes from the chief's backup on both ranks. At the end the chief saves the weights, and with a
// REFERENCE (an uninterrupted run's weights) fails unless they are equal.
#include <csignal>
#include <cstdio>
#include <string>

#include "replica_helpers.hpp"

using namespace keras_test;

int main(int argc, char** argv) try {
  if (argc < 4) throw k::ValueError("usage: fault_worker BACKUP_DIR KILL_AT WEIGHTS.npy [REFERENCE.npy]");
  const std::string backup_dir = argv[1], weights_path = argv[3], reference = argc > 4 ? argv[4] : "";
  const std::int64_t kill_at = std::stoll(argv[2]);
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  auto model = small_cnn(41);
  compile_adam(model);
  const Data d = labelled_images(256, 9);
  const bool victim = strategy.replica_id() == 1 && kill_at > 0;
  std::int64_t seen = 0;
  auto backup = std::make_shared<k::callbacks::BackupAndRestore>(backup_dir, k::callbacks::BackupAndRestoreOptions{
                                                                                 .save_freq = std::int64_t{4}});
  model.fit(d.x, d.y, {.batch_size = 16, .epochs = 3, .verbose = 0,
                       .callbacks = {backup, k::callbacks::LambdaCallback({.on_batch_end = [&](std::int64_t, k::Logs&) {
                                       if (++seen == kill_at && victim) std::raise(SIGKILL);
                                     }})}});
  if (kill_at > 0) std::printf("fault_worker: training ended without the lost rank being noticed\n");
  // A relaunch must have resumed on this rank: from the backup, with fewer than the 3 x 16 batches.
  if (!reference.empty() && (!backup->restored() || seen >= 48)) {
    std::fprintf(stderr, "fault_worker: rank %d did not resume from the backup (restored: %d, %lld batches)\n",
                 strategy.replica_id(), int(backup->restored()), static_cast<long long>(seen));
    return 1;
  }
  if (!reference.empty())
    std::printf("fault_worker: rank %d resumed at epoch %d, step %lld\n", strategy.replica_id(),
                backup->restored_epoch(), static_cast<long long>(backup->restored_step()));
  if (!strategy.is_chief()) return 0;
  const auto weights = flat_weights(model);
  k::utils::save_npy(weights_path, k::Tensor::from_vector(weights));
  if (reference.empty()) return 0;
  const double diff = max_abs_diff(weights, k::utils::load_npy(reference).to_vector<float>());
  std::printf("fault_worker: resumed weights differ from the uninterrupted run's by %g\n", diff);
  return diff < 1e-6 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "fault_worker: %s\n", e.what());
  return 1;
}
