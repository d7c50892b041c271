// ONNX exporters of the reshaping layers: Permute, RepeatVector, ZeroPadding1D/2D/3D, Cropping1D/2D/3D and
// UpSampling1D/2D/3D (nearest: each row repeated; UpSampling2D's bilinear through ONNX's Resize).
#include <limits>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

std::vector<std::string> permute(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  std::vector<std::int64_t> perm{0};
  const json c = layer.get_config();
  for (const auto& d : c.at("dims")) perm.push_back(d.get<std::int64_t>());
  return one(g.op1("Transpose", {call.inputs[0]}, {{"perm", perm}}));
}

// [N, F] → [N, n, F].
std::vector<std::string> repeat_vector(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const std::int64_t n = layer.get_config().at("n").get<std::int64_t>();
  const std::string x = g.op1("Unsqueeze", {call.inputs[0], g.int64s("axes", {1})});
  return one(g.op1("Tile", {x, g.int64s("repeats", {1, n, 1})}));
}

// The config's (begin, end) pair per spatial axis ("padding" or "cropping"), and the first spatial axis.
struct SpatialPairs {
  std::vector<std::array<std::int64_t, 2>> pairs;
  std::int64_t first_axis;
};

SpatialPairs spatial_pairs(const Layer& layer, const LayerCall& call, const char* key) {
  const json c = layer.get_config();
  const std::size_t n = call.shape().size() - 2;
  const json& v = c.at(key);
  SpatialPairs out{{}, channels_last(c) ? 1 : 2};
  if (n == 1 && v.is_array() && v.size() == 2 && v[0].is_number()) {
    out.pairs.push_back({v[0].get<std::int64_t>(), v[1].get<std::int64_t>()});
    return out;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const json& p = v.is_number() ? v : v.at(i);
    if (p.is_number())
      out.pairs.push_back({p.get<std::int64_t>(), p.get<std::int64_t>()});
    else
      out.pairs.push_back({p.at(0).get<std::int64_t>(), p.at(1).get<std::int64_t>()});
  }
  return out;
}

std::vector<std::string> zero_padding(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const SpatialPairs s = spatial_pairs(layer, call, "padding");
  const std::size_t rank = call.shape().size();
  std::vector<std::int64_t> pads(2 * rank, 0);
  for (std::size_t i = 0; i < s.pairs.size(); ++i) {
    pads[s.first_axis + i] = s.pairs[i][0];
    pads[rank + s.first_axis + i] = s.pairs[i][1];
  }
  return one(g.op1("Pad", {call.inputs[0], g.int64s("pads", pads)}));
}

std::vector<std::string> cropping(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const SpatialPairs s = spatial_pairs(layer, call, "cropping");
  std::vector<std::int64_t> starts, ends, axes;
  for (std::size_t i = 0; i < s.pairs.size(); ++i) {
    starts.push_back(s.pairs[i][0]);
    ends.push_back(s.pairs[i][1] == 0 ? std::numeric_limits<std::int64_t>::max() : -s.pairs[i][1]);
    axes.push_back(s.first_axis + static_cast<std::int64_t>(i));
  }
  return one(g.op1("Slice", {call.inputs[0], g.int64s("starts", starts), g.int64s("ends", ends), g.int64s("axes", axes)}));
}

// Nearest upsampling: along each spatial axis, every row repeated `size` times ([.., d, ..] → [.., d, size, ..]
// by Unsqueeze and Tile, then merged back).
std::vector<std::string> up_sampling(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const std::size_t rank = call.shape().size(), n = rank - 2;
  const std::int64_t first = channels_last(c) ? 1 : 2;
  const std::vector<std::int64_t> size = n == 1 && c.at("size").is_number()
                                             ? std::vector<std::int64_t>{c.at("size").get<std::int64_t>()}
                                             : config_ints(layer, c, "size", n);
  if (c.value("interpolation", std::string("nearest")) != "nearest") {
    std::vector<float> scales(rank, 1.f);
    for (std::size_t i = 0; i < n; ++i) scales[first + i] = static_cast<float>(size[i]);
    std::string x = first == 1 ? to_channels_first(g, call.inputs[0], rank) : call.inputs[0];
    std::vector<float> cf_scales{1.f, 1.f};
    for (std::size_t i = 0; i < n; ++i) cf_scales.push_back(static_cast<float>(size[i]));
    x = g.op1("Resize", {x, "", g.floats("scales", cf_scales, {static_cast<std::int64_t>(rank)})},
              {{"mode", std::string("linear")}, {"coordinate_transformation_mode", std::string("half_pixel")}});
    return one(first == 1 ? to_channels_last(g, x, rank) : x);
  }
  std::string x = call.inputs[0];
  Shape shape = call.shape();
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t axis = first + static_cast<std::int64_t>(i);
    std::vector<std::int64_t> repeats(rank + 1, 1);
    repeats[axis + 1] = size[i];
    x = g.op1("Tile", {g.op1("Unsqueeze", {x, g.int64s("axes", {axis + 1})}), g.int64s("repeats", repeats)});
    shape[axis] = shape[axis] < 0 ? -1 : shape[axis] * size[i];
    std::vector<std::int64_t> target{0};
    for (std::size_t d = 1; d < rank; ++d) target.push_back(shape[d]);
    x = g.op1("Reshape", {x, g.int64s("shape", target)});
  }
  return one(x);
}

const bool registered = register_exporters({
    {"Permute", permute},
    {"RepeatVector", repeat_vector},
    {"ZeroPadding1D", zero_padding},
    {"ZeroPadding2D", zero_padding},
    {"ZeroPadding3D", zero_padding},
    {"Cropping1D", cropping},
    {"Cropping2D", cropping},
    {"Cropping3D", cropping},
    {"UpSampling1D", up_sampling},
    {"UpSampling2D", up_sampling},
    {"UpSampling3D", up_sampling},
});

}  // namespace
}  // namespace keras::onnx
