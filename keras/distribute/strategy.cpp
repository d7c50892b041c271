#include "keras/distribute/strategy.hpp"

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <limits>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "keras/autodiff/gradient_ready.hpp"
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/distribute/gradient_buckets.hpp"
#include "keras/distribute/model_consistency.hpp"
#include "keras/distribute/mpi_runtime.hpp"
#include "keras/distribute/timeline.hpp"
#include "keras/model.hpp"
#include "keras/utils/random.hpp"
#include "keras/utils/threads.hpp"
#include "keras/variable.hpp"

namespace keras::distribute {

MultiWorkerMirroredStrategy::MultiWorkerMirroredStrategy(StrategyOptions options)
    : options_(std::move(options)), uncaught_at_start_(std::uncaught_exceptions()) {
  mpi::world();  // initializes MPI
  rank_ = mpi::rank();
  size_ = mpi::size();
  if (options_.bucket_bytes == 0)
    throw ValueError(fmt::format("rank {}: StrategyOptions::bucket_bytes must be positive (the default is 25 MB)", rank_));
  // oneDNN and kerascpp's loops share one OpenMP pool per rank: the host's cores divided among its ranks.
  if (options_.threads < 0)
    throw ValueError(fmt::format("rank {}: StrategyOptions::threads must be >= 0, got {}", rank_, options_.threads));
  if (options_.threads > 0)
    utils::set_num_threads(options_.threads);
  else if (!std::getenv("OMP_NUM_THREADS"))
    utils::set_num_threads(std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / mpi::local_size()));
  timeline_ = std::make_unique<Timeline>(options_.timeline, rank_);
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  const bool spare_core = cores > mpi::local_size() * utils::get_num_threads();
  const bool overlap = options_.overlap.value_or(spare_core) && mpi::thread_level() >= MPI_THREAD_SERIALIZED;
  buckets_ = std::make_unique<GradientBuckets>(mpi::world(), options_.bucket_bytes, overlap, *timeline_);
  agree_random_state();
}

MultiWorkerMirroredStrategy::~MultiWorkerMirroredStrategy() {
  if (active_replica_sync() == this) set_active_replica_sync(nullptr);
  // Destroyed by an exception: peers may be blocked in a collective; the job is aborted at exit.
  if (std::uncaught_exceptions() > uncaught_at_start_) mpi::mark_failed();
}

MultiWorkerMirroredStrategy::Scope::Scope(MultiWorkerMirroredStrategy* strategy)
    : previous_(set_active_replica_sync(strategy)) {}
MultiWorkerMirroredStrategy::Scope::Scope(Scope&& other) noexcept
    : previous_(other.previous_), active_(std::exchange(other.active_, false)) {}
MultiWorkerMirroredStrategy::Scope::~Scope() {
  if (active_) set_active_replica_sync(previous_);
}

void MultiWorkerMirroredStrategy::write_timeline() const { timeline_->write(); }

void MultiWorkerMirroredStrategy::sync_model(Model& model, const std::shared_ptr<const optimizers::Optimizer>& optimizer) {
  const auto weights = model.weights();
  const bool same_optimizer = optimizer ? synced_optimizer_.lock() == optimizer : synced_without_optimizer_;
  bool same_weights = !weights.empty() && synced_weights_.size() == weights.size();
  for (std::size_t i = 0; same_weights && i < weights.size(); ++i) same_weights = synced_weights_[i].lock() == weights[i];
  if (same_optimizer && same_weights) return;
  check_same_model(mpi::world(), model_signature(model, optimizer.get()));
  broadcast_weights(mpi::world(), weights);
  synced_weights_.assign(weights.begin(), weights.end());
  synced_optimizer_ = optimizer;
  synced_without_optimizer_ = !optimizer;
  has_gradient_.clear();
}

std::vector<Tensor> MultiWorkerMirroredStrategy::gradients(GradientTape& tape, const Tensor& loss,
                                                           const std::vector<std::shared_ptr<Variable>>& vars,
                                                           double share) {
  const double backward_began = timeline_->now();
  buckets_->begin(vars, static_cast<float>(share));
  if (loss.defined()) {
    std::vector<Tensor> values;
    values.reserve(vars.size());
    for (const auto& v : vars) values.push_back(v->value());
    std::vector<Tensor> local;
    {
      autodiff::GradientReadyScope early([this](std::size_t i, const Tensor& g) { buckets_->ready(i, g); });
      local = tape.gradient(loss, values);
    }
    has_gradient_.assign(vars.size(), false);
    for (std::size_t i = 0; i < local.size(); ++i)
      if (local[i].defined()) {
        buckets_->ready(i, local[i]);  // those the hook has not seen (a no-op for the others)
        has_gradient_[i] = true;
      }
  }
  const double backward_ended = timeline_->now();
  std::vector<Tensor> grads = buckets_->finish();
  gradients_done_ = timeline_->now();
  timeline_->span("forward", "compute", step_began_, backward_began);
  timeline_->span("backward", "compute", backward_began, backward_ended);
  timeline_->span("wait for allreduce", "compute", backward_ended, gradients_done_);
  // A variable no replica's loss depends on keeps no gradient, as in a single process (the model is
  // the same on every rank, so the last step with rows tells).
  for (std::size_t i = 0; i < grads.size() && i < has_gradient_.size(); ++i)
    if (!has_gradient_[i]) grads[i] = Tensor();
  reduced_ = true;
  return grads;
}

std::vector<Tensor> MultiWorkerMirroredStrategy::reduce_gradients(const std::vector<Tensor>& grads,
                                                                  const std::vector<std::shared_ptr<Variable>>& vars,
                                                                  double share) {
  buckets_->begin(vars, static_cast<float>(share));
  for (std::size_t i = 0; i < grads.size(); ++i)
    if (grads[i].defined()) buckets_->ready(i, grads[i]);
  std::vector<Tensor> out = buckets_->finish();
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!grads[i].defined()) out[i] = Tensor();
  return out;
}

void MultiWorkerMirroredStrategy::allreduce_sum(std::vector<double>& values) {
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, mpi::world()),
             "MPI_Allreduce of the losses and metrics");
}

std::vector<std::string> MultiWorkerMirroredStrategy::allgather(const std::string& bytes) {
  std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw ValueError(fmt::format("rank {}: predict's outputs for one batch ({} bytes) exceed MPI's 2 GiB message; use a "
                                 "smaller batch_size", rank_, bytes.size()));
  const int count = static_cast<int>(bytes.size());
  mpi::check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, mpi::world()), "MPI_Allgather of predict's sizes");
  std::int64_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (total + counts[r] > std::numeric_limits<int>::max())
      throw ValueError(fmt::format("rank {}: predict's outputs for one global batch exceed MPI's 2 GiB message; use a "
                                   "smaller batch_size", rank_));
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  mpi::check(MPI_Allgatherv(bytes.data(), count, MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, mpi::world()),
             "MPI_Allgatherv of predict's outputs");
  std::vector<std::string> out;
  for (std::size_t r = 0; r < counts.size(); ++r) out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r])));
  return out;
}

void MultiWorkerMirroredStrategy::agree_random_state() {
  std::string state;
  if (rank_ == 0) {
    std::ostringstream s;
    s << utils::random_generator();
    state = s.str();
  }
  std::uint64_t length = state.size();
  mpi::check(MPI_Bcast(&length, 1, MPI_UINT64_T, 0, mpi::world()), "MPI_Bcast of the random generator");
  state.resize(length);
  mpi::check(MPI_Bcast(state.data(), static_cast<int>(length), MPI_CHAR, 0, mpi::world()), "MPI_Bcast of the random generator");
  if (rank_ == 0) return;
  std::istringstream s(state);
  s >> utils::random_generator();
}

void MultiWorkerMirroredStrategy::diverge_random_state() {
  if (rank_ == 0) return;  // the chief draws as a single process would
  auto& gen = utils::random_generator();
  gen.seed(gen() ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(rank_)));
}

void MultiWorkerMirroredStrategy::on_step_begin() {
  step_began_ = timeline_->now();
  gradients_done_ = -1;
}

void MultiWorkerMirroredStrategy::on_step_end() {
  if (gradients_done_ >= 0)
    timeline_->span("optimizer and metrics", "compute", gradients_done_, timeline_->now());
  else  // evaluate's steps compute no gradients
    timeline_->span("test step", "compute", step_began_, timeline_->now());
}

namespace {
// Checked before the strategy is built, so that a refused MirroredStrategy leaves nothing to unwind.
StrategyOptions single_host(StrategyOptions options) {
  mpi::world();
  if (mpi::local_size() != mpi::size())
    throw ValueError(fmt::format("rank {}: MirroredStrategy runs on one machine, but only {} of the job's {} ranks share "
                                 "this host; use MultiWorkerMirroredStrategy for several hosts",
                                 mpi::rank(), mpi::local_size(), mpi::size()));
  return options;
}
}  // namespace

MirroredStrategy::MirroredStrategy(StrategyOptions options)
    : MultiWorkerMirroredStrategy(single_host(std::move(options))) {}

}  // namespace keras::distribute
