// Feature columns on the preprocessing layers (see feature_columns.hpp).
#include "keras/estimator/feature_columns.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "layers/preprocessing/categorical/hashed_crossing.hpp"
#include "layers/preprocessing/categorical/hashing.hpp"
#include "layers/preprocessing/categorical/integer_lookup.hpp"
#include "layers/preprocessing/categorical/string_lookup.hpp"
#include "layers/preprocessing/numeric/discretization.hpp"

namespace keras::estimator {
namespace {

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + ")";
}

// The raw feature `key`, [batch, rest...] (a rank-1 feature as [batch, 1]).
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

// Values as [batch, k] (k = product of the other dimensions).
Tensor as_matrix(const Tensor& t) {
  if (t.ndim() == 0) throw ValueError("A feature must have a batch dimension; got a scalar " + t.str());
  const std::int64_t batch = t.dim(0);
  return t.reshape({batch, batch == 0 ? 0 : t.size() / batch});
}

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

// Vocabulary columns: a lookup layer with max(B, 1) OOV indices in front gives OOV ids 0..B-1 and vocabulary
// ids B..; tf's ids put the vocabulary first (0..V-1) and the OOV buckets after it (V..V+B-1).
class VocabularyColumn : public FeatureColumn {
 public:
  VocabularyColumn(std::string key, std::shared_ptr<Layer> lookup, std::int64_t vocab_size, VocabularyOptions options)
      : key_(std::move(key)), lookup_(std::move(lookup)), vocab_size_(vocab_size), options_(options) {
    if (options_.num_oov_buckets < 0)
      throw ValueError(fmt::format("Vocabulary column '{}': num_oov_buckets must be >= 0", key_));
    if (options_.num_oov_buckets > 0 && options_.default_value != -1)
      throw ValueError(fmt::format("Vocabulary column '{}': give num_oov_buckets or default_value, not both", key_));
    if (options_.default_value < -1 || options_.default_value >= vocab_size_)
      throw ValueError(fmt::format("Vocabulary column '{}': default_value {} is not -1 or an id of the {} tokens", key_,
                                   options_.default_value, vocab_size_));
  }
  std::string name() const override { return key_; }
  std::vector<std::string> keys() const override { return {key_}; }
  std::int64_t num_buckets() const override { return vocab_size_ + options_.num_oov_buckets; }
  Tensor ids(const FeatureTensors& features) const override {
    Tensor looked = as_matrix((*lookup_)(raw_feature(features, key_, key_))).astype(DType::int64).clone();
    const std::int64_t oov = std::max<std::int64_t>(options_.num_oov_buckets, 1);
    auto* p = looked.data<std::int64_t>();
    for (std::int64_t i = 0; i < looked.size(); ++i) {
      if (p[i] >= oov) p[i] -= oov;
      else p[i] = options_.num_oov_buckets > 0 ? vocab_size_ + p[i] : options_.default_value;
    }
    return looked;
  }

 private:
  std::string key_;
  std::shared_ptr<Layer> lookup_;
  std::int64_t vocab_size_;
  VocabularyOptions options_;
};

class IdentityColumn : public FeatureColumn {
 public:
  IdentityColumn(std::string key, std::int64_t num_buckets, std::optional<std::int64_t> default_value)
      : key_(std::move(key)), num_buckets_(num_buckets), default_value_(default_value) {
    if (num_buckets_ < 1) throw ValueError(fmt::format("categorical_column_with_identity('{}'): num_buckets must be >= 1", key_));
    if (default_value_ && (*default_value_ < 0 || *default_value_ >= num_buckets_))
      throw ValueError(fmt::format("categorical_column_with_identity('{}'): default_value {} is outside [0, {})", key_,
                                   *default_value_, num_buckets_));
  }
  std::string name() const override { return key_; }
  std::vector<std::string> keys() const override { return {key_}; }
  std::int64_t num_buckets() const override { return num_buckets_; }
  Tensor ids(const FeatureTensors& features) const override {
    const Tensor& raw = raw_feature(features, key_, key_);
    if (raw.dtype() == DType::string || raw.dtype() == DType::float32 || raw.dtype() == DType::float64)
      throw ValueError(fmt::format("categorical_column_with_identity('{}') needs integer ids, got {}", key_, raw.str()));
    Tensor ids = as_matrix(raw.astype(DType::int64)).clone();
    auto* p = ids.data<std::int64_t>();
    for (std::int64_t i = 0; i < ids.size(); ++i) {
      if (p[i] >= 0 && p[i] < num_buckets_) continue;
      if (!default_value_)
        throw ValueError(fmt::format("categorical_column_with_identity('{}'): id {} is outside [0, {}); give a "
                                     "default_value for such ids",
                                     key_, p[i], num_buckets_));
      p[i] = *default_value_;
    }
    return ids;
  }

 private:
  std::string key_;
  std::int64_t num_buckets_;
  std::optional<std::int64_t> default_value_;
};

class HashBucketColumn : public FeatureColumn {
 public:
  HashBucketColumn(std::string key, std::int64_t size) : key_(std::move(key)), size_(size) {
    if (size_ < 2)  // tf requires > 1
      throw ValueError(fmt::format("categorical_column_with_hash_bucket('{}'): hash_bucket_size must be > 1, got {}", key_, size_));
    hashing_ = std::make_shared<layers::Hashing>(size_);
  }
  std::string name() const override { return key_; }
  std::vector<std::string> keys() const override { return {key_}; }
  std::int64_t num_buckets() const override { return size_; }
  Tensor ids(const FeatureTensors& features) const override {
    const Tensor& raw = raw_feature(features, key_, key_);
    if (raw.dtype() == DType::float32 || raw.dtype() == DType::float64)
      throw ValueError(fmt::format("categorical_column_with_hash_bucket('{}') needs strings or integers, got {}", key_, raw.str()));
    return as_matrix((*hashing_)(raw)).astype(DType::int64);
  }

 private:
  std::string key_;
  std::int64_t size_;
  std::shared_ptr<layers::Hashing> hashing_;
};

class CrossedColumn : public FeatureColumn {
 public:
  CrossedColumn(std::vector<CrossKey> keys, std::int64_t size) : keys_(std::move(keys)), size_(size) {
    if (keys_.size() < 2) throw ValueError("crossed_column needs at least two keys");
    if (size_ < 2) throw ValueError(fmt::format("crossed_column: hash_bucket_size must be > 1, got {}", size_));
    for (const auto& k : keys_)
      if (const Column* c = std::get_if<Column>(&k)) {
        if (!*c || (*c)->num_buckets() == 0)
          throw ValueError("crossed_column: a key must be a feature name or a categorical column");
        if (dynamic_cast<const HashBucketColumn*>(c->get()))
          throw ValueError("crossed_column does not take a categorical_column_with_hash_bucket ('" + (*c)->name() +
                           "'); give its feature key instead");
      }
    crossing_ = std::make_shared<layers::HashedCrossing>(size_);
  }
  std::string name() const override {
    std::vector<std::string> names;
    for (const auto& k : keys_) names.push_back(std::holds_alternative<std::string>(k) ? std::get<std::string>(k) : std::get<Column>(k)->name());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : "_X_") + n;
    return out;
  }
  std::vector<std::string> keys() const override {
    std::vector<std::string> out;
    for (const auto& k : keys_) {
      if (std::holds_alternative<std::string>(k)) out.push_back(std::get<std::string>(k));
      else for (const auto& key : std::get<Column>(k)->keys()) out.push_back(key);
    }
    return out;
  }
  std::int64_t num_buckets() const override { return size_; }
  Tensor ids(const FeatureTensors& features) const override {
    std::vector<Tensor> parts;
    for (const auto& k : keys_) {
      Tensor t = std::holds_alternative<std::string>(k) ? raw_feature(features, std::get<std::string>(k), name())
                                                        : std::get<Column>(k)->ids(features);
      if (t.ndim() == 2 && t.dim(1) != 1)
        throw ValueError(fmt::format("crossed_column '{}' crosses one value per example; a part has shape {}", name(), shape_str(t.shape())));
      if (t.dtype() == DType::float32 || t.dtype() == DType::float64)
        throw ValueError(fmt::format("crossed_column '{}' crosses strings or integers; a part is {}", name(), t.str()));
      parts.push_back(t.ndim() == 2 ? t : as_matrix(t));
    }
    return as_matrix(crossing_->call_all(parts)[0]).astype(DType::int64);
  }

 private:
  std::vector<CrossKey> keys_;
  std::int64_t size_;
  std::shared_ptr<layers::HashedCrossing> crossing_;
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

std::vector<std::string> read_vocabulary_file(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  if (!in) throw IOError(fmt::format("categorical_column_with_vocabulary_file('{}'): cannot open '{}'", key, path));
  std::vector<std::string> tokens;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    tokens.push_back(line);
  }
  return tokens;
}

template <class T>
void check_vocabulary(const std::vector<T>& vocab, const std::string& key) {
  if (vocab.empty()) throw ValueError(fmt::format("Vocabulary column '{}': the vocabulary is empty", key));
  if (std::set<T>(vocab.begin(), vocab.end()).size() != vocab.size())
    throw ValueError(fmt::format("Vocabulary column '{}': the vocabulary has duplicates", key));
}

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
Column categorical_column_with_vocabulary_list(const std::string& key, std::vector<std::string> vocabulary_list,
                                               VocabularyOptions options) {
  check_vocabulary(vocabulary_list, key);
  const auto n = static_cast<std::int64_t>(vocabulary_list.size());
  auto lookup = std::make_shared<layers::StringLookup>(layers::StringLookupOptions{
      .num_oov_indices = std::max<std::int64_t>(options.num_oov_buckets, 1), .vocabulary = std::move(vocabulary_list)});
  return std::make_shared<VocabularyColumn>(key, lookup, n, options);
}
Column categorical_column_with_vocabulary_list(const std::string& key, std::vector<std::int64_t> vocabulary_list,
                                               VocabularyOptions options) {
  check_vocabulary(vocabulary_list, key);
  const auto n = static_cast<std::int64_t>(vocabulary_list.size());
  auto lookup = std::make_shared<layers::IntegerLookup>(layers::IntegerLookupOptions{
      .num_oov_indices = std::max<std::int64_t>(options.num_oov_buckets, 1), .vocabulary = std::move(vocabulary_list),
      .oov_method = "farmhash"});
  return std::make_shared<VocabularyColumn>(key, lookup, n, options);
}
Column categorical_column_with_vocabulary_file(const std::string& key, const std::string& vocabulary_file,
                                               VocabularyOptions options) {
  return categorical_column_with_vocabulary_list(key, read_vocabulary_file(vocabulary_file, key), options);
}
Column categorical_column_with_identity(const std::string& key, std::int64_t num_buckets, std::optional<std::int64_t> default_value) {
  return std::make_shared<IdentityColumn>(key, num_buckets, default_value);
}
Column categorical_column_with_hash_bucket(const std::string& key, std::int64_t hash_bucket_size) {
  return std::make_shared<HashBucketColumn>(key, hash_bucket_size);
}
Column crossed_column(const std::vector<CrossKey>& keys, std::int64_t hash_bucket_size) {
  return std::make_shared<CrossedColumn>(keys, hash_bucket_size);
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
