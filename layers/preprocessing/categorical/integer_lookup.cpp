#include "layers/preprocessing/categorical/integer_lookup.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/numeric/adapt_batches.hpp"

namespace keras::layers {

KERAS_FIELDS(IntegerLookupOptions, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, vocabulary_dtype,
             invert, output_mode, sparse, pad_to_max_tokens)

IntegerLookup::IntegerLookup(IntegerLookupOptions options) : Layer(options, "integer_lookup"), options_(std::move(options)) {
  const auto& mode = options_.output_mode;
  check_output_mode(mode, true, "IntegerLookup (kerascpp has no tf_idf yet)");
  if (options_.num_oov_indices < 0)
    throw ValueError(fmt::format("IntegerLookup: `num_oov_indices` must be >= 0, received {}", options_.num_oov_indices));
  if (options_.invert && mode != "int") throw ValueError("IntegerLookup: `output_mode` must be \"int\" when invert=true");
  if (options_.mask_token && mode != "int")
    throw ValueError("IntegerLookup: kerascpp supports `mask_token` with output_mode \"int\" only");
  if (options_.sparse) throw ValueError("IntegerLookup: sparse outputs are not supported by kerascpp; use sparse=false");
  if (options_.max_tokens && *options_.max_tokens <= token_start())
    throw ValueError(fmt::format("IntegerLookup: `max_tokens` = {} leaves no room for a vocabulary after the {} mask and "
                                 "OOV indices",
                                 *options_.max_tokens, token_start()));
  if (options_.pad_to_max_tokens && !options_.max_tokens)
    throw ValueError("IntegerLookup: pad_to_max_tokens=true needs `max_tokens`");
  if (options_.vocabulary) set_vocabulary(*options_.vocabulary);
}

void IntegerLookup::set_vocabulary(const std::vector<std::int64_t>& given) {
  // A vocabulary that starts with the mask token (as get_vocabulary() returns it) is taken without it.
  std::vector<std::int64_t> vocabulary = given;
  if (options_.mask_token && !vocabulary.empty() && vocabulary.front() == *options_.mask_token)
    vocabulary.erase(vocabulary.begin());
  index_of_.clear();
  for (std::size_t i = 0; i < vocabulary.size(); ++i) {
    const std::int64_t token = vocabulary[i];
    if (options_.mask_token && token == *options_.mask_token)
      throw ValueError(fmt::format("IntegerLookup: the vocabulary contains the mask token {}; leave it out", token));
    if (!index_of_.emplace(token, token_start() + static_cast<std::int64_t>(i)).second)
      throw ValueError(fmt::format("IntegerLookup: the vocabulary contains {} twice; each token must be unique", token));
  }
  if (options_.max_tokens && vocabulary_size() > *options_.max_tokens)
    throw ValueError(fmt::format("IntegerLookup: a vocabulary of {} tokens plus {} mask and OOV indices exceeds "
                                 "max_tokens = {}",
                                 vocabulary.size(), token_start(), *options_.max_tokens));
  options_.vocabulary = vocabulary;
}

std::vector<std::int64_t> IntegerLookup::get_vocabulary() const {
  std::vector<std::int64_t> v;
  if (options_.mask_token) v.push_back(*options_.mask_token);
  for (std::int64_t i = 0; i < options_.num_oov_indices; ++i) v.push_back(options_.oov_token);
  if (options_.vocabulary) v.insert(v.end(), options_.vocabulary->begin(), options_.vocabulary->end());
  return v;
}

std::int64_t IntegerLookup::vocabulary_size() const {
  return token_start() + static_cast<std::int64_t>(options_.vocabulary ? options_.vocabulary->size() : 0);
}

Tensor IntegerLookup::lookup(const Tensor& tokens) const {
  const Tensor t = tokens.astype(DType::int64);
  Tensor out = Tensor::empty(t.shape(), DType::int64);
  const auto* p = t.data<std::int64_t>();
  auto* o = out.data<std::int64_t>();
  const std::int64_t oov_start = options_.mask_token ? 1 : 0, n_oov = options_.num_oov_indices;
  for (std::int64_t i = 0; i < t.size(); ++i) {
    if (options_.mask_token && p[i] == *options_.mask_token) {
      o[i] = 0;
    } else if (auto it = index_of_.find(p[i]); it != index_of_.end()) {
      o[i] = it->second;
    } else if (n_oov == 0) {
      throw ValueError(fmt::format("IntegerLookup '{}': when `num_oov_indices=0` all inputs should be in the "
                                   "vocabulary; found the OOV value {}. Set num_oov_indices=1 or add it.",
                                   name(), p[i]));
    } else {
      o[i] = oov_start + ((p[i] % n_oov) + n_oov) % n_oov;  // floormod
    }
  }
  return out;
}

Tensor IntegerLookup::invert_lookup(const Tensor& indices) const {
  const Tensor t = indices.astype(DType::int64);
  const auto vocabulary = get_vocabulary();
  Tensor out = Tensor::empty(t.shape(), DType::int64);
  const auto* p = t.data<std::int64_t>();
  auto* o = out.data<std::int64_t>();
  for (std::int64_t i = 0; i < t.size(); ++i)
    o[i] = (p[i] >= 0 && p[i] < static_cast<std::int64_t>(vocabulary.size())) ? vocabulary[static_cast<std::size_t>(p[i])]
                                                                               : options_.oov_token;
  return out;
}

Tensor IntegerLookup::call(const Tensor& inputs, bool /*training*/) {
  if (options_.invert) return invert_lookup(inputs);
  const Tensor ids = lookup(inputs);
  if (options_.output_mode == "int") return ids;
  const std::int64_t depth = options_.pad_to_max_tokens ? *options_.max_tokens : vocabulary_size();
  return encode_categories(ids, depth, options_.output_mode, fmt::format("IntegerLookup '{}'", name()));
}

Shape IntegerLookup::compute_output_shape(const Shape& s) const {
  return encoded_shape(s, options_.output_mode, options_.pad_to_max_tokens ? *options_.max_tokens : vocabulary_size());
}

void IntegerLookup::learn(const std::unordered_map<std::int64_t, std::int64_t>& counts) {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranked;  // (count, token)
  for (const auto& [token, count] : counts)
    if (!(options_.mask_token && token == *options_.mask_token) && token != options_.oov_token)
      ranked.emplace_back(count, token);
  std::sort(ranked.begin(), ranked.end(), std::greater<>());  // count, then token, both descending
  if (options_.max_tokens) ranked.resize(std::min<std::size_t>(ranked.size(), std::size_t(*options_.max_tokens - token_start())));
  std::vector<std::int64_t> vocabulary;
  for (const auto& r : ranked) vocabulary.push_back(r.second);
  set_vocabulary(vocabulary);
}

namespace {
void count_tokens(const Tensor& data, std::unordered_map<std::int64_t, std::int64_t>& counts) {
  const Tensor t = data.astype(DType::int64);
  const auto* p = t.data<std::int64_t>();
  for (std::int64_t i = 0; i < t.size(); ++i) ++counts[p[i]];
}
}  // namespace

void IntegerLookup::adapt(const Tensor& data) {
  std::unordered_map<std::int64_t, std::int64_t> counts;
  count_tokens(data, counts);
  learn(counts);
}

void IntegerLookup::adapt(const data::Dataset& dataset) {
  std::unordered_map<std::int64_t, std::int64_t> counts;
  preprocessing::for_each_adapt_batch(dataset, "IntegerLookup", [&](const Tensor& batch) { count_tokens(batch, counts); });
  learn(counts);
}

json IntegerLookup::get_config() const { return layer_config(*this, options_); }

std::shared_ptr<Layer> IntegerLookup::from_config(const json& c) {
  return make_from_config<IntegerLookup, IntegerLookupOptions>(c);
}

KERAS_REGISTER_LAYER(IntegerLookup)

}  // namespace keras::layers
