#include "layers/normalization/group_normalization.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {

KERAS_FIELDS(GroupNormalizationOptions, axis, epsilon, center, scale, beta_initializer, gamma_initializer,
             beta_regularizer, gamma_regularizer, beta_constraint, gamma_constraint)

GroupNormalization::GroupNormalization(std::int64_t groups, GroupNormalizationOptions options)
    : Layer(options, "group_normalization"), groups_(groups), options_(std::move(options)) {
  if (groups < 1) throw ValueError(fmt::format("GroupNormalization: groups must be >= 1, received {}", groups));
}

void GroupNormalization::build(const Shape& s) {
  const int rank = static_cast<int>(s.size());
  if (options_.axis < -rank || options_.axis >= rank || options_.axis % rank == 0)
    throw ValueError(fmt::format("GroupNormalization \"{}\": invalid axis {} for input shape {}", name(),
                                 options_.axis, shape_str(s)));
  const std::int64_t dim = s[(options_.axis + rank) % rank];
  if (dim < 0)
    throw ValueError(fmt::format("Axis {} of input tensor should have a defined dimension but the layer received an "
                                 "input with shape {}.",
                                 options_.axis, shape_str(s)));
  if (dim < groups_)
    throw ValueError(fmt::format("Number of groups ({}) cannot be more than the number of channels ({}).", groups_,
                                 dim));
  if (dim % groups_ != 0)
    throw ValueError(fmt::format("Number of groups ({}) must be a multiple of the number of channels ({}).", groups_,
                                 dim));
  if (options_.scale)
    gamma_ = add_weight("gamma", {dim}, options_.gamma_initializer, true, options_.gamma_regularizer,
                        options_.gamma_constraint);
  if (options_.center)
    beta_ = add_weight("beta", {dim}, options_.beta_initializer, true, options_.beta_regularizer,
                       options_.beta_constraint);
}

Tensor GroupNormalization::call(const Tensor& x0, bool) {
  const int rank = x0.ndim();
  const int axis = (options_.axis + rank) % rank;
  // Channels move last, then split into (groups, channels per group).
  std::vector<int> perm(rank);
  for (int a = 0; a < rank; ++a) perm[a] = a;
  std::swap(perm[axis], perm[rank - 1]);
  const Tensor x = axis == rank - 1 ? x0 : ops::transpose(x0, perm);
  const std::int64_t batch = x.dim(0), channels = x.dim(-1);
  Tensor grouped = ops::reshape(x, {batch, -1, groups_, channels / groups_});
  Tensor mean = ops::mean(grouped, {1, 3}, true);
  Tensor centered = grouped - mean;
  Tensor variance = ops::mean(ops::square(centered), {1, 3}, true);
  Tensor y = ops::reshape(centered / ops::sqrt(variance + static_cast<float>(options_.epsilon)), x.shape());
  if (gamma_) y = y * gamma_->value();
  if (beta_) y = y + beta_->value();
  return axis == rank - 1 ? y : ops::transpose(y, perm);
}

json GroupNormalization::get_config() const {
  json c = layer_config(*this, options_);
  c["groups"] = groups_;
  return c;
}

std::shared_ptr<Layer> GroupNormalization::from_config(const json& c) {
  return make_from_config<GroupNormalization, GroupNormalizationOptions>(c, config::value_or(c, "groups", std::int64_t{32}));
}

KERAS_REGISTER_LAYER(GroupNormalization)

}  // namespace keras::layers
