#pragma once
// DenseFeatures (tf.keras.layers.DenseFeatures, tf.compat.v1.feature_column.input_layer): feature columns
// to one float32 tensor [batch, sum of the columns' widths], the columns in name order as tf orders them.
// Its inputs are the raw features the columns read (sorted by key); it holds the embedding tables.
// With `linear` (what LinearClassifier/LinearRegressor read, as tf's LinearModel) a categorical column
// enters as its count encoding, so a Dense layer on top is tf's weighted sum of the columns.
//   auto net = keras::estimator::input_layer(features, columns);     // features: name -> KerasTensor
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "keras/estimator/feature_columns.hpp"
#include "keras/keras_tensor.hpp"
#include "keras/layer.hpp"

namespace keras::estimator {

/// Symbolic features by name (the inputs an Estimator makes from input_fn's features).
using Features = std::map<std::string, KerasTensor>;

struct DenseFeaturesOptions {
  /// Categorical columns enter as count encodings (tf's LinearModel); otherwise they must be wrapped.
  bool linear = false;
  KERAS_LAYER_OPTIONS
};

class DenseFeatures : public Layer {
 public:
  explicit DenseFeatures(std::vector<Column> feature_columns, DenseFeaturesOptions options = {});
  using Layer::build;
  using Layer::call;
  /// Runs on `features`: calls the layer on the features its columns read.
  KerasTensor operator()(const Features& features) &;
  /// The same on a batch of raw features.
  Tensor operator()(const FeatureTensors& features);
  void build(const std::vector<Shape>& input_shapes) override;
  std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context) override;
  std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const override;
  bool accepts_strings() const override { return true; }
  /// The raw feature keys read, sorted (the order of the layer's inputs).
  const std::vector<std::string>& input_keys() const { return keys_; }
  const std::vector<Column>& columns() const { return columns_; }
  /// The total width of the output.
  std::int64_t output_dimension() const;

 private:
  std::vector<Column> columns_;
  DenseFeaturesOptions options_;
  std::vector<std::string> keys_;
  std::map<std::string, std::shared_ptr<Variable>> tables_;  // by column name
  std::int64_t width(const Column& c) const;
  KERAS_LAYER(DenseFeatures)
};

/// tf.compat.v1.feature_column.input_layer: a new DenseFeatures layer called on `features`.
KerasTensor input_layer(const Features& features, const std::vector<Column>& feature_columns, DenseFeaturesOptions options = {});

}  // namespace keras::estimator
