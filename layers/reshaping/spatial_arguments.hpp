#pragma once
// Arguments shared by the Cropping, ZeroPadding and UpSampling layers: one (before, after) pair per
// spatial axis, read from Keras's forms (n, (a, b), ((a, b), (c, d), ...)), and the channels_last check.
#include <array>
#include <string>
#include <vector>

#include "keras/registry.hpp"

namespace keras::layers {

using SpatialPairs = std::vector<std::array<std::int64_t, 2>>;

/// `rank` pairs from a number (all equal), a list of numbers (symmetric per axis; for rank 1, the pair
/// itself) or a list of pairs.
SpatialPairs read_spatial_pairs(const json& j, int rank, const std::string& owner, const char* key);
/// Keras's JSON form: [a, b] for one spatial axis, [[a, b], ...] otherwise.
json spatial_pairs_json(const SpatialPairs& pairs);
/// Throws unless the config's data_format is absent or channels_last.
void require_channels_last(const json& config, const std::string& owner);
/// Rank checks for (batch, spatial..., channels) inputs.
void check_spatial_rank(const std::vector<std::int64_t>& shape, int spatial_rank, const std::string& owner,
                        const std::string& layer_name);

}  // namespace keras::layers
