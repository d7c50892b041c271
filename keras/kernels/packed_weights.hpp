#pragma once
// Inference's products against weights that stay the same from call to call: Dense's matrix product and
// 1-D/2-D convolution, with the weights packed once into 16-column panels and kept, per thread, until
// their contents change (the caller passes a version stamp). Our own register tiles (AVX2 + FMA or
// AVX-512: keras/kernels/packed_tiles.hpp): oneDNN 2.6's gemm packs B again on every call, which costs more
// than the product when A has few rows (Dense 1600 -> 1024 at batch 32: 21-48 GFLOP/s against 42-75 here on
// one AVX2 thread; 1.3x oneDNN's speed on AVX-512), and its AVX2 convolutions ran ResNet-20's 3x3 layers at
// 51-57 GFLOP/s, against about 75 for the whole network here.
#include <cstdint>

#include "keras/kernels/convolution.hpp"
#include "keras/kernels/matmul.hpp"

namespace keras::kernels {

/// Whether packed_matmul serves these arguments on this CPU: AVX2, or AVX-512 with at most 64 rows of A
/// (the x86-64 baseline and KERAS_OWN_KERNELS=0 keep oneDNN's matmul), A not transposed, no accumulation, B
/// at most 64 MiB (VGG16's first Dense, 411 MB, would not stay in the cache beside the others: oneDNN
/// multiplies it as it is).
bool packed_matmul_fits(const MatmulArgs& args);

/// As matmul(a, b, c, args), with B's packed copy kept between calls under (b, version): a new
/// version repacks. The packs of one thread take at most 256 MiB; a pack beyond that empties the
/// cache first. Row i of A starts at a + i * lda (0: k, rows packed one after the other).
void packed_matmul(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                   std::int64_t lda = 0);

/// Columns [j_begin, j_end) of packed_matmul's C only, on the calling thread (j_begin a multiple of 16, a
/// linear activation): threads that split one product by columns among themselves.
void packed_matmul_columns(const float* a, const float* b, std::uint64_t version, float* c, const MatmulArgs& args,
                           std::int64_t lda, std::int64_t j_begin, std::int64_t j_end);

/// Whether packed_conv serves this convolution: AVX2, or AVX-512 over at most 128 output positions in all;
/// 1-D or 2-D, no groups, no dilation, a kernel of at most 64 MiB, larger than 1 x 1, whose rows (kernel
/// width x channels) hold at least 32 floats.
bool packed_conv_fits(const ConvArgs& args);

/// y = act(conv(x, kernel) * scale + shift + residual) over channels_last tensors, the kernel [k..., c, oc]
/// packed and kept under (kernel, version) as packed_matmul keeps B. `scale` and `shift` are per output
/// channel ([oc]; null: 1 and 0); `residual` is shaped like y or null.
void packed_conv(const float* x, const float* kernel, std::uint64_t version, const float* scale, const float* shift,
                 const float* residual, float* y, const ConvArgs& args, Eltwise activation);

/// Bytes of packed weights this thread keeps (for tests).
std::size_t packed_weights_cache_bytes();

}  // namespace keras::kernels
