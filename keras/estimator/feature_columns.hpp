#pragma once
// Feature columns (tf.feature_column): how the raw features of an Estimator's input (a map name -> Tensor)
// become the numbers a model reads. Built on the preprocessing layers:
//   numeric_column                          the value as float32, [batch, prod(shape)]
//   bucketized_column                       Discretization: bucket ids, one-hot as a dense column
//   categorical_column_with_vocabulary_list StringLookup / IntegerLookup (ids 0..V-1, OOV buckets V..V+B-1)
//   categorical_column_with_vocabulary_file StringLookup over a vocabulary file
//   categorical_column_with_identity        the integer itself, checked against num_buckets
//   categorical_column_with_hash_bucket     Hashing: FarmHash Fingerprint64 of the text mod n (to_hash_bucket_fast)
//   crossed_column                          HashedCrossing of raw features and categorical ids (sparse_cross_hashed)
//   indicator_column                        the count (one/multi-hot) encoding of a categorical column's ids
//   embedding_column                        a trainable [num_buckets, dimension] table, combined per example
// A categorical column gives int64 ids of shape [batch, k] (k values per example; -1: missing, as tf's
// default_value=-1 drops a value). Column names follow tf's ("age_bucketized", "a_X_b", "x_indicator",
// "x_embedding"); DenseFeatures orders columns by name, as tf does.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {
class Layer;
class Variable;
}  // namespace keras

namespace keras::estimator {

/// A batch of raw features by name (rank-1 features are read as [batch, 1]).
using FeatureTensors = std::map<std::string, Tensor>;

class FeatureColumn {
 public:
  virtual ~FeatureColumn() = default;
  /// tf's column name ("age", "age_bucketized", "a_X_b", ...).
  virtual std::string name() const = 0;
  /// The raw feature keys the column reads.
  virtual std::vector<std::string> keys() const = 0;
  /// Width of the dense value (0: not a dense column; wrap it in indicator_column or embedding_column).
  virtual std::int64_t dense_dimension() const { return 0; }
  /// The dense value [batch, dense_dimension()] (float32); `table` is the column's trainable weight if any.
  virtual Tensor dense(const FeatureTensors& features, const Tensor& table) const;
  /// Number of id values (0: not a categorical column).
  virtual std::int64_t num_buckets() const { return 0; }
  /// int64 ids [batch, k] in [0, num_buckets()), -1 for a missing value.
  virtual Tensor ids(const FeatureTensors& features) const;
  /// Shape of the trainable weight the column needs (empty: none) and its initializer's stddev.
  virtual Shape weight_shape() const { return {}; }
  virtual double weight_stddev() const { return 0; }
};

using Column = std::shared_ptr<const FeatureColumn>;

struct NumericColumnOptions {
  Shape shape{1};
  /// tf's normalizer_fn: applied to the float32 value before the model (and before bucketizing).
  std::function<Tensor(const Tensor&)> normalizer_fn{};
};
Column numeric_column(const std::string& key, NumericColumnOptions options = {});

/// Buckets of a numeric column by `boundaries` (sorted): len(boundaries) + 1 buckets per value.
Column bucketized_column(const Column& source_column, std::vector<double> boundaries);

struct VocabularyOptions {
  /// Values outside the vocabulary go to one of these many hash buckets after it (FarmHash of the text);
  /// 0: they get default_value.
  std::int64_t num_oov_buckets = 0;
  /// The id of an out-of-vocabulary value when num_oov_buckets is 0 (-1: missing).
  std::int64_t default_value = -1;
};
Column categorical_column_with_vocabulary_list(const std::string& key, std::vector<std::string> vocabulary_list,
                                               VocabularyOptions options = {});
Column categorical_column_with_vocabulary_list(const std::string& key, std::vector<std::int64_t> vocabulary_list,
                                               VocabularyOptions options = {});
/// One token a line (strings).
Column categorical_column_with_vocabulary_file(const std::string& key, const std::string& vocabulary_file,
                                               VocabularyOptions options = {});

/// Integer ids in [0, num_buckets); others get default_value, or are an error when it is unset.
Column categorical_column_with_identity(const std::string& key, std::int64_t num_buckets,
                                        std::optional<std::int64_t> default_value = {});
/// Strings (or integers, as their decimal text) to FarmHash Fingerprint64 mod hash_bucket_size.
Column categorical_column_with_hash_bucket(const std::string& key, std::int64_t hash_bucket_size);

/// A raw feature key or a categorical column (not a hash-bucket one, as tf).
using CrossKey = std::variant<std::string, Column>;
/// The hashed cross of the keys' values (tf.sparse.cross_hashed, the HashedCrossing layer).
Column crossed_column(const std::vector<CrossKey>& keys, std::int64_t hash_bucket_size);

/// The one-hot (multi-hot: counts) encoding of a categorical column, [batch, num_buckets].
Column indicator_column(const Column& categorical_column);

struct EmbeddingColumnOptions {
  /// "mean", "sum" or "sqrtn" over an example's ids.
  std::string combiner = "mean";
  /// Stddev of the truncated-normal initializer (unset: 1 / sqrt(dimension), as tf).
  std::optional<double> initializer_stddev{};
};
/// A trainable embedding of a categorical column's ids, [batch, dimension].
Column embedding_column(const Column& categorical_column, std::int64_t dimension, EmbeddingColumnOptions options = {});

/// The columns sorted by name (tf's order), checked for duplicate names.
std::vector<Column> sorted_columns(const std::vector<Column>& columns, const std::string& caller);
/// The count encoding of ids [batch, k] over `depth` buckets (-1 ids skipped), float32 [batch, depth].
Tensor count_encoding(const Tensor& ids, std::int64_t depth, const std::string& column);

}  // namespace keras::estimator
