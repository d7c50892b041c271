#include "layers/preprocessing/categorical/string_lookup.hpp"

#include <fstream>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/string_layers.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/categorical/string_adapt.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"

namespace keras::layers {

KERAS_FIELDS(StringLookupOptions, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
             output_mode, pad_to_max_tokens, sparse, encoding, salt)

namespace {
std::vector<std::string> read_vocabulary_file(const std::string& path, const std::string& layer) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw IOError(fmt::format("{}: the vocabulary file '{}' does not exist or cannot be read; give an existing file "
                              "with one token a line, or the tokens as a list",
                              layer, path));
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}
}  // namespace

StringLookup::StringLookup(StringLookupOptions options) : Layer(options, "string_lookup"), options_(std::move(options)) {
  auto& o = options_;
  if (o.output_mode == "binary") o.output_mode = "multi_hot";
  if (o.output_mode == "tf-idf") o.output_mode = "tf_idf";
  if (o.output_mode != "tf_idf") check_output_mode(o.output_mode, true, "StringLookup");
  if (o.max_tokens && *o.max_tokens <= 1)
    throw ValueError(fmt::format("StringLookup: if set, `max_tokens` must be greater than 1, received {}", *o.max_tokens));
  if (o.pad_to_max_tokens && !o.max_tokens) throw ValueError("StringLookup: pad_to_max_tokens=true needs `max_tokens`");
  if (o.num_oov_indices < 0)
    throw ValueError(fmt::format("StringLookup: `num_oov_indices` must be >= 0, received {}", o.num_oov_indices));
  if (o.invert && o.output_mode != "int")
    throw ValueError(fmt::format("StringLookup: `output_mode` must be \"int\" when invert=true, received \"{}\"", o.output_mode));
  if (o.sparse) throw ValueError("StringLookup: sparse outputs are not supported by kerascpp; use sparse=false");
  if (o.idf_weights && o.output_mode != "tf_idf")
    throw ValueError("StringLookup: `idf_weights` should only be set when output_mode is \"tf_idf\"");
  if (o.encoding != "utf-8" && o.encoding != "UTF-8")
    throw ValueError(fmt::format("StringLookup: kerascpp reads UTF-8 strings only; received encoding \"{}\"", o.encoding));
  if (o.salt) {
    if (o.salt->size() == 1) o.salt->push_back(o.salt->front());
    if (o.salt->size() != 2)
      throw ValueError(fmt::format("StringLookup: `salt` must be one integer or a pair, received {} values", o.salt->size()));
  }
  if (!o.vocabulary_file.empty()) {
    if (o.vocabulary) throw ValueError("StringLookup: give either `vocabulary` or `vocabulary_file`, not both");
    if (o.output_mode == "tf_idf")
      throw ValueError("StringLookup: output_mode \"tf_idf\" does not support loading a vocabulary from a file");
    const auto tokens = read_vocabulary_file(o.vocabulary_file, fmt::format("StringLookup '{}'", name()));
    o.vocabulary_file.clear();
    set_vocabulary(tokens);
  } else if (o.vocabulary) {
    if (o.output_mode == "tf_idf" && !o.idf_weights)
      throw ValueError("StringLookup: with a `vocabulary` in tf_idf output mode, `idf_weights` must be given too");
    const auto tokens = *o.vocabulary;
    set_vocabulary(tokens, o.idf_weights);
  }
}

std::string StringLookup::who() const { return fmt::format("StringLookup '{}'", name()); }

std::vector<std::string> StringLookup::special_tokens() const {
  std::vector<std::string> s;
  if (oov_start()) s.push_back(*options_.mask_token);
  for (std::int64_t i = 0; i < options_.num_oov_indices; ++i) s.push_back(options_.oov_token);
  return s;
}

void StringLookup::set_vocabulary(const std::vector<std::string>& vocabulary,
                                  const std::optional<std::vector<float>>& idf_weights) {
  if (options_.output_mode == "tf_idf" && !idf_weights)
    throw ValueError(who() + ": `idf_weights` must be set when output_mode is \"tf_idf\"");
  if (options_.output_mode != "tf_idf" && idf_weights)
    throw ValueError(who() + ": `idf_weights` should only be set when output_mode is \"tf_idf\"");
  if (vocabulary.empty()) throw ValueError(who() + ": cannot set an empty vocabulary");
  const auto special = special_tokens();
  const bool found_special = vocabulary.size() >= special.size() &&
                             std::equal(special.begin(), special.end(), vocabulary.begin());
  const std::vector<std::string> tokens(vocabulary.begin() + (found_special ? std::ptrdiff_t(special.size()) : 0),
                                        vocabulary.end());
  set_tokens(tokens);
  has_input_vocabulary_ = true;
  options_.vocabulary = tokens;
  if (idf_weights) {
    if (idf_weights->size() != vocabulary.size())
      throw ValueError(fmt::format("{}: `idf_weights` must be as long as the vocabulary; received {} weights for {} "
                                   "tokens",
                                   who(), idf_weights->size(), vocabulary.size()));
    set_idf(*idf_weights, found_special);
    options_.idf_weights = std::vector<float>(idf_.begin(), idf_.begin() + std::ptrdiff_t(token_start() + tokens.size()));
  }
}

void StringLookup::set_tokens(const std::vector<std::string>& tokens) {
  preprocessing::StringMap<std::int64_t> index;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (options_.mask_token && t == *options_.mask_token)
      throw ValueError(fmt::format("{}: found the reserved mask token '{}' inside the vocabulary; leave the mask and "
                                   "OOV tokens out, or give them only at the start in this order: {}",
                                   who(), t, fmt::join(special_tokens(), ", ")));
    if (options_.invert && t == options_.oov_token)
      throw ValueError(fmt::format("{}: found the reserved OOV token '{}' inside the vocabulary", who(), t));
    if (!index.emplace(t, token_start() + static_cast<std::int64_t>(i)).second)
      throw ValueError(fmt::format("{}: the vocabulary has the repeated term '{}'; each term must be unique", who(), t));
  }
  if (options_.max_tokens && token_start() + std::int64_t(tokens.size()) > *options_.max_tokens)
    throw ValueError(fmt::format("{}: a vocabulary of {} terms with {} mask and OOV indices exceeds max_tokens = {}",
                                 who(), tokens.size(), token_start(), *options_.max_tokens));
  tokens_ = tokens;
  index_ = std::move(index);
}

void StringLookup::set_idf(const std::vector<float>& weights, bool includes_special) {
  // Without the special tokens, their slots take the mean weight; pad_to_max_tokens pads the end with zeros.
  idf_.clear();
  if (!includes_special) {
    const double mean = std::accumulate(weights.begin(), weights.end(), 0.0) / double(weights.size());
    idf_.assign(static_cast<std::size_t>(token_start()), static_cast<float>(mean));
  }
  idf_.insert(idf_.end(), weights.begin(), weights.end());
  if (idf_.size() < static_cast<std::size_t>(depth())) idf_.resize(static_cast<std::size_t>(depth()), 0.f);
}

std::vector<std::string> StringLookup::get_vocabulary(bool include_special_tokens) const {
  std::vector<std::string> v;
  if (include_special_tokens) v = special_tokens();
  v.insert(v.end(), tokens_.begin(), tokens_.end());
  return v;
}

std::int64_t StringLookup::vocabulary_size() const { return token_start() + static_cast<std::int64_t>(tokens_.size()); }

std::int64_t StringLookup::depth() const { return options_.pad_to_max_tokens ? *options_.max_tokens : vocabulary_size(); }

std::int64_t StringLookup::index_of(std::string_view token) const {
  if (options_.mask_token && token == *options_.mask_token) return options_.output_mode == "int" ? 0 : -1;
  if (auto it = index_.find(token); it != index_.end()) return it->second;
  const std::int64_t n = options_.num_oov_indices;
  if (n == 0)
    throw ValueError(fmt::format("{}: when `num_oov_indices=0` all inputs should be in the vocabulary; found the OOV "
                                 "value '{}'. Set num_oov_indices=1 or add it to the vocabulary.",
                                 who(), token));
  if (n == 1) return oov_start();
  std::optional<std::array<std::uint64_t, 2>> salt;
  if (options_.salt) salt = std::array<std::uint64_t, 2>{(*options_.salt)[0], (*options_.salt)[1]};
  return oov_start() + preprocessing::hash_bucket(token, n, salt);
}

Tensor StringLookup::encode_rows(const std::vector<std::vector<std::int64_t>>& rows) const {
  const std::int64_t d = depth();
  Tensor out = Tensor::zeros({static_cast<std::int64_t>(rows.size()), d});
  float* o = out.data<float>();
  const bool tf_idf = options_.output_mode == "tf_idf";
  if (tf_idf && idf_.empty()) throw ValueError(who() + ": output_mode \"tf_idf\" needs idf weights; adapt the layer or "
                                                       "give `idf_weights` with the vocabulary");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    float* row = o + static_cast<std::int64_t>(r) * d;
    for (const std::int64_t id : rows[r]) {
      if (id < 0) continue;  // a dropped mask token
      if (id >= d)
        throw ValueError(fmt::format("{}: index {} does not fit the output width {}", who(), id, d));
      row[id] = options_.output_mode == "multi_hot" || options_.output_mode == "one_hot" ? 1.f : row[id] + 1.f;
    }
    if (tf_idf)
      for (std::int64_t j = 0; j < d; ++j) row[j] *= idf_[static_cast<std::size_t>(j)];
  }
  return out;
}

Tensor StringLookup::lookup(const Tensor& tokens) const {
  Tensor out = Tensor::empty(tokens.shape(), DType::int64);
  const auto* p = tokens.data<std::string>();
  auto* o = out.data<std::int64_t>();
  for (std::int64_t i = 0; i < tokens.size(); ++i) o[i] = index_of(p[i]);
  return out;
}

Tensor StringLookup::invert_lookup(const Tensor& indices) const {
  if (indices.dtype() == DType::string || indices.dtype() == DType::float32)
    throw ValueError(fmt::format("{}: with invert=true the inputs are integer indices; received {}", who(),
                                 dtype_name(indices.dtype())));
  const Tensor t = indices.astype(DType::int64);
  const auto vocabulary = get_vocabulary();
  Tensor out = Tensor::empty(t.shape(), DType::string);
  const auto* p = t.data<std::int64_t>();
  auto* o = out.data<std::string>();
  for (std::int64_t i = 0; i < t.size(); ++i) {
    const std::int64_t k = p[i];
    if (options_.mask_token && k == 0) o[i] = *options_.mask_token;
    else o[i] = (k >= 0 && k < std::int64_t(vocabulary.size())) ? vocabulary[std::size_t(k)] : options_.oov_token;
  }
  return out;
}

Tensor StringLookup::call(const Tensor& inputs, bool /*training*/) {
  if (options_.invert) return invert_lookup(inputs);
  if (inputs.dtype() != DType::string)
    throw ValueError(fmt::format("{}: the inputs must be strings, received {}; use IntegerLookup for integer tokens",
                                 who(), dtype_name(inputs.dtype())));
  if (options_.output_mode != "int" && !options_.pad_to_max_tokens && tokens_.empty())
    throw ValueError(fmt::format("{}: with output_mode \"{}\" and pad_to_max_tokens=false the vocabulary must be set "
                                 "before the layer is called: give `vocabulary` or call adapt()",
                                 who(), options_.output_mode));
  const Tensor ids = lookup(inputs);
  if (options_.output_mode == "int") return ids;
  const Shape out_shape = compute_output_shape(inputs.shape());
  const std::int64_t rows = out_shape[0], per = rows ? ids.size() / rows : 0;
  if (options_.output_mode == "one_hot" && per != 1)
    throw ValueError(fmt::format("{}: one_hot output takes one token per sample ([batch] or [batch, 1]); received shape "
                                 "{}",
                                 who(), shape_str(inputs.shape())));
  if (inputs.ndim() > 2)
    throw ValueError(fmt::format("{}: when output_mode is not \"int\", the input rank must be at most 2; received shape "
                                 "{}",
                                 who(), shape_str(inputs.shape())));
  const auto* p = ids.data<std::int64_t>();
  std::vector<std::vector<std::int64_t>> grouped(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) grouped[std::size_t(r)].assign(p + r * per, p + (r + 1) * per);
  return encode_rows(grouped);
}

Shape StringLookup::compute_output_shape(const Shape& s) const {
  if (options_.output_mode == "int") return s;
  return {s.empty() ? 1 : s[0], depth()};
}

DType StringLookup::output_dtype() const {
  if (options_.invert) return DType::string;
  return options_.output_mode == "int" ? DType::int64 : DType::float32;
}

void StringLookup::reset_state() { counts_.clear(); }

void StringLookup::update_state(const std::vector<std::string_view>& document) {
  if (has_input_vocabulary_)
    throw ValueError(fmt::format("Cannot adapt layer '{}' after setting a static vocabulary via the `vocabulary` "
                                 "argument or set_vocabulary()",
                                 name()));
  counts_.add_document(document);
}

void StringLookup::finalize_state() {
  if (counts_.empty()) return;
  std::vector<std::string> excluded{options_.oov_token};
  if (options_.mask_token) excluded.push_back(*options_.mask_token);
  const std::int64_t max_learned = options_.max_tokens ? *options_.max_tokens - token_start() : -1;
  const auto tokens = counts_.ranked(excluded, max_learned);
  set_tokens(tokens);
  if (options_.output_mode == "tf_idf") {
    const auto weights = counts_.idf(tokens);
    set_idf(weights, false);
  }
  counts_.clear();
}

void StringLookup::adapt(const Tensor& data) {
  reset_state();
  preprocessing::for_each_document(data, who(), [&](const std::vector<std::string_view>& doc) { update_state(doc); });
  finalize_state();
}

void StringLookup::adapt(const data::Dataset& dataset) {
  reset_state();
  preprocessing::for_each_string_batch(dataset, who(), [&](const Tensor& batch) {
    preprocessing::for_each_document(
        batch, who(), [&](const std::vector<std::string_view>& doc) { update_state(doc); }, true);
  });
  finalize_state();
}

std::optional<std::string> StringLookup::save_assets() const {
  if (has_input_vocabulary_) return std::nullopt;  // the vocabulary is in the config
  std::string text;
  const auto v = get_vocabulary(true);
  for (std::size_t i = 0; i < v.size(); ++i) (text += i ? "\n" : "") += v[i];
  return text;
}

void StringLookup::load_assets(const std::string& vocabulary_txt, const std::vector<float>& idf_weights) {
  if (has_input_vocabulary_) return;
  std::vector<std::string> lines;
  std::istringstream in(vocabulary_txt);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  const auto special = special_tokens();
  const bool found_special = lines.size() >= special.size() && std::equal(special.begin(), special.end(), lines.begin());
  set_tokens({lines.begin() + (found_special ? std::ptrdiff_t(special.size()) : 0), lines.end()});
  if (!idf_weights.empty()) {
    idf_ = idf_weights;
    if (idf_.size() < static_cast<std::size_t>(depth())) idf_.resize(static_cast<std::size_t>(depth()), 0.f);
  }
}

json StringLookup::get_config() const {
  StringLookupOptions o = options_;
  o.vocabulary = tokens_.empty() ? std::nullopt : std::optional(tokens_);
  if (options_.output_mode == "tf_idf" && !idf_.empty())
    o.idf_weights = std::vector<float>(idf_.begin(), idf_.begin() + std::ptrdiff_t(vocabulary_size()));
  if (o.vocabulary && o.idf_weights) {  // the weights cover the special tokens too: so does the vocabulary
    const auto special = special_tokens();
    o.vocabulary->insert(o.vocabulary->begin(), special.begin(), special.end());
  }
  json c = layer_config(*this, o);
  c["vocabulary_size"] = vocabulary_size();
  return c;
}

std::shared_ptr<Layer> StringLookup::from_config(const json& c) {
  json config = c;
  StringLookupOptions file_only;
  if (auto it = config.find("vocabulary"); it != config.end() && it->is_string()) {
    file_only.vocabulary_file = it->get<std::string>();
    config.erase(it);
  }
  if (auto it = config.find("salt"); it != config.end() && it->is_number()) *it = json::array({*it, *it});
  auto options = options_from_config<StringLookupOptions>(config);
  options.vocabulary_file = file_only.vocabulary_file;
  auto layer = std::make_shared<StringLookup>(std::move(options));
  layer->read_base_config(config);
  return layer;
}

KERAS_REGISTER_LAYER(StringLookup)
KERAS_STRING_LAYER(StringLookup, [](const Layer& l, const std::vector<DType>&) {
  return static_cast<const StringLookup&>(l).output_dtype();
})

}  // namespace keras::layers
