// ONNX exporters of the poolings: Max/AveragePooling1D/2D/3D (valid or same, averages over the
// unpadded window as Keras) and the global poolings (reductions over the spatial axes; GlobalAveragePooling1D
// under a Keras mask averages over the unmasked steps).
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/export/onnx/spatial_padding.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

std::vector<std::string> pooling(GraphBuilder& g, const Layer& layer, const LayerCall& call, const std::string& op) {
  const json c = layer.get_config();
  const std::size_t rank = call.shape().size(), n = rank - 2;
  const bool last = channels_last(c);
  const std::vector<std::int64_t> pool = config_ints(layer, c, "pool_size", n);
  const std::vector<std::int64_t> strides =
      c.contains("strides") && !c["strides"].is_null() ? config_ints(layer, c, "strides", n) : pool;
  std::vector<std::int64_t> in;
  for (std::size_t i = 0; i < n; ++i) in.push_back(call.shape()[last ? 1 + i : 2 + i]);
  std::vector<Attribute> a{{"kernel_shape", pool}, {"strides", strides}};
  for (auto& p : padding_attributes(c.value("padding", std::string("valid")), {in, pool, strides})) a.push_back(p);
  if (op == "AveragePool") a.push_back({"count_include_pad", std::int64_t{0}});
  std::string x = last ? to_channels_first(g, call.inputs[0], rank) : call.inputs[0];
  x = g.op1(op, {x}, a);
  return one(last ? to_channels_last(g, x, rank) : x);
}

std::vector<std::string> global_pooling(GraphBuilder& g, const Layer& layer, const LayerCall& call, const std::string& op) {
  const json c = layer.get_config();
  const std::size_t rank = call.shape().size();
  std::vector<std::int64_t> axes;
  for (std::size_t i = 0; i + 2 < rank; ++i) axes.push_back(static_cast<std::int64_t>(channels_last(c) ? 1 + i : 2 + i));
  const std::int64_t keepdims = c.value("keepdims", false) ? 1 : 0;
  if (!call.mask().empty()) {
    // GlobalAveragePooling1D under a Keras mask: the mean over the unmasked steps, sum(x * m) / sum(m).
    const std::string m = g.op1("Unsqueeze", {g.op1("Cast", {call.mask()}, {{"to", std::int64_t{1}}}),
                                              g.int64s("axes", {channels_last(c) ? 2 : 1})});
    return one(g.op1("Div", {reduce(g, "Sum", g.op1("Mul", {call.inputs[0], m}), axes, keepdims != 0),
                             reduce(g, "Sum", m, axes, keepdims != 0)}));
  }
  return one(g.op1(op, {call.inputs[0]}, {{"axes", axes}, {"keepdims", keepdims}}));
}

LayerExporter pool(const std::string& op) {
  return [op](GraphBuilder& g, const Layer& l, const LayerCall& c) { return pooling(g, l, c, op); };
}
LayerExporter global(const std::string& op) {
  return [op](GraphBuilder& g, const Layer& l, const LayerCall& c) { return global_pooling(g, l, c, op); };
}

const bool registered = register_exporters({
    {"MaxPooling1D", pool("MaxPool")},
    {"MaxPooling2D", pool("MaxPool")},
    {"MaxPooling3D", pool("MaxPool")},
    {"AveragePooling1D", pool("AveragePool")},
    {"AveragePooling2D", pool("AveragePool")},
    {"AveragePooling3D", pool("AveragePool")},
    {"GlobalMaxPooling1D", global("ReduceMax")},
    {"GlobalMaxPooling2D", global("ReduceMax")},
    {"GlobalMaxPooling3D", global("ReduceMax")},
    {"GlobalAveragePooling1D", global("ReduceMean")},
    {"GlobalAveragePooling2D", global("ReduceMean")},
    {"GlobalAveragePooling3D", global("ReduceMean")},
});

}  // namespace
}  // namespace keras::onnx
