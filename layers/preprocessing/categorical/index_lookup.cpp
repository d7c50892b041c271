#include "layers/preprocessing/categorical/index_lookup.hpp"

#include <fstream>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

#include "layers/preprocessing/categorical/adapt_documents.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/categorical/integer_lookup.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"
#include "layers/preprocessing/categorical/string_lookup.hpp"

namespace keras::layers {

namespace {

std::vector<std::string> read_lines(std::istream& in) {
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

template <class Token>
std::vector<Token> parse_lines(const std::vector<std::string>& lines, const std::string& who) {
  std::vector<Token> tokens;
  tokens.reserve(lines.size());
  for (const auto& l : lines) tokens.push_back(preprocessing::LookupToken<Token>::parse(l, who));
  return tokens;
}

// Whether Options has Keras's oov_method (IntegerLookup's choice between floormod and FarmHash).
template <class Options>
constexpr bool kHasOovMethod = requires(const Options& o) { o.oov_method; };

}  // namespace

template <class Token, class Options>
IndexLookup<Token, Options>::IndexLookup(Options options, const std::string& default_prefix, const std::string& label)
    : IndexLookupBase(options, default_prefix), options_(std::move(options)), label_(label) {
  auto& o = options_;
  if (o.output_mode == "binary") o.output_mode = "multi_hot";
  if (o.output_mode == "tf-idf") o.output_mode = "tf_idf";
  if (o.output_mode != "tf_idf") check_output_mode(o.output_mode, true, label);
  if (o.max_tokens && *o.max_tokens <= 1)
    throw ValueError(fmt::format("{}: if set, `max_tokens` must be greater than 1, received {}", label, *o.max_tokens));
  if (o.pad_to_max_tokens && !o.max_tokens) throw ValueError(label + ": pad_to_max_tokens=true needs `max_tokens`");
  if (o.num_oov_indices < 0)
    throw ValueError(fmt::format("{}: `num_oov_indices` must be >= 0, received {}", label, o.num_oov_indices));
  if (o.invert && o.output_mode != "int")
    throw ValueError(fmt::format("{}: `output_mode` must be \"int\" when invert=true, received \"{}\"", label,
                                 o.output_mode));
  if (o.sparse) throw ValueError(label + ": sparse outputs are not supported by kerascpp; use sparse=false");
  if (o.idf_weights && o.output_mode != "tf_idf")
    throw ValueError(label + ": `idf_weights` should only be set when output_mode is \"tf_idf\"");
  if constexpr (kHasOovMethod<Options>) {
    if (o.oov_method != "floormod" && o.oov_method != "farmhash")
      throw ValueError(fmt::format("{}: `oov_method` must be \"floormod\" or \"farmhash\", received \"{}\"", label,
                                   o.oov_method));
    if (o.salt && o.oov_method != "farmhash")
      throw ValueError(label + ": `salt` can only be used with oov_method=\"farmhash\"");
  }
  if (o.salt) {
    if (o.salt->size() == 1) o.salt->push_back(o.salt->front());
    if (o.salt->size() != 2)
      throw ValueError(fmt::format("{}: `salt` must be one integer or a pair, received {} values", label, o.salt->size()));
  }
  if (!o.vocabulary_file.empty()) {
    if (o.vocabulary) throw ValueError(label + ": give either `vocabulary` or `vocabulary_file`, not both");
    if (o.output_mode == "tf_idf")
      throw ValueError(label + ": output_mode \"tf_idf\" does not support loading a vocabulary from a file");
    std::ifstream in(o.vocabulary_file, std::ios::binary);
    if (!in)
      throw IOError(fmt::format("{}: the vocabulary file '{}' does not exist or cannot be read; give an existing file "
                                "with one token a line, or the tokens as a list",
                                who(), o.vocabulary_file));
    const auto tokens = parse_lines<Token>(read_lines(in), who());
    o.vocabulary_file.clear();
    set_vocabulary(tokens);
  } else if (o.vocabulary) {
    if (o.output_mode == "tf_idf" && !o.idf_weights)
      throw ValueError(label + ": with a `vocabulary` in tf_idf output mode, `idf_weights` must be given too");
    const auto tokens = *o.vocabulary;
    const auto idf = o.idf_weights;
    set_vocabulary(tokens, idf);
  }
}

template <class Token, class Options>
std::string IndexLookup<Token, Options>::who() const {
  return fmt::format("{} '{}'", label_, name());
}

template <class Token, class Options>
std::vector<Token> IndexLookup<Token, Options>::special_tokens() const {
  std::vector<Token> s;
  if (oov_start()) s.push_back(*options_.mask_token);
  for (std::int64_t i = 0; i < options_.num_oov_indices; ++i) s.push_back(options_.oov_token);
  return s;
}

template <class Token, class Options>
void IndexLookup<Token, Options>::set_vocabulary(const std::vector<Token>& vocabulary,
                                                 const std::optional<std::vector<float>>& idf_weights) {
  if (options_.output_mode == "tf_idf" && !idf_weights)
    throw ValueError(who() + ": `idf_weights` must be set when output_mode is \"tf_idf\"");
  if (options_.output_mode != "tf_idf" && idf_weights)
    throw ValueError(who() + ": `idf_weights` should only be set when output_mode is \"tf_idf\"");
  if (vocabulary.empty()) throw ValueError(who() + ": cannot set an empty vocabulary");
  const auto special = special_tokens();
  const bool found_special = vocabulary.size() >= special.size() &&
                             std::equal(special.begin(), special.end(), vocabulary.begin());
  const std::vector<Token> tokens(vocabulary.begin() + (found_special ? std::ptrdiff_t(special.size()) : 0),
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
    options_.idf_weights = std::vector<float>(idf_.begin(), idf_.begin() + std::ptrdiff_t(vocabulary_size()));
  }
}

template <class Token, class Options>
void IndexLookup<Token, Options>::set_tokens(const std::vector<Token>& tokens) {
  using Traits = preprocessing::LookupToken<Token>;
  typename Traits::template Map<std::int64_t> index;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (options_.mask_token && t == *options_.mask_token) {
      std::vector<std::string> special;
      for (const auto& s : special_tokens()) special.push_back(Traits::text(s));
      throw ValueError(fmt::format("{}: found the reserved mask token '{}' inside the vocabulary; leave the mask and "
                                   "OOV tokens out, or give them only at the start in this order: {}",
                                   who(), Traits::text(t), fmt::join(special, ", ")));
    }
    if (options_.invert && t == options_.oov_token)
      throw ValueError(fmt::format("{}: found the reserved OOV token '{}' inside the vocabulary", who(), Traits::text(t)));
    if (!index.emplace(t, token_start() + static_cast<std::int64_t>(i)).second)
      throw ValueError(fmt::format("{}: the vocabulary has the repeated term '{}'; each term must be unique", who(),
                                   Traits::text(t)));
  }
  if (options_.max_tokens && token_start() + std::int64_t(tokens.size()) > *options_.max_tokens)
    throw ValueError(fmt::format("{}: a vocabulary of {} terms with {} mask and OOV indices exceeds max_tokens = {}",
                                 who(), tokens.size(), token_start(), *options_.max_tokens));
  tokens_ = tokens;
  index_ = std::move(index);
}

template <class Token, class Options>
void IndexLookup<Token, Options>::set_idf(const std::vector<float>& weights, bool includes_special) {
  // Without the special tokens, their slots take the mean weight; pad_to_max_tokens pads the end with zeros.
  idf_.clear();
  if (!includes_special) {
    const double mean = std::accumulate(weights.begin(), weights.end(), 0.0) / double(weights.size());
    idf_.assign(static_cast<std::size_t>(token_start()), static_cast<float>(mean));
  }
  idf_.insert(idf_.end(), weights.begin(), weights.end());
  if (idf_.size() < static_cast<std::size_t>(depth())) idf_.resize(static_cast<std::size_t>(depth()), 0.f);
}

template <class Token, class Options>
std::vector<Token> IndexLookup<Token, Options>::get_vocabulary(bool include_special_tokens) const {
  std::vector<Token> v;
  if (include_special_tokens) v = special_tokens();
  v.insert(v.end(), tokens_.begin(), tokens_.end());
  return v;
}

template <class Token, class Options>
std::int64_t IndexLookup<Token, Options>::vocabulary_size() const {
  return token_start() + static_cast<std::int64_t>(tokens_.size());
}

template <class Token, class Options>
std::int64_t IndexLookup<Token, Options>::depth() const {
  if (options_.pad_to_max_tokens) return *options_.max_tokens;
  return tokens_.empty() && expected_size_ ? *expected_size_ : vocabulary_size();
}

template <class Token, class Options>
std::int64_t IndexLookup<Token, Options>::oov_index(View token) const {
  const std::int64_t n = options_.num_oov_indices;
  if (n == 1) return oov_start();
  std::optional<std::array<std::uint64_t, 2>> salt;
  if (options_.salt) salt = std::array<std::uint64_t, 2>{(*options_.salt)[0], (*options_.salt)[1]};
  if constexpr (std::is_same_v<Token, std::string>) {
    return oov_start() + preprocessing::hash_bucket(token, n, salt);
  } else {
    if constexpr (kHasOovMethod<Options>)
      if (options_.oov_method == "farmhash")  // the hash of the decimal text, as tf.strings.as_string
        return oov_start() + preprocessing::hash_bucket(std::to_string(token), n, salt);
    return oov_start() + ((token % n) + n) % n;  // floormod
  }
}

template <class Token, class Options>
std::int64_t IndexLookup<Token, Options>::index_of(View token) const {
  if (options_.mask_token && token == *options_.mask_token) return options_.output_mode == "int" ? 0 : -1;
  if (auto it = index_.find(token); it != index_.end()) return it->second;
  if (options_.num_oov_indices == 0)
    throw ValueError(fmt::format("{}: when `num_oov_indices=0` all inputs should be in the vocabulary; found the OOV "
                                 "value '{}'. Set num_oov_indices=1 or add it to the vocabulary.",
                                 who(), Traits::text(token)));
  return oov_index(token);
}

template <class Token, class Options>
Tensor IndexLookup<Token, Options>::encode_rows(const std::vector<std::vector<std::int64_t>>& rows) const {
  const std::int64_t d = depth();
  Tensor out = Tensor::zeros({static_cast<std::int64_t>(rows.size()), d});
  float* o = out.data<float>();
  const bool tf_idf = options_.output_mode == "tf_idf";
  if (tf_idf && idf_.empty())
    throw ValueError(who() + ": output_mode \"tf_idf\" needs idf weights; adapt the layer or give `idf_weights` with "
                             "the vocabulary");
  const bool hot = options_.output_mode == "multi_hot" || options_.output_mode == "one_hot";
  for (std::size_t r = 0; r < rows.size(); ++r) {
    float* row = o + static_cast<std::int64_t>(r) * d;
    for (const std::int64_t id : rows[r]) {
      if (id < 0) continue;  // a dropped mask token
      if (id >= d) throw ValueError(fmt::format("{}: index {} does not fit the output width {}", who(), id, d));
      row[id] = hot ? 1.f : row[id] + 1.f;
    }
    if (tf_idf)
      for (std::int64_t j = 0; j < d; ++j) row[j] *= idf_[static_cast<std::size_t>(j)];
  }
  return out;
}

template <class Token, class Options>
Tensor IndexLookup<Token, Options>::lookup(const Tensor& tokens) const {
  const Tensor t = tokens.dtype() == Traits::dtype ? tokens : tokens.astype(Traits::dtype);
  Tensor out = Tensor::empty(t.shape(), DType::int64);
  const auto* p = t.template data<Token>();
  auto* o = out.data<std::int64_t>();
  for (std::int64_t i = 0; i < t.size(); ++i) o[i] = index_of(p[i]);
  return out;
}

template <class Token, class Options>
Tensor IndexLookup<Token, Options>::invert_lookup(const Tensor& indices) const {
  if (indices.dtype() == DType::string || indices.dtype() == DType::float32 || indices.dtype() == DType::float64)
    throw ValueError(fmt::format("{}: with invert=true the inputs are integer indices; received {}", who(),
                                 dtype_name(indices.dtype())));
  const Tensor t = indices.astype(DType::int64);
  const auto vocabulary = get_vocabulary();
  Tensor out = Tensor::empty(t.shape(), Traits::dtype);
  const auto* p = t.data<std::int64_t>();
  auto* o = out.template data<Token>();
  for (std::int64_t i = 0; i < t.size(); ++i) {
    const std::int64_t k = p[i];
    if (options_.mask_token && k == 0) o[i] = *options_.mask_token;
    else o[i] = (k >= 0 && k < std::int64_t(vocabulary.size())) ? vocabulary[std::size_t(k)] : options_.oov_token;
  }
  return out;
}

template <class Token, class Options>
Tensor IndexLookup<Token, Options>::call(const Tensor& inputs, bool /*training*/) {
  if (options_.invert) return invert_lookup(inputs);
  if (!Traits::holds_tokens(inputs.dtype()))
    throw ValueError(fmt::format("{}: the inputs must be {}, received {}; use {}", who(), Traits::kind,
                                 dtype_name(inputs.dtype()),
                                 std::is_same_v<Token, std::string> ? "IntegerLookup for integer tokens"
                                                                    : "StringLookup for string tokens"));
  if (options_.output_mode != "int" && !options_.pad_to_max_tokens && tokens_.empty())
    throw ValueError(fmt::format("{}: with output_mode \"{}\" and pad_to_max_tokens=false the vocabulary must be set "
                                 "before the layer is called: give `vocabulary` or call adapt()",
                                 who(), options_.output_mode));
  const Tensor ids = lookup(inputs);
  if (options_.output_mode == "int") return ids;
  if (inputs.ndim() > 2)
    throw ValueError(fmt::format("{}: when output_mode is not \"int\", the input rank must be at most 2; received shape "
                                 "{}",
                                 who(), shape_str(inputs.shape())));
  const Shape out_shape = compute_output_shape(inputs.shape());
  const std::int64_t rows = out_shape[0], per = rows ? ids.size() / rows : 0;
  if (options_.output_mode == "one_hot" && per != 1)
    throw ValueError(fmt::format("{}: one_hot output takes one token per sample ([batch] or [batch, 1]); received shape "
                                 "{}",
                                 who(), shape_str(inputs.shape())));
  const auto* p = ids.data<std::int64_t>();
  std::vector<std::vector<std::int64_t>> grouped(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r) grouped[std::size_t(r)].assign(p + r * per, p + (r + 1) * per);
  return encode_rows(grouped);
}

template <class Token, class Options>
Shape IndexLookup<Token, Options>::compute_output_shape(const Shape& s) const {
  if (options_.output_mode == "int") return s;
  return {s.empty() ? 1 : s[0], depth()};
}

template <class Token, class Options>
DType IndexLookup<Token, Options>::output_dtype() const {
  if (options_.invert) return Traits::dtype;
  return options_.output_mode == "int" ? DType::int64 : DType::float32;
}

template <class Token, class Options>
void IndexLookup<Token, Options>::reset_state() {
  counts_.clear();
}

template <class Token, class Options>
void IndexLookup<Token, Options>::update_state(const std::vector<View>& document) {
  if (has_input_vocabulary_)
    throw ValueError(fmt::format("Cannot adapt layer '{}' after setting a static vocabulary via the `vocabulary` "
                                 "argument or set_vocabulary()",
                                 name()));
  counts_.add_document(document);
}

template <class Token, class Options>
void IndexLookup<Token, Options>::finalize_state() {
  if (counts_.empty()) return;
  std::vector<Token> excluded{options_.oov_token};
  if (options_.mask_token) excluded.push_back(*options_.mask_token);
  const std::int64_t max_learned = options_.max_tokens ? *options_.max_tokens - token_start() : -1;
  const auto tokens = counts_.ranked(excluded, max_learned);
  set_tokens(tokens);
  if (options_.output_mode == "tf_idf") set_idf(counts_.idf(tokens), false);
  counts_.clear();
}

template <class Token, class Options>
void IndexLookup<Token, Options>::adapt(const Tensor& data) {
  reset_state();
  preprocessing::for_each_document<Token>(data, who(), [&](const std::vector<View>& doc) { update_state(doc); });
  finalize_state();
}

template <class Token, class Options>
void IndexLookup<Token, Options>::adapt(const data::Dataset& dataset) {
  reset_state();
  preprocessing::for_each_token_batch(dataset, who(), [&](const Tensor& batch) {
    preprocessing::for_each_document<Token>(
        batch, who(), [&](const std::vector<View>& doc) { update_state(doc); }, true);
  });
  finalize_state();
}

template <class Token, class Options>
std::optional<std::string> IndexLookup<Token, Options>::save_assets() const {
  if (has_input_vocabulary_) return std::nullopt;  // the vocabulary is in the config
  std::string text;
  const auto v = get_vocabulary(true);
  for (std::size_t i = 0; i < v.size(); ++i) (text += i ? "\n" : "") += Traits::text(v[i]);
  return text;
}

template <class Token, class Options>
void IndexLookup<Token, Options>::load_assets(const std::string& vocabulary_txt, const std::vector<float>& idf_weights) {
  if (has_input_vocabulary_) return;
  std::istringstream in(vocabulary_txt);
  const auto lines = parse_lines<Token>(read_lines(in), who() + " (assets/vocabulary.txt)");
  const auto special = special_tokens();
  const bool found_special = lines.size() >= special.size() && std::equal(special.begin(), special.end(), lines.begin());
  set_tokens({lines.begin() + (found_special ? std::ptrdiff_t(special.size()) : 0), lines.end()});
  if (expected_size_ && vocabulary_size() != *expected_size_)
    throw ValueError(fmt::format("{}: assets/vocabulary.txt gives a vocabulary of size {} but the config records "
                                 "vocabulary_size {}; the archive is inconsistent",
                                 who(), vocabulary_size(), *expected_size_));
  if (!idf_weights.empty()) {
    idf_ = idf_weights;
    if (idf_.size() < static_cast<std::size_t>(depth())) idf_.resize(static_cast<std::size_t>(depth()), 0.f);
  }
}

template <class Token, class Options>
Options IndexLookup<Token, Options>::config_options() const {
  Options o = options_;
  o.vocabulary_file.clear();
  o.vocabulary = tokens_.empty() ? std::nullopt : std::optional(tokens_);
  if (options_.output_mode == "tf_idf" && !idf_.empty())
    o.idf_weights = std::vector<float>(idf_.begin(), idf_.begin() + std::ptrdiff_t(vocabulary_size()));
  if (o.vocabulary && o.idf_weights) {  // the weights cover the special tokens too: so does the vocabulary
    const auto special = special_tokens();
    o.vocabulary->insert(o.vocabulary->begin(), special.begin(), special.end());
  }
  return o;
}

template class IndexLookup<std::string, StringLookupOptions>;
template class IndexLookup<std::int64_t, IntegerLookupOptions>;

}  // namespace keras::layers
