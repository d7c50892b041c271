// Launched by fault_test.cmake as `mpirun -np 2 fault_worker`: trains with the strategy, and rank 1 kills
// itself with SIGKILL at its 4th step, while rank 0 waits for it in the gradient allreduce. The test
// checks that the job then ends on its own, in bounded time, with a non-zero exit and a message naming
// the lost rank.
#include <csignal>
#include <cstdio>

#include "keras/distribute/distribute.hpp"
#include "keras/keras.hpp"

namespace k = keras;

int main() try {
  k::distribute::MultiWorkerMirroredStrategy strategy({.threads = 1});
  auto scope = strategy.scope();
  k::utils::set_random_seed(3);
  k::Sequential model({k::layers::Input({16}), k::layers::Dense(32, {.activation = "relu"}), k::layers::Dense(4)});
  model.compile({.optimizer = "sgd", .loss = "sparse_categorical_crossentropy"});
  auto x = k::Tensor::ones({4096, 16});
  auto y = k::Tensor::zeros({4096}, k::DType::int64);
  const bool victim = strategy.replica_id() == 1;
  model.fit(x, y, {.batch_size = 32, .epochs = 1000, .verbose = 0,
                   .callbacks = {k::callbacks::LambdaCallback({.on_batch_end = [&](std::int64_t batch, k::Logs&) {
                     if (victim && batch == 3) std::raise(SIGKILL);
                   }})}});
  std::printf("fault_worker: training ended without the lost rank being noticed\n");
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "fault_worker: %s\n", e.what());
  return 1;
}
