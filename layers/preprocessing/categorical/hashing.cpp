#include "layers/preprocessing/categorical/hashing.hpp"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"

namespace keras::layers {

KERAS_FIELDS(HashingOptions, mask_value, salt, output_mode, sparse)

Hashing::Hashing(std::int64_t num_bins, HashingOptions options)
    : Layer(options, "hashing"), num_bins_(num_bins), options_(std::move(options)) {
  if (options_.mask_value && options_.mask_string)
    throw ValueError("Hashing: give `mask_value` (integer tokens) or `mask_string` (string tokens), not both");
  if (num_bins_ < 1 || ((options_.mask_value || options_.mask_string) && num_bins_ < 2))
    throw ValueError(fmt::format("Hashing: `num_bins` must be >= 1 (>= 2 with a mask_value), received {}", num_bins_));
  check_output_mode(options_.output_mode, true, "Hashing");
  if (options_.sparse) throw ValueError("Hashing: sparse outputs are not supported by kerascpp; use sparse=false");
  if (options_.salt) {
    if (options_.salt->size() == 1) options_.salt->push_back(options_.salt->front());
    if (options_.salt->size() != 2)
      throw ValueError(fmt::format("Hashing: `salt` must be one integer or a pair, received {} values", options_.salt->size()));
  }
}

Tensor Hashing::call(const Tensor& inputs, bool /*training*/) {
  if (inputs.dtype() == DType::float32)
    throw ValueError(fmt::format("Hashing '{}': the inputs must be integers (int32, int64 or uint8) or strings, "
                                 "received float32; cast them first",
                                 name()));
  const bool masked = options_.mask_value || options_.mask_string;
  const std::int64_t bins = masked ? num_bins_ - 1 : num_bins_;
  std::optional<std::array<std::uint64_t, 2>> salt;
  if (options_.salt) salt = std::array<std::uint64_t, 2>{(*options_.salt)[0], (*options_.salt)[1]};
  Tensor ids = Tensor::empty(inputs.shape(), DType::int64);
  auto* o = ids.data<std::int64_t>();
  auto bucket_of = [&](std::string_view bytes) {
    const std::int64_t bucket = preprocessing::hash_bucket(bytes, bins, salt);
    return masked ? bucket + 1 : bucket;
  };
  if (inputs.dtype() == DType::string) {
    const auto* p = inputs.data<std::string>();
    for (std::int64_t i = 0; i < inputs.size(); ++i)
      o[i] = options_.mask_string && p[i] == *options_.mask_string ? 0 : bucket_of(p[i]);
  } else {
    const Tensor tokens = inputs.astype(DType::int64);
    const auto* p = tokens.data<std::int64_t>();
    for (std::int64_t i = 0; i < tokens.size(); ++i)
      o[i] = options_.mask_value && p[i] == *options_.mask_value ? 0 : bucket_of(std::to_string(p[i]));
  }
  if (options_.output_mode == "int") return ids;
  return encode_categories(ids, num_bins_, options_.output_mode, fmt::format("Hashing '{}'", name()));
}

Shape Hashing::compute_output_shape(const Shape& s) const { return encoded_shape(s, options_.output_mode, num_bins_); }

json Hashing::get_config() const {
  json c = layer_config(*this, options_);
  if (options_.mask_string) c["mask_value"] = *options_.mask_string;
  c["num_bins"] = num_bins_;
  return c;
}

std::shared_ptr<Layer> Hashing::from_config(const json& c) {
  json config = c;
  if (auto it = config.find("salt"); it != config.end() && it->is_number()) *it = json::array({*it, *it});
  std::optional<std::string> mask_string;
  if (auto it = config.find("mask_value"); it != config.end() && it->is_string()) {
    mask_string = it->get<std::string>();
    config.erase(it);
  }
  auto options = options_from_config<HashingOptions>(config);
  options.mask_string = mask_string;
  auto layer = std::make_shared<Hashing>(config::required<std::int64_t>(config, "num_bins"), std::move(options));
  layer->read_base_config(config);
  return layer;
}

KERAS_REGISTER_LAYER(Hashing)
}  // namespace keras::layers
