// DenseFeatures: feature columns to one dense tensor (see dense_features.hpp).
#include "keras/estimator/dense_features.hpp"

#include <set>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/initializers/random.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/variable.hpp"

namespace keras::estimator {

DenseFeatures::DenseFeatures(std::vector<Column> feature_columns, DenseFeaturesOptions options)
    : Layer(options, "dense_features"), columns_(sorted_columns(feature_columns, "DenseFeatures")), options_(options) {
  std::set<std::string> keys;
  for (const auto& c : columns_) {
    if (!options_.linear && c->dense_dimension() == 0)
      throw ValueError(fmt::format("DenseFeatures: feature column '{}' is categorical; items of feature_columns must be "
                                   "dense columns: wrap it with embedding_column or indicator_column",
                                   c->name()));
    for (const auto& k : c->keys()) keys.insert(k);
  }
  keys_.assign(keys.begin(), keys.end());
}

std::int64_t DenseFeatures::width(const Column& c) const {
  return c->dense_dimension() > 0 ? c->dense_dimension() : c->num_buckets();
}

std::int64_t DenseFeatures::output_dimension() const {
  std::int64_t total = 0;
  for (const auto& c : columns_) total += width(c);
  return total;
}

KerasTensor DenseFeatures::operator()(const Features& features) & {
  std::vector<KerasTensor> inputs;
  for (const auto& k : keys_) {
    auto it = features.find(k);
    if (it == features.end())
      throw ValueError(fmt::format("DenseFeatures '{}': the feature columns read feature '{}', which the features do "
                                   "not have; return it from input_fn",
                                   name(), k));
    inputs.push_back(it->second);
  }
  return Layer::operator()(inputs);
}

Tensor DenseFeatures::operator()(const FeatureTensors& features) {
  std::vector<Tensor> inputs;
  for (const auto& k : keys_) {
    auto it = features.find(k);
    if (it == features.end()) throw ValueError(fmt::format("DenseFeatures '{}': no feature '{}' in the batch", name(), k));
    inputs.push_back(it->second);
  }
  return Layer::operator()(inputs);
}

void DenseFeatures::build(const std::vector<Shape>& input_shapes) {
  if (input_shapes.size() != keys_.size())
    throw ValueError(fmt::format("DenseFeatures '{}' takes {} features, got {} inputs", name(), keys_.size(), input_shapes.size()));
  for (const auto& c : columns_) {
    const Shape shape = c->weight_shape();
    if (shape.empty() || (options_.linear && c->dense_dimension() == 0)) continue;
    tables_[c->name()] = add_weight(c->name() + "_weights", shape,
                                    initializers::TruncatedNormal({.mean = 0.0, .stddev = c->weight_stddev()}));
  }
}

std::vector<Tensor> DenseFeatures::call(const std::vector<Tensor>& inputs, const CallContext&) {
  if (inputs.size() != keys_.size())
    throw ValueError(fmt::format("DenseFeatures '{}' takes {} features, got {} inputs", name(), keys_.size(), inputs.size()));
  FeatureTensors features;
  for (std::size_t i = 0; i < keys_.size(); ++i) features[keys_[i]] = inputs[i];
  std::vector<Tensor> parts;
  for (const auto& c : columns_) {
    if (c->dense_dimension() == 0) {
      parts.push_back(count_encoding(c->ids(features), c->num_buckets(), c->name()));
      continue;
    }
    auto it = tables_.find(c->name());
    parts.push_back(c->dense(features, it == tables_.end() ? Tensor() : it->second->value()));
  }
  return {parts.size() == 1 ? parts[0] : ops::concatenate(parts, 1)};
}

std::vector<Shape> DenseFeatures::compute_output_shape(const std::vector<Shape>& input_shapes) const {
  const std::int64_t batch = input_shapes.empty() || input_shapes[0].empty() ? -1 : input_shapes[0][0];
  return {{batch, output_dimension()}};
}

KerasTensor input_layer(const Features& features, const std::vector<Column>& feature_columns, DenseFeaturesOptions options) {
  auto layer = std::make_shared<DenseFeatures>(feature_columns, options);
  return (*layer)(features);
}

KERAS_REGISTER_LAYER(DenseFeatures)

}  // namespace keras::estimator
