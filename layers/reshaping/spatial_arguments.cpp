#include "layers/reshaping/spatial_arguments.hpp"

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/tensor.hpp"

namespace keras::layers {

SpatialPairs read_spatial_pairs(const json& j, int rank, const std::string& owner, const char* key) {
  const auto bad = [&] {
    return ValueError(fmt::format("{}: `{}` should be an int, a list of {} ints or a list of {} pairs of ints, got {}",
                                  owner, key, rank, rank, j.dump()));
  };
  SpatialPairs out;
  if (j.is_number()) {
    const auto v = j.get<std::int64_t>();
    out.assign(rank, {v, v});
  } else if (j.is_array() && rank == 1 && j.size() == 2 && j[0].is_number()) {
    out.push_back({j[0].get<std::int64_t>(), j[1].get<std::int64_t>()});
  } else if (j.is_array() && static_cast<int>(j.size()) == rank) {
    for (const auto& e : j) {
      if (e.is_number()) out.push_back({e.get<std::int64_t>(), e.get<std::int64_t>()});
      else if (e.is_array() && e.size() == 2) out.push_back({e[0].get<std::int64_t>(), e[1].get<std::int64_t>()});
      else throw bad();
    }
  } else {
    throw bad();
  }
  for (const auto& p : out)
    if (p[0] < 0 || p[1] < 0) throw ValueError(fmt::format("{}: `{}` values must be >= 0, got {}", owner, key, j.dump()));
  return out;
}

SpatialPairs spatial_pairs_from_config(const json& c, const char* key, int rank, const SpatialPairs& fallback,
                                       const std::string& owner) {
  return c.contains(key) && !c[key].is_null() ? read_spatial_pairs(c[key], rank, owner, key) : fallback;
}

json spatial_pairs_json(const SpatialPairs& pairs) {
  if (pairs.size() == 1) return json{pairs[0][0], pairs[0][1]};
  json out = json::array();
  for (const auto& p : pairs) out.push_back(json{p[0], p[1]});
  return out;
}

json with_shorthands_spelled_out(json config, int rank, std::initializer_list<const char*> size_keys,
                                 const std::string& owner) {
  for (auto it = config.begin(); it != config.end();) it = it->is_null() ? config.erase(it) : std::next(it);
  for (const char* key : size_keys) {
    auto it = config.find(key);
    if (it == config.end()) continue;
    if (it->is_number()) *it = json(std::vector<std::int64_t>(rank, it->get<std::int64_t>()));
    else if (!it->is_array() || static_cast<int>(it->size()) != rank)
      throw ValueError(fmt::format("{}: `{}` must be {} integers, got {}", owner, key, rank, it->dump()));
  }
  return config;
}

void require_channels_last(const json& c, const std::string& owner) {
  if (c.contains("data_format") && !c["data_format"].is_null() && c["data_format"] != "channels_last")
    throw ValueError(fmt::format("{}: only data_format=\"channels_last\" is supported, got {}", owner,
                                 c["data_format"].dump()));
}

void check_spatial_rank(const std::vector<std::int64_t>& shape, int spatial_rank, const std::string& owner,
                        const std::string& layer_name) {
  if (static_cast<int>(shape.size()) != spatial_rank + 2)
    throw ValueError(fmt::format("Input 0 of layer \"{}\" ({}) is incompatible with the layer: expected ndim={} "
                                 "(batch, {}channels), found shape {}",
                                 layer_name, owner, spatial_rank + 2, spatial_rank == 1 ? "steps, " :
                                 spatial_rank == 2 ? "rows, cols, " : "dim1, dim2, dim3, ",
                                 shape_str(shape)));
}

}  // namespace keras::layers
