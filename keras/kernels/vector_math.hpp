#pragma once
// e^x, the logistic sigmoid and tanh over 8 floats (AVX2 + FMA) and 16 (AVX-512), for our own kernels' loops
// (LSTM gates, attention's softmax). Each function carries its target, so that callers compiled for the
// baseline can call them from functions of that target.
#include <immintrin.h>

#include <cstdint>

namespace keras::kernels::vector_math {

/// a[at, at + 8) + b[at, at + 8): an LSTM step's two halves of its gate sums (input and recurrent).
__attribute__((target("avx2,fma"), always_inline)) inline __m256 sum8(const float* a, const float* b, std::int64_t at) {
  return _mm256_add_ps(_mm256_loadu_ps(a + at), _mm256_loadu_ps(b + at));
}

// e^x: x = n ln2 + f with |f| <= ln2 / 2, e^f = 1 + f + f^2 P(f) (Cephes expf's polynomial), 2^n put
// into the exponent bits; x clamped to [-87.3, 88.3], where 2^n stays a normal float. tanh x = 1 - 2 /
// (e^2x + 1), and near 0 (|x| < 0.25, where that loses bits) its odd Taylor series to x^11. The AVX2 and
// AVX-512 code below run the same operations on these constants, lane for lane.
constexpr float kExpLow = -87.3f, kExpHigh = 88.3f, kLog2e = 1.44269504088896341f;
constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;  // ln 2 in two parts
constexpr float kExpPoly[] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f,
                              4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f};  // P, highest power first
constexpr float kTanhSeries[] = {-1382.0f / 155925.0f, 62.0f / 2835.0f, -17.0f / 315.0f, 2.0f / 15.0f,
                                 -1.0f / 3.0f};  // (tanh x - x) / x^3 in powers of x^2, highest first
constexpr float kTanhNear = 0.25f;
constexpr int kNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

__attribute__((target("avx2,fma"), always_inline)) inline __m256 exp8(__m256 x) {
  x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(kExpLow)), _mm256_set1_ps(kExpHigh));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)), kNearest);
  const __m256 f = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Low), _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2High), x));
  __m256 p = _mm256_set1_ps(kExpPoly[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 6; ++k) p = _mm256_fmadd_ps(p, f, _mm256_set1_ps(kExpPoly[k]));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(f, f), _mm256_add_ps(f, _mm256_set1_ps(1.0f)));
  const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

__attribute__((target("avx2,fma"), always_inline)) inline __m256 sigmoid8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  return _mm256_div_ps(one, _mm256_add_ps(one, exp8(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}

__attribute__((target("avx2,fma"), always_inline)) inline __m256 tanh8(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f), two = _mm256_set1_ps(2.0f), x2 = _mm256_mul_ps(x, x);
  const __m256 far = _mm256_sub_ps(one, _mm256_div_ps(two, _mm256_add_ps(exp8(_mm256_mul_ps(two, x)), one)));
  __m256 p = _mm256_set1_ps(kTanhSeries[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 5; ++k) p = _mm256_fmadd_ps(p, x2, _mm256_set1_ps(kTanhSeries[k]));
  const __m256 near = _mm256_fmadd_ps(_mm256_mul_ps(p, x2), x, x);
  const __m256 abs = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x);
  return _mm256_blendv_ps(far, near, _mm256_cmp_ps(abs, _mm256_set1_ps(kTanhNear), _CMP_LT_OQ));
}

// tanh as x P(x^2) / Q(x^2) on x clamped to [-9, 9] (tanh 9 = 1 - 3e-8): 13 operations and a division,
// against tanh8's 30 and a blend; within 3.3e-7 of tanh, relative, over every float (5 ulp of 1). The
// coefficients are tests/golden/fit_rational_tanh.py's fit (the exact function is within 6.6e-9). The
// sigmoid from it, (1 + tanh(x / 2)) / 2, is within 1.9e-7 of the true value: relative for x >= 0,
// absolute below. LSTM inference's gates use both (AVX2, LSTM(128) at batch 32: 2-4% faster than with
// sigmoid8 and tanh8). A NaN gives NaN. tests/keras/vector_math_test.cpp checks these bounds.
constexpr float kRationalTanhLimit = 9.0f;
constexpr float kRationalTanhP[] = {-8.48814555915e-14f, 5.27776009182e-11f, -2.0224896591e-8f, 1.11542396484e-5f,
                                    0.00310395039632f,   0.130840051244f,    0.999999993424f};  // highest power first
constexpr float kRationalTanhQ[] = {0.000254613630199f, 0.0244951559475f, 0.464173322354f, 1.0f};

__attribute__((target("avx2,fma"), always_inline)) inline __m256 rational_tanh8(__m256 x) {
  // (max and min return their second operand when either is NaN: a NaN stays NaN.)
  x = _mm256_min_ps(_mm256_set1_ps(kRationalTanhLimit), _mm256_max_ps(_mm256_set1_ps(-kRationalTanhLimit), x));
  const __m256 t = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(kRationalTanhP[0]), q = _mm256_set1_ps(kRationalTanhQ[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 7; ++k) p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kRationalTanhP[k]));
#pragma GCC unroll 8
  for (int k = 1; k < 4; ++k) q = _mm256_fmadd_ps(q, t, _mm256_set1_ps(kRationalTanhQ[k]));
  return _mm256_div_ps(_mm256_mul_ps(p, x), q);
}

__attribute__((target("avx2,fma"), always_inline)) inline __m256 rational_sigmoid8(__m256 x) {
  const __m256 half = _mm256_set1_ps(0.5f);
  return _mm256_fmadd_ps(rational_tanh8(_mm256_mul_ps(x, half)), half, half);
}

// (AVX-512: the masked forms with every lane set, as the plain ones trip GCC 12's uninitialized-value warning.)
constexpr __mmask16 kAll = 0xFFFF;

__attribute__((target("avx512f"), always_inline)) inline __m512 exp16(__m512 x) {
  x = _mm512_mask_min_ps(x, kAll, _mm512_mask_max_ps(x, kAll, x, _mm512_set1_ps(kExpLow)), _mm512_set1_ps(kExpHigh));
  const __m512 n = _mm512_mask_roundscale_ps(x, kAll, _mm512_mul_ps(x, _mm512_set1_ps(kLog2e)), kNearest);
  const __m512 f = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Low), _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2High), x));
  __m512 p = _mm512_set1_ps(kExpPoly[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 6; ++k) p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(kExpPoly[k]));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(f, f), _mm512_add_ps(f, _mm512_set1_ps(1.0f)));
  const __m512i bias = _mm512_set1_epi32(127);
  const __m512i e = _mm512_mask_slli_epi32(bias, kAll, _mm512_add_epi32(_mm512_mask_cvtps_epi32(bias, kAll, n), bias), 23);
  return _mm512_mul_ps(p, _mm512_castsi512_ps(e));
}

__attribute__((target("avx512f"), always_inline)) inline __m512 sigmoid16(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_div_ps(one, _mm512_add_ps(one, exp16(_mm512_sub_ps(_mm512_setzero_ps(), x))));
}

__attribute__((target("avx512f"), always_inline)) inline __m512 tanh16(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f), x2 = _mm512_mul_ps(x, x);
  const __m512 far = _mm512_sub_ps(one, _mm512_div_ps(two, _mm512_add_ps(exp16(_mm512_mul_ps(two, x)), one)));
  __m512 p = _mm512_set1_ps(kTanhSeries[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 5; ++k) p = _mm512_fmadd_ps(p, x2, _mm512_set1_ps(kTanhSeries[k]));
  const __m512 near = _mm512_fmadd_ps(_mm512_mul_ps(p, x2), x, x);
  return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(_mm512_abs_ps(x), _mm512_set1_ps(kTanhNear), _CMP_LT_OQ), far, near);
}

__attribute__((target("avx512f"), always_inline)) inline __m512 rational_tanh16(__m512 x) {
  x = _mm512_mask_min_ps(x, kAll, _mm512_set1_ps(kRationalTanhLimit),
                         _mm512_mask_max_ps(x, kAll, _mm512_set1_ps(-kRationalTanhLimit), x));
  const __m512 t = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(kRationalTanhP[0]), q = _mm512_set1_ps(kRationalTanhQ[0]);
#pragma GCC unroll 8
  for (int k = 1; k < 7; ++k) p = _mm512_fmadd_ps(p, t, _mm512_set1_ps(kRationalTanhP[k]));
#pragma GCC unroll 8
  for (int k = 1; k < 4; ++k) q = _mm512_fmadd_ps(q, t, _mm512_set1_ps(kRationalTanhQ[k]));
  return _mm512_div_ps(_mm512_mul_ps(p, x), q);
}

__attribute__((target("avx512f"), always_inline)) inline __m512 rational_sigmoid16(__m512 x) {
  const __m512 half = _mm512_set1_ps(0.5f);
  return _mm512_fmadd_ps(rational_tanh16(_mm512_mul_ps(x, half)), half, half);
}

}  // namespace keras::kernels::vector_math
