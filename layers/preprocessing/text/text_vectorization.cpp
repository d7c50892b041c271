#include "layers/preprocessing/text/text_vectorization.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/categorical/adapt_documents.hpp"
#include "layers/preprocessing/text/text_ops.hpp"

namespace keras::layers {

KERAS_FIELDS(TextVectorizationOptions, max_tokens, standardize, split, ngrams, output_mode, output_sequence_length,
             pad_to_max_tokens, vocabulary, idf_weights, sparse, ragged, encoding)

namespace {
StringLookupOptions lookup_options(const TextVectorizationOptions& o) {
  StringLookupOptions l;
  l.max_tokens = o.max_tokens;
  l.mask_token = "";
  l.vocabulary = o.vocabulary;
  l.vocabulary_file = o.vocabulary_file;
  l.idf_weights = o.idf_weights;
  l.output_mode = o.output_mode;
  l.pad_to_max_tokens = o.pad_to_max_tokens;
  l.sparse = o.sparse;
  l.encoding = o.encoding;
  l.name = o.name.empty() ? "" : o.name + "_lookup";
  return l;
}

TextVectorizationOptions checked(TextVectorizationOptions o) {
  if (o.output_mode == "binary") o.output_mode = "multi_hot";
  if (o.output_mode == "tf-idf") o.output_mode = "tf_idf";
  const auto& m = o.output_mode;
  if (m != "int" && m != "multi_hot" && m != "count" && m != "tf_idf")
    throw ValueError(fmt::format("TextVectorization: unsupported `output_mode` \"{}\"; use \"int\", \"multi_hot\", "
                                 "\"count\" or \"tf_idf\"",
                                 m));
  const auto& s = o.standardize;
  if (s && !o.standardize_fn && *s != "lower_and_strip_punctuation" && *s != "lower" && *s != "strip_punctuation")
    throw ValueError(fmt::format("TextVectorization: unknown `standardize` \"{}\"; use \"lower_and_strip_punctuation\", "
                                 "\"lower\", \"strip_punctuation\", none, or give standardize_fn",
                                 *s));
  if (o.split && !o.split_fn && *o.split != "whitespace" && *o.split != "character")
    throw ValueError(fmt::format("TextVectorization: unknown `split` \"{}\"; use \"whitespace\", \"character\", none, "
                                 "or give split_fn",
                                 *o.split));
  // A function replaces the built-in step; its name in the config is the one given, or a generic one.
  auto builtin = [](const std::optional<std::string>& v, std::initializer_list<const char*> names) {
    return !v || std::any_of(names.begin(), names.end(), [&](const char* n) { return *v == n; });
  };
  if (o.standardize_fn && builtin(o.standardize, {"lower_and_strip_punctuation", "lower", "strip_punctuation"}))
    o.standardize = "custom_standardize";
  if (o.split_fn && builtin(o.split, {"whitespace", "character"})) o.split = "custom_split";
  if (o.output_mode != "int" && o.output_sequence_length)
    throw ValueError(fmt::format("TextVectorization: `output_sequence_length` must not be set when `output_mode` is "
                                 "not \"int\"; received output_sequence_length={}",
                                 *o.output_sequence_length));
  if (o.output_sequence_length && *o.output_sequence_length < 0)
    throw ValueError("TextVectorization: `output_sequence_length` must be >= 0");
  if (o.ngrams)
    for (const auto w : *o.ngrams)
      if (w < 1) throw ValueError(fmt::format("TextVectorization: n-gram widths must be >= 1, received {}", w));
  if (o.ragged) throw ValueError("TextVectorization: ragged outputs are not supported by kerascpp; use ragged=false");
  return o;
}
}  // namespace

TextVectorization::TextVectorization(TextVectorizationOptions options)
    : Layer(options, "text_vectorization"), options_(checked(std::move(options))), lookup_(lookup_options(options_)) {
  options_.vocabulary_file.clear();
}

std::string TextVectorization::who() const { return fmt::format("TextVectorization '{}'", name()); }

std::string TextVectorization::standardized(const std::string& text) const {
  if (options_.standardize_fn) return options_.standardize_fn(text);
  if (!options_.standardize) return text;
  const std::string& s = *options_.standardize;
  std::string out = (s == "lower" || s == "lower_and_strip_punctuation") ? preprocessing::lower_ascii(text) : text;
  if (s == "strip_punctuation" || s == "lower_and_strip_punctuation") out = preprocessing::strip_punctuation(out);
  return out;
}

std::vector<std::vector<std::string>> TextVectorization::tokenize(const Tensor& inputs) const {
  if (inputs.dtype() != DType::string)
    throw ValueError(fmt::format("{}: the inputs must be strings, received {}", who(), dtype_name(inputs.dtype())));
  const bool splitting = options_.split.has_value() || options_.split_fn;
  if (splitting && inputs.ndim() > 1 && (inputs.ndim() > 2 || inputs.dim(-1) != 1))
    throw ValueError(fmt::format("{}: when tokenizing strings, the input rank must be 1 or the last dimension must be "
                                 "1; received shape {}",
                                 who(), shape_str(inputs.shape())));
  const auto* p = inputs.data<std::string>();
  std::vector<std::vector<std::string>> rows;
  if (splitting) {
    rows.reserve(static_cast<std::size_t>(inputs.size()));
    for (std::int64_t i = 0; i < inputs.size(); ++i) {
      const std::string text = standardized(p[i]);
      if (options_.split_fn) rows.push_back(options_.split_fn(text));
      else if (*options_.split == "whitespace") rows.push_back(preprocessing::split_whitespace(text));
      else rows.push_back(preprocessing::split_characters(text));
    }
  } else {
    // Unsplit strings are tokens already: the last axis is the sequence ([batch] is [batch, 1]).
    const std::int64_t per = inputs.ndim() >= 2 ? inputs.dim(-1) : 1;
    for (std::int64_t start = 0; start < inputs.size(); start += per) {
      std::vector<std::string> row;
      for (std::int64_t k = 0; k < per; ++k) row.push_back(standardized(p[start + k]));
      rows.push_back(std::move(row));
    }
  }
  if (options_.ngrams)
    for (auto& row : rows) row = preprocessing::ngrams(row, *options_.ngrams);
  return rows;
}

Tensor TextVectorization::call(const Tensor& inputs, bool /*training*/) {
  const auto rows = tokenize(inputs);
  const auto batch = static_cast<std::int64_t>(rows.size());
  if (options_.output_mode != "int") {
    if (!options_.pad_to_max_tokens && lookup_.get_vocabulary(false).empty())
      throw ValueError(fmt::format("{}: with output_mode \"{}\" the vocabulary must be set before the layer is called: "
                                   "give `vocabulary` or call adapt()",
                                   who(), options_.output_mode));
    std::vector<std::vector<std::int64_t>> ids(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (const auto& t : rows[r]) ids[r].push_back(lookup_.index_of(t));
    return lookup_.encode_rows(ids);
  }
  std::int64_t length = 0;
  if (options_.output_sequence_length) length = *options_.output_sequence_length;
  else
    for (const auto& r : rows) length = std::max<std::int64_t>(length, static_cast<std::int64_t>(r.size()));
  Tensor out = Tensor::zeros({batch, length}, DType::int64);
  auto* o = out.data<std::int64_t>();
  for (std::int64_t r = 0; r < batch; ++r) {
    const auto& row = rows[static_cast<std::size_t>(r)];
    const std::int64_t n = std::min<std::int64_t>(length, static_cast<std::int64_t>(row.size()));
    for (std::int64_t k = 0; k < n; ++k) o[r * length + k] = lookup_.index_of(row[static_cast<std::size_t>(k)]);
  }
  if (!options_.split && !options_.split_fn && !options_.ngrams && !options_.output_sequence_length &&
      inputs.ndim() != 2)
    return out.reshape(inputs.shape());  // unsplit tokens keep their shape
  return out;
}

Shape TextVectorization::compute_output_shape(const Shape& s) const {
  const std::int64_t batch = s.empty() ? 1 : s[0];
  if (options_.output_mode == "int") return {batch, options_.output_sequence_length.value_or(-1)};
  return {batch, lookup_.depth()};
}

DType TextVectorization::output_dtype() const {
  return options_.output_mode == "int" ? DType::int64 : DType::float32;
}

void TextVectorization::adapt(const Tensor& data) {
  lookup_.reset_state();
  // An array of rank 1 is a column of texts ([n, 1]): each text is one document.
  const Tensor texts = data.ndim() == 1 ? data.reshape({data.dim(0), 1}) : data;
  for (const auto& row : tokenize(texts)) lookup_.update_state({row.begin(), row.end()});
  lookup_.finalize_state();
}

void TextVectorization::adapt(const data::Dataset& dataset) {
  lookup_.reset_state();
  preprocessing::for_each_token_batch(dataset, who(), [&](const Tensor& batch) {
    for (const auto& row : tokenize(batch)) lookup_.update_state({row.begin(), row.end()});
  });
  lookup_.finalize_state();
}

void TextVectorization::set_vocabulary(const std::vector<std::string>& vocabulary,
                                       const std::optional<std::vector<float>>& idf_weights) {
  lookup_.set_vocabulary(vocabulary, idf_weights);
}

std::vector<std::string> TextVectorization::get_vocabulary(bool include_special_tokens) const {
  return lookup_.get_vocabulary(include_special_tokens);
}

json TextVectorization::get_config() const {
  TextVectorizationOptions o = options_;
  const json lookup = lookup_.get_config();
  json c = layer_config(*this, o);
  c["vocabulary"] = lookup["vocabulary"];
  c["idf_weights"] = lookup["idf_weights"];
  c["vocabulary_size"] = vocabulary_size();
  return c;
}

std::shared_ptr<Layer> TextVectorization::from_config(const json& c) {
  json config = c;
  std::string file;
  if (auto it = config.find("vocabulary"); it != config.end() && it->is_string()) {
    file = it->get<std::string>();
    config.erase(it);
  }
  if (auto it = config.find("ngrams"); it != config.end() && it->is_number_integer()) {
    std::vector<std::int64_t> widths;
    for (std::int64_t w = 1; w <= it->get<std::int64_t>(); ++w) widths.push_back(w);
    *it = widths;
  }
  for (const char* key : {"standardize", "split"})
    if (auto it = config.find(key); it != config.end() && !it->is_null() && !it->is_string())
      throw ValueError(fmt::format("TextVectorization: the config's `{}` is a serialized function ({}); kerascpp "
                                   "cannot load Python functions. Build the layer with standardize_fn/split_fn instead",
                                   key, it->dump().substr(0, 120)));
  auto options = options_from_config<TextVectorizationOptions>(config);
  options.vocabulary_file = file;
  if (options.standardize && *options.standardize != "lower_and_strip_punctuation" && *options.standardize != "lower" &&
      *options.standardize != "strip_punctuation")
    throw ValueError(fmt::format("TextVectorization: the config names the custom standardization \"{}\"; build the layer "
                                 "with standardize_fn and set its vocabulary instead of loading it",
                                 *options.standardize));
  const bool vocabulary_later = file.empty() && !options.vocabulary;
  auto layer = std::make_shared<TextVectorization>(std::move(options));
  layer->read_base_config(config);
  if (auto it = config.find("vocabulary_size"); vocabulary_later && it != config.end() && it->is_number_integer())
    layer->lookup_layer().expect_vocabulary_size(it->get<std::int64_t>());  // from a Keras 3 archive's assets
  return layer;
}

KERAS_REGISTER_LAYER(TextVectorization)
}  // namespace keras::layers
