// ONNX exporter of TimeDistributed(layer): [batch, time, ...] folded to [batch * time, ...], the inner layer's
// exporter, then unfolded with the runtime batch and time sizes.
#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"

namespace keras::onnx {
namespace {

std::vector<std::string> time_distributed(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const auto inner = layer.sublayers();
  if (inner.size() != 1) not_exportable(layer, "it does not wrap one layer");
  const Shape& shape = call.shape();
  Shape folded{-1};
  for (std::size_t i = 2; i < shape.size(); ++i) {
    if (shape[i] < 0) not_exportable(layer, "the per-step input shape " + shape_str(shape) + " must be known");
    folded.push_back(shape[i]);
  }
  const Shape inner_out = inner[0]->compute_output_shape(folded);
  std::vector<std::int64_t> fold{-1};
  fold.insert(fold.end(), folded.begin() + 1, folded.end());
  const std::string x = g.op1("Reshape", {call.inputs[0], g.int64s("folded", fold)});
  const std::string scope = g.scope();
  g.set_scope(scope + "/" + inner[0]->name());
  const auto y = export_layer_call(g, *inner[0], {{x}, {folded}, {inner_out}});
  g.set_scope(scope);
  if (y.size() != 1) not_exportable(layer, "its inner layer has several outputs");
  std::vector<std::int64_t> step(inner_out.begin() + 1, inner_out.end());
  for (auto d : step)
    if (d < 0) not_exportable(layer, "the inner layer's output shape " + shape_str(inner_out) + " must be known");
  const std::string batch_time = g.op1("Slice", {g.op1("Shape", {call.inputs[0]}), g.int64s("start", {0}), g.int64s("end", {2})});
  const std::string unfolded = g.op1("Concat", {batch_time, g.int64s("step_shape", step)}, {{"axis", std::int64_t{0}}});
  return one(g.op1("Reshape", {y[0], unfolded}));
}

const bool registered = register_exporters({{"TimeDistributed", time_distributed}});

}  // namespace
}  // namespace keras::onnx
