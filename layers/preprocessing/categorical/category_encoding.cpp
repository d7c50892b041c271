#include "layers/preprocessing/categorical/category_encoding.hpp"

#include <cmath>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"

namespace keras::layers {

KERAS_FIELDS(CategoryEncodingOptions, output_mode, sparse)

namespace {

// The input's rank once one_hot has given each id its own axis (tf.keras's encode_categorical_inputs).
std::size_t encoded_rank(const Shape& s, const std::string& mode) {
  std::size_t rank = s.size();
  if (mode == "one_hot" && (s.empty() || s.back() != 1)) ++rank;
  return std::max<std::size_t>(rank, 2);
}

}  // namespace

void check_output_mode(const std::string& mode, bool allow_int, const std::string& layer) {
  if (mode != "one_hot" && mode != "multi_hot" && mode != "count" && !(allow_int && mode == "int"))
    throw ValueError(fmt::format("{}: unsupported `output_mode` \"{}\"; use {}\"one_hot\", \"multi_hot\" or \"count\"", layer,
                                 mode, allow_int ? "\"int\", " : ""));
}

Shape encoded_shape(const Shape& s, const std::string& output_mode, std::int64_t depth) {
  if (output_mode == "int") return s;
  return {s.empty() ? 1 : s[0], depth};
}

Tensor encode_categories(const Tensor& ids, std::int64_t depth, const std::string& output_mode, const std::string& layer) {
  if (encoded_rank(ids.shape(), output_mode) > 2)
    throw ValueError(fmt::format("{}: when output_mode is not \"int\", the maximum supported output rank is 2; received "
                                 "output_mode \"{}\" and input shape {}. Give one id per sample for one_hot, or "
                                 "[batch, ids] for multi_hot and count.",
                                 layer, output_mode, shape_str(ids.shape())));
  const std::int64_t batch = ids.shape().empty() ? 1 : ids.shape()[0];
  const std::int64_t per = batch == 0 ? 0 : ids.size() / batch;
  const Tensor values = ids.astype(DType::float32);
  const float* v = values.data<float>();
  Tensor out = Tensor::zeros({batch, depth});
  float* o = out.data<float>();
  for (std::int64_t i = 0; i < ids.size(); ++i) {
    if (!(v[i] >= 0 && v[i] < double(depth)) || v[i] != std::floor(v[i]))
      throw ValueError(fmt::format("{}: input values must be in the range 0 <= values < num_tokens with num_tokens={}; "
                                   "received {}",
                                   layer, depth, v[i]));
    float& cell = o[(i / per) * depth + static_cast<std::int64_t>(v[i])];
    cell = output_mode == "count" ? cell + 1.f : 1.f;
  }
  return out;
}

CategoryEncoding::CategoryEncoding(std::int64_t num_tokens, CategoryEncodingOptions options)
    : Layer(options, "category_encoding"), num_tokens_(num_tokens), options_(std::move(options)) {
  if (num_tokens_ < 1)
    throw ValueError(fmt::format("CategoryEncoding: `num_tokens` must be >= 1, received {}", num_tokens_));
  check_output_mode(options_.output_mode, false, "CategoryEncoding");
  if (options_.sparse) throw ValueError("CategoryEncoding: sparse outputs are not supported by kerascpp; use sparse=false");
}

Tensor CategoryEncoding::call(const Tensor& inputs, bool /*training*/) {
  return encode_categories(inputs, num_tokens_, options_.output_mode, fmt::format("CategoryEncoding '{}'", name()));
}

Shape CategoryEncoding::compute_output_shape(const Shape& s) const {
  return encoded_shape(s, options_.output_mode, num_tokens_);
}

json CategoryEncoding::get_config() const {
  json c = layer_config(*this, options_);
  c["num_tokens"] = num_tokens_;
  return c;
}

std::shared_ptr<Layer> CategoryEncoding::from_config(const json& c) {
  return make_from_config<CategoryEncoding, CategoryEncodingOptions>(c, config::required<std::int64_t>(c, "num_tokens"));
}

KERAS_REGISTER_LAYER(CategoryEncoding)

}  // namespace keras::layers
