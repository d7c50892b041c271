// Feature columns on the preprocessing layers (see feature_columns.hpp): the numeric, bucketized, indicator and
// embedding columns, and the helpers every column uses; the categorical columns are in categorical_columns.cpp.
#include "keras/estimator/feature_columns.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/estimator/raw_features.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "layers/preprocessing/numeric/discretization.hpp"

namespace keras::estimator {
namespace detail {

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

const Tensor& raw_feature(const FeatureTensors& features, const std::string& key, const std::string& column) {
  auto it = features.find(key);
  if (it == features.end()) {
    std::string known;
    for (const auto& [k, v] : features) known += (known.empty() ? "" : ", ") + k;
    throw ValueError(fmt::format("Feature column '{}' reads feature '{}', which the input does not have (it has: {}); "
                                 "return it from input_fn",
                                 column, key, known));
  }
  return it->second;
}

Tensor as_matrix(const Tensor& t) {
  if (t.ndim() == 0) throw ValueError("A feature must have a batch dimension; got a scalar " + t.str());
  const std::int64_t batch = t.dim(0);
  return t.reshape({batch, batch == 0 ? 0 : t.size() / batch});
}

}  // namespace detail

namespace {
using detail::as_matrix;
using detail::raw_feature;
using detail::shape_str;

class NumericColumn : public FeatureColumn {
 public:
  NumericColumn(std::string key, NumericColumnOptions options) : key_(std::move(key)), options_(std::move(options)) {
    for (auto d : options_.shape)
      if (d < 1) throw ValueError(fmt::format("numeric_column('{}'): shape dimensions must be positive, got {}", key_, shape_str(options_.shape)));
  }
  std::string name() const override { return key_; }
  std::vector<std::string> keys() const override { return {key_}; }
  std::int64_t dense_dimension() const override {
    return std::accumulate(options_.shape.begin(), options_.shape.end(), std::int64_t{1}, std::multiplies<>());
  }
  Tensor dense(const FeatureTensors& features, const Tensor&) const override {
    const Tensor& raw = raw_feature(features, key_, key_);
    if (raw.dtype() == DType::string)
      throw ValueError(fmt::format("numeric_column('{}') got strings; use a categorical column for them", key_));
    Tensor value = as_matrix(raw.dtype() == DType::float32 ? raw : raw.astype(DType::float32));
    if (value.dim(1) != dense_dimension())
      throw ValueError(fmt::format("numeric_column('{}') has shape {} ({} values per example), but the feature {} has {}",
                                   key_, shape_str(options_.shape), dense_dimension(), raw.str(), value.dim(1)));
    if (options_.normalizer_fn) value = as_matrix(options_.normalizer_fn(value));
    return value;
  }

 private:
  std::string key_;
  NumericColumnOptions options_;
};

class BucketizedColumn : public FeatureColumn {
 public:
  BucketizedColumn(Column source, std::vector<double> boundaries) : source_(std::move(source)), boundaries_(std::move(boundaries)) {
    if (!source_ || !dynamic_cast<const NumericColumn*>(source_.get()))
      throw ValueError("bucketized_column needs a numeric_column as its source");
    if (boundaries_.empty() || !std::is_sorted(boundaries_.begin(), boundaries_.end()) ||
        std::adjacent_find(boundaries_.begin(), boundaries_.end()) != boundaries_.end())
      throw ValueError(fmt::format("bucketized_column('{}'): boundaries must be a non-empty sorted list of distinct values",
                                   source_->name()));
    discretization_ = std::make_shared<layers::Discretization>(
        layers::DiscretizationOptions{.bin_boundaries = boundaries_, .output_mode = "int"});
  }
  std::string name() const override { return source_->name() + "_bucketized"; }
  std::vector<std::string> keys() const override { return source_->keys(); }
  std::int64_t num_buckets() const override {
    return static_cast<std::int64_t>(boundaries_.size() + 1) * source_->dense_dimension();
  }
  std::int64_t dense_dimension() const override { return num_buckets(); }
  Tensor ids(const FeatureTensors& features) const override {
    Tensor ids = (*discretization_)(source_->dense(features, {})).astype(DType::int64).clone();
    // The i-th value of an example falls in buckets [i * (n + 1), (i + 1) * (n + 1)), as tf offsets them.
    const auto per = static_cast<std::int64_t>(boundaries_.size() + 1);
    auto* p = ids.data<std::int64_t>();
    const std::int64_t width = ids.dim(1);
    for (std::int64_t i = 0; i < ids.size(); ++i) p[i] += (i % width) * per;
    return ids;
  }
  Tensor dense(const FeatureTensors& features, const Tensor&) const override {
    return count_encoding(ids(features), num_buckets(), name());
  }

 private:
  Column source_;
  std::vector<double> boundaries_;
  std::shared_ptr<layers::Discretization> discretization_;
};

Column require_categorical(const Column& c, const std::string& what) {
  if (!c || c->num_buckets() == 0)
    throw ValueError(what + " needs a categorical column (categorical_column_with_*, bucketized_column or crossed_column)");
  return c;
}

class IndicatorColumn : public FeatureColumn {
 public:
  explicit IndicatorColumn(Column c) : categorical_(require_categorical(c, "indicator_column")) {}
  std::string name() const override { return categorical_->name() + "_indicator"; }
  std::vector<std::string> keys() const override { return categorical_->keys(); }
  std::int64_t dense_dimension() const override { return categorical_->num_buckets(); }
  Tensor dense(const FeatureTensors& features, const Tensor&) const override {
    return count_encoding(categorical_->ids(features), categorical_->num_buckets(), name());
  }

 private:
  Column categorical_;
};

class EmbeddingColumn : public FeatureColumn {
 public:
  EmbeddingColumn(Column c, std::int64_t dimension, EmbeddingColumnOptions options)
      : categorical_(require_categorical(c, "embedding_column")), dimension_(dimension), options_(std::move(options)) {
    if (dimension_ < 1) throw ValueError(fmt::format("embedding_column('{}'): dimension must be >= 1", categorical_->name()));
    if (options_.combiner != "mean" && options_.combiner != "sum" && options_.combiner != "sqrtn")
      throw ValueError(fmt::format("embedding_column('{}'): combiner must be 'mean', 'sum' or 'sqrtn', got '{}'",
                                   categorical_->name(), options_.combiner));
  }
  std::string name() const override { return categorical_->name() + "_embedding"; }
  std::vector<std::string> keys() const override { return categorical_->keys(); }
  std::int64_t dense_dimension() const override { return dimension_; }
  Shape weight_shape() const override { return {categorical_->num_buckets(), dimension_}; }
  double weight_stddev() const override { return options_.initializer_stddev.value_or(1.0 / std::sqrt(double(dimension_))); }
  Tensor dense(const FeatureTensors& features, const Tensor& table) const override {
    if (!table.defined()) throw ValueError("embedding_column '" + name() + "' needs its table (use it through DenseFeatures)");
    // counts @ table sums the rows of an example's ids (differentiable in the table); then the combiner.
    Tensor counts = count_encoding(categorical_->ids(features), categorical_->num_buckets(), name());
    Tensor summed = ops::matmul(counts, table);
    if (options_.combiner == "sum") return summed;
    const std::int64_t batch = counts.dim(0), n = counts.dim(1);
    std::vector<float> scale(static_cast<std::size_t>(batch));
    const float* c = counts.data<float>();
    for (std::int64_t b = 0; b < batch; ++b) {
      double total = 0;
      for (std::int64_t j = 0; j < n; ++j) total += c[b * n + j];
      const double d = options_.combiner == "mean" ? total : std::sqrt(total);
      scale[b] = d > 0 ? static_cast<float>(1.0 / d) : 0.f;
    }
    return ops::multiply(summed, Tensor::from_vector(scale, {batch, 1}));
  }

 private:
  Column categorical_;
  std::int64_t dimension_;
  EmbeddingColumnOptions options_;
};
}  // namespace

Tensor FeatureColumn::dense(const FeatureTensors&, const Tensor&) const {
  throw ValueError("Feature column '" + name() + "' is categorical, not dense: wrap it in indicator_column or embedding_column");
}
Tensor FeatureColumn::ids(const FeatureTensors&) const {
  throw ValueError("Feature column '" + name() + "' is not categorical");
}

Column numeric_column(const std::string& key, NumericColumnOptions options) {
  return std::make_shared<NumericColumn>(key, std::move(options));
}
Column bucketized_column(const Column& source_column, std::vector<double> boundaries) {
  return std::make_shared<BucketizedColumn>(source_column, std::move(boundaries));
}
Column indicator_column(const Column& categorical_column) { return std::make_shared<IndicatorColumn>(categorical_column); }
Column embedding_column(const Column& categorical_column, std::int64_t dimension, EmbeddingColumnOptions options) {
  return std::make_shared<EmbeddingColumn>(categorical_column, dimension, std::move(options));
}

std::vector<Column> sorted_columns(const std::vector<Column>& columns, const std::string& caller) {
  if (columns.empty()) throw ValueError(caller + ": feature_columns must not be empty");
  std::vector<Column> out = columns;
  for (const auto& c : out)
    if (!c) throw ValueError(caller + ": a feature column is null");
  std::stable_sort(out.begin(), out.end(), [](const Column& a, const Column& b) { return a->name() < b->name(); });
  for (std::size_t i = 1; i < out.size(); ++i)
    if (out[i]->name() == out[i - 1]->name())
      throw ValueError(caller + ": duplicate feature column name '" + out[i]->name() + "'");
  return out;
}

Tensor count_encoding(const Tensor& ids, std::int64_t depth, const std::string& column) {
  const Tensor m = ids.ndim() == 1 ? ids.reshape({ids.dim(0), 1}) : ids;
  const std::int64_t batch = m.dim(0), k = m.dim(1);
  Tensor out = Tensor::zeros({batch, depth});
  float* o = out.data<float>();
  const Tensor i64 = m.dtype() == DType::int64 ? m : m.astype(DType::int64);
  const std::int64_t* p = i64.data<std::int64_t>();
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t j = 0; j < k; ++j) {
      const std::int64_t id = p[b * k + j];
      if (id < 0) continue;
      if (id >= depth) throw ValueError(fmt::format("Feature column '{}': id {} is outside [0, {})", column, id, depth));
      o[b * depth + id] += 1.f;
    }
  return out;
}

}  // namespace keras::estimator
