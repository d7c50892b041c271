// The categorical feature columns (see feature_columns.hpp): vocabulary (StringLookup / IntegerLookup),
// identity, hash bucket (Hashing) and crossed (HashedCrossing).
#include <algorithm>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/estimator/feature_columns.hpp"
#include "keras/estimator/raw_features.hpp"
#include "layers/preprocessing/categorical/hashed_crossing.hpp"
#include "layers/preprocessing/categorical/hashing.hpp"
#include "layers/preprocessing/categorical/integer_lookup.hpp"
#include "layers/preprocessing/categorical/string_lookup.hpp"

namespace keras::estimator {
namespace {
using detail::as_matrix;
using detail::raw_feature;
using detail::shape_str;

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
}  // namespace keras::estimator
