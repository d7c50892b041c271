#pragma once
// Gradients fused into buckets (contiguous float buffers of about `bucket_bytes`) and summed over the
// ranks with in-place allreduces. Buckets hold the variables in reverse order, the order in which the
// backward pass finishes their gradients. With overlap, a communication thread reduces each bucket as
// soon as its last gradient is packed, while the backward pass goes on (PyTorch DDP's and Horovod's
// scheme; Open MPI advances a transfer only inside an MPI call, so a thread has to be in one). Buckets
// are reduced in index order on every rank, as MPI requires of collectives.
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <mpi.h>

#include "keras/distribute/timeline.hpp"
#include "keras/tensor.hpp"

namespace keras {
class Variable;
}

namespace keras::distribute {

class GradientBuckets {
 public:
  /// `overlap`: reduce buckets on a communication thread during the backward pass (MPI must provide
  /// MPI_THREAD_SERIALIZED); otherwise all of them at the end, on the calling thread.
  GradientBuckets(MPI_Comm comm, std::size_t bucket_bytes, bool overlap, Timeline& timeline);
  ~GradientBuckets();
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  /// Starts a step for these variables (the layout is kept while they stay the same); each gradient
  /// will be multiplied by `scale` when packed.
  void begin(const std::vector<std::shared_ptr<Variable>>& vars, float scale);
  /// The final gradient of variable `index`: packed into its bucket, which is handed over once full.
  void ready(std::size_t index, const Tensor& gradient);
  /// Packs zeros for the gradients never given, reduces what remains, waits for every bucket and returns
  /// the summed gradients, one per variable: views of the buckets (no unpacking copy), valid until the
  /// next begin().
  std::vector<Tensor> finish();
  std::size_t bucket_count() const { return buckets_.size(); }

 private:
  struct Bucket {
    Tensor data;  // 1-D float32, the bucket's variables one after the other
    std::size_t size = 0, expected = 0, packed = 0;
    double started = 0, ended = 0;  // for the timeline
    int result = MPI_SUCCESS;
  };
  void layout(const std::vector<std::shared_ptr<Variable>>& vars);
  void reduce(Bucket& b);
  void hand_over_full_buckets();
  void communicate();  // the communication thread

  MPI_Comm comm_;
  std::size_t bucket_bytes_;
  Timeline& timeline_;
  std::vector<const Variable*> vars_;
  std::vector<Shape> shapes_;
  std::vector<std::size_t> bucket_of_, offset_of_;
  std::vector<bool> given_;
  std::vector<Bucket> buckets_;
  float scale_ = 1.0f;
  // Buckets [0, handed_) may be reduced; [0, reduced_) are. Guarded by mutex_ when a thread runs.
  std::size_t handed_ = 0, reduced_ = 0;
  bool stopping_ = false;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_;
};

}  // namespace keras::distribute
