#pragma once
// The approximate quantile summary behind Discretization.adapt(), as Keras computes it: a batch becomes
// sorted sample values with weights (about 1/epsilon of them), summaries of several batches merge and
// compress back to that size, and the bin boundaries interpolate the summary's cumulative weights (the
// inverse of the interpolated empirical CDF). Values and weights are float32 and the interpolation is in
// double, as in Keras's NumPy code, so the boundaries come out the same.
#include <cstdint>
#include <vector>

namespace keras::layers::preprocessing {

struct QuantileSummary {
  std::vector<float> values;   // increasing
  std::vector<float> weights;  // how many samples each value stands for
};

/// The summary of one batch of values.
QuantileSummary summarize(std::vector<float> values, double epsilon);
/// a and b merged (values sorted together), then compressed to epsilon.
QuantileSummary merge_summaries(const QuantileSummary& a, const QuantileSummary& b, double epsilon);
/// At most 1/epsilon points at cumulative weight fractions epsilon, 2 epsilon, ..., 1 (unchanged when
/// the summary is already smaller).
QuantileSummary compress_summary(const QuantileSummary& s, double epsilon);
/// num_bins - 1 boundaries: the summary compressed to 1/num_bins, without its last point.
std::vector<double> bin_boundaries(const QuantileSummary& s, std::int64_t num_bins);

}  // namespace keras::layers::preprocessing
