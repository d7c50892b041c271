#pragma once
// Helpers shared by the metric implementations: Keras's matching of targets, predictions and sample
// weights (squeeze_or_expand_dimensions, broadcast_weights), plain value access, and Keras's check of
// thresholds.
#include <initializer_list>
#include <string>
#include <vector>

#include "keras/json.hpp"
#include "keras/registry.hpp"
#include "keras/tensor.hpp"

namespace keras::metrics::detail {

/// The values of a tensor of any dtype, as float32, in row-major order.
std::vector<float> float_values(const Tensor& t);

/// y_true reshaped to y_pred's shape when one of them has an extra trailing axis of size 1
/// ((N,) against (N, 1) or the reverse), as Keras's squeeze_or_expand_dimensions does; otherwise y_true.
Tensor match_rank(const Tensor& y_true, const Tensor& y_pred);

/// One weight per element of a tensor shaped `shape`, from Keras's sample_weight rules: undefined → all
/// ones; a weight of rank one lower gets a trailing axis (one weight per sample); then NumPy
/// broadcasting, or, when the weight's dimensions lead `shape`, one weight per leading index.
/// A ValueError names `metric_name` and both shapes when they cannot match.
std::vector<float> broadcast_weights(const Tensor& sample_weight, const Shape& shape, const std::string& metric_name);

/// state() of a metric: the concatenation of its accumulators.
std::vector<double> concat_state(std::initializer_list<const std::vector<double>*> parts);
/// set_state() of a metric: `state` split back into accumulators of their current sizes; a ValueError names
/// `metric_name` when the sizes do not add up (a state from a metric built for other shapes).
void split_state(const std::vector<double>& state, std::initializer_list<std::vector<double>*> parts,
                 const std::string& metric_name);

/// Keras's checks that thresholds lie in [0, 1]; the error names the metric.
void check_thresholds(const std::vector<double>& thresholds, const std::string& metric_name);

}  // namespace keras::metrics::detail
