#include "layers/preprocessing/categorical/hashed_crossing.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "layers/preprocessing/categorical/category_encoding.hpp"
#include "layers/preprocessing/categorical/string_hash.hpp"

namespace keras::layers {

KERAS_FIELDS(HashedCrossingOptions, output_mode, sparse)

namespace {
constexpr std::uint64_t kCrossHashKey = 0xDECAFCAFFEull;  // tf.sparse.cross_hashed's default hash_key
std::uint64_t shift_mix(std::uint64_t v) { return v ^ (v >> 47); }
}  // namespace

std::uint64_t fingerprint_cat64(std::uint64_t fp1, std::uint64_t fp2) {
  constexpr std::uint64_t kMul = 0xc6a4a7935bd1e995ull;
  std::uint64_t r = fp1 ^ kMul;
  r ^= shift_mix(fp2 * kMul) * kMul;
  r *= kMul;
  r = shift_mix(r) * kMul;
  return shift_mix(r);
}

HashedCrossing::HashedCrossing(std::int64_t num_bins, HashedCrossingOptions options)
    : Layer(options, "hashed_crossing"), num_bins_(num_bins), options_(std::move(options)) {
  if (num_bins_ < 1) throw ValueError(fmt::format("HashedCrossing: `num_bins` must be >= 1, received {}", num_bins_));
  if (options_.output_mode != "int" && options_.output_mode != "one_hot")
    throw ValueError(fmt::format("HashedCrossing: unsupported `output_mode` \"{}\"; use \"int\" or \"one_hot\"",
                                 options_.output_mode));
  if (options_.sparse) throw ValueError("HashedCrossing: sparse outputs are not supported by kerascpp; use sparse=false");
}

std::vector<Tensor> HashedCrossing::call(const std::vector<Tensor>& inputs, const CallContext& /*context*/) {
  const std::string who = fmt::format("HashedCrossing '{}'", name());
  if (inputs.size() < 2)
    throw ValueError(fmt::format("{}: should be called on at least two inputs, received {}", who, inputs.size()));
  const Shape& first = inputs[0].shape();
  if (first.size() > 2 || (first.size() == 2 && first[1] != 1))
    throw ValueError(fmt::format("{}: all inputs should have shape (), (batch_size) or (batch_size, 1); received {}",
                                 who, shape_str(first)));
  std::vector<Tensor> ints(inputs.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].shape() != first)
      throw ValueError(fmt::format("{}: all inputs should have equal shape; input 0 has {} and input {} has {}", who,
                                   shape_str(first), k, shape_str(inputs[k].shape())));
    const DType d = inputs[k].dtype();
    if (d != DType::string && d != DType::int32 && d != DType::int64 && d != DType::uint8)
      throw ValueError(fmt::format("{}: all inputs should have an integer or string dtype; input {} is {}", who, k,
                                   dtype_name(d)));
    if (d != DType::string) ints[k] = inputs[k].astype(DType::int64);
  }
  const std::int64_t n = inputs[0].size();
  Tensor ids = Tensor::empty(first, DType::int64);
  auto* o = ids.data<std::int64_t>();
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t h = kCrossHashKey;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const std::uint64_t feature = inputs[k].dtype() == DType::string
                                        ? preprocessing::fingerprint64(inputs[k].data<std::string>()[i])
                                        : static_cast<std::uint64_t>(ints[k].data<std::int64_t>()[i]);
      h = fingerprint_cat64(h, feature);
    }
    o[i] = static_cast<std::int64_t>(h % static_cast<std::uint64_t>(num_bins_));
  }
  if (options_.output_mode == "int") return {ids};
  return {encode_categories(ids, num_bins_, "one_hot", who)};
}

std::vector<Shape> HashedCrossing::compute_output_shape(const std::vector<Shape>& s) const {
  if (s.size() < 2) throw ValueError("HashedCrossing: expected a list of at least 2 input shapes");
  if (options_.output_mode == "int") return {s[0]};
  return {encoded_shape(s[0], "one_hot", num_bins_)};
}

json HashedCrossing::get_config() const {
  json c = layer_config(*this, options_);
  c["num_bins"] = num_bins_;
  return c;
}

std::shared_ptr<Layer> HashedCrossing::from_config(const json& c) {
  return make_from_config<HashedCrossing, HashedCrossingOptions>(c, config::required<std::int64_t>(c, "num_bins"));
}

KERAS_REGISTER_LAYER(HashedCrossing)
}  // namespace keras::layers
