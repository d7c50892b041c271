#pragma once
// Gradients fused into buckets (contiguous float buffers of about `bucket_bytes`) and summed over the
// ranks with non-blocking in-place allreduces. Buckets hold the variables in reverse order, the order in
// which the backward pass finishes their gradients, and each bucket's allreduce starts as soon as its
// last gradient is packed, while the backward pass goes on (PyTorch DDP's and Horovod's scheme). Buckets
// start in index order on every rank, as MPI requires of collectives.
#include <cstddef>
#include <memory>
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
  GradientBuckets(MPI_Comm comm, std::size_t bucket_bytes, Timeline& timeline);
  ~GradientBuckets();
  GradientBuckets(const GradientBuckets&) = delete;
  GradientBuckets& operator=(const GradientBuckets&) = delete;

  /// Starts a step for these variables (the layout is kept while they stay the same); each gradient
  /// will be multiplied by `scale` when packed.
  void begin(const std::vector<std::shared_ptr<Variable>>& vars, float scale);
  /// The final gradient of variable `index`: packed into its bucket, which starts reducing once full.
  void ready(std::size_t index, const Tensor& gradient);
  /// Packs zeros for the gradients never given, reduces the remaining buckets (blocking: nothing is left
  /// to overlap), waits for all of them and returns the summed gradients, one per variable: views of the
  /// buckets (no unpacking copy), valid until the next begin().
  std::vector<Tensor> finish();
  std::size_t bucket_count() const { return buckets_.size(); }

 private:
  struct Bucket {
    Tensor data;  // 1-D float32, the bucket's variables one after the other
    std::size_t size = 0, expected = 0, packed = 0;
    MPI_Request request = MPI_REQUEST_NULL;
    double started_at = 0;
  };
  void layout(const std::vector<std::shared_ptr<Variable>>& vars);
  void start_ready_buckets(bool blocking);
  void progress();

  MPI_Comm comm_;
  std::size_t bucket_bytes_;
  Timeline& timeline_;
  std::vector<const Variable*> vars_;
  std::vector<Shape> shapes_;
  std::vector<std::size_t> bucket_of_, offset_of_;
  std::vector<bool> given_;
  std::vector<Bucket> buckets_;
  std::size_t next_to_start_ = 0;
  float scale_ = 1.0f;
};

}  // namespace keras::distribute
