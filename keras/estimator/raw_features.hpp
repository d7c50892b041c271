#pragma once
// Internal to the feature columns: reading raw features (feature_columns.cpp, categorical_columns.cpp).
#include <string>

#include "keras/estimator/feature_columns.hpp"

namespace keras::estimator::detail {

/// "(2, 3)".
std::string shape_str(const Shape& s);
/// The raw feature `key`; a missing one is a ValueError naming the column and the features there are.
const Tensor& raw_feature(const FeatureTensors& features, const std::string& key, const std::string& column);
/// Values as [batch, k] (k = product of the other dimensions).
Tensor as_matrix(const Tensor& t);

}  // namespace keras::estimator::detail
