#pragma once
// Spatial arguments in Keras's configs: one (before, after) pair per spatial axis for the Cropping,
// ZeroPadding and UpSampling layers, read from Keras's forms (n, (a, b), ((a, b), (c, d), ...)); the
// shorthands of the convolution and pooling configs, undone before their fields are read; the
// channels_last check.
#include <array>
#include <initializer_list>
#include <string>
#include <vector>

#include "keras/registry.hpp"

namespace keras::layers {

using SpatialPairs = std::vector<std::array<std::int64_t, 2>>;

/// `rank` pairs from a number (all equal), a list of numbers (symmetric per axis; for rank 1, the pair
/// itself) or a list of pairs.
SpatialPairs read_spatial_pairs(const json& j, int rank, const std::string& owner, const char* key);
/// The pairs under `key` in a rank-`rank` layer's config, `fallback` when absent or null.
SpatialPairs spatial_pairs_from_config(const json& config, const char* key, int rank, const SpatialPairs& fallback,
                                       const std::string& owner);
/// Keras's JSON form: [a, b] for one spatial axis, [[a, b], ...] otherwise.
json spatial_pairs_json(const SpatialPairs& pairs);
/// `config` as the convolution and pooling layers read it: null values dropped (Keras writes null for an unset
/// argument, so the default applies) and each of `size_keys` given as one integer (kernel_size=3) spelled out
/// as `rank` integers; a list of another length is a ValueError.
json with_shorthands_spelled_out(json config, int rank, std::initializer_list<const char*> size_keys,
                                 const std::string& owner);
/// Throws unless the config's data_format is absent or channels_last.
void require_channels_last(const json& config, const std::string& owner);
/// Rank checks for (batch, spatial..., channels) inputs.
void check_spatial_rank(const std::vector<std::int64_t>& shape, int spatial_rank, const std::string& owner,
                        const std::string& layer_name);

}  // namespace keras::layers
