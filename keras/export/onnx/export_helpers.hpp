#pragma once
// What the layer exporters share: a layer's weights by name and config values, Keras activations as ONNX
// nodes, and the Transposes between Keras's channels-last layout and the channels-first one of ONNX's
// convolutions and poolings.
#include <cstdint>
#include <string>
#include <vector>

#include "keras/export/onnx/graph_builder.hpp"
#include "keras/export/onnx/layer_exporters.hpp"
#include "keras/json_fwd.hpp"
#include "keras/tensor.hpp"

namespace keras {
class Layer;
}

namespace keras::onnx {

/// The value of the layer's weight called `name` ("kernel", "bias", "moving_mean"); a ValueError when absent.
Tensor weight(const Layer& layer, const std::string& name);
bool has_weight(const Layer& layer, const std::string& name);
/// `x` transposed on the host (a weight converted to ONNX's layout).
Tensor transposed(const Tensor& x, const std::vector<int>& perm);

/// A config entry that Keras writes as one int or a list: `n` ints either way.
std::vector<std::int64_t> config_ints(const Layer& layer, const json& config, const std::string& key, std::size_t n);

/// Keras's activation `name` ("relu", "softmax", ...) applied to `x`; "linear" returns `x` itself.
std::string activation(GraphBuilder& g, const Layer& layer, const std::string& name, const std::string& x);
/// The activation named in the layer's config "activation" entry, applied to `x`.
std::string config_activation(GraphBuilder& g, const Layer& layer, const json& config, const std::string& x);

/// [N, d1, ..., C] → [N, C, d1, ...] and back, for a tensor of `rank`.
std::string to_channels_first(GraphBuilder& g, const std::string& x, std::size_t rank);
std::string to_channels_last(GraphBuilder& g, const std::string& x, std::size_t rank);
/// Whether the layer's data_format is channels_last (Keras's default).
bool channels_last(const json& config);

/// ONNX's Reduce<op> ("Sum", "Mean", "Max", "Prod") over `axes` (ReduceSum takes them as an input from opset 13,
/// the others as an attribute until opset 18).
std::string reduce(GraphBuilder& g, const std::string& op, const std::string& x, const std::vector<std::int64_t>& axes,
                   bool keepdims);

/// Registers exporters at load time: `static const bool r = register_exporters({{"Dense", fn}, ...});`.
bool register_exporters(const std::vector<std::pair<std::string, LayerExporter>>& exporters);

/// One output, as an exporter returns it.
inline std::vector<std::string> one(std::string x) { return {std::move(x)}; }

}  // namespace keras::onnx
