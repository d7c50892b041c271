#include "keras/export/onnx/layer_exporters.hpp"

#include <map>
#include <mutex>

#include "keras/errors.hpp"
#include "keras/export/onnx/model_graph.hpp"
#include "keras/export/onnx/op_layer_exporter.hpp"
#include "keras/model.hpp"
#include "layers/core/op_layer.hpp"

namespace keras::onnx {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, LayerExporter> exporters;
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void register_layer_exporter(const std::string& class_name, LayerExporter exporter) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.exporters[class_name] = std::move(exporter);
}

void not_exportable(const Layer& layer, const std::string& why) {
  throw ValueError("Layer '" + layer.name() + "' (" + layer.class_name() + ") cannot be exported to ONNX: " + why);
}

std::vector<std::string> export_layer_call(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  if (const auto* model = dynamic_cast<const Model*>(&layer)) return export_model_graph(g, *model, call.inputs);
  if (const auto* op = dynamic_cast<const layers::OpLayer*>(&layer)) return export_op_layer(g, *op, call);
  LayerExporter exporter;
  {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.exporters.find(layer.class_name());
    if (it != r.exporters.end()) exporter = it->second;
  }
  if (!exporter)
    not_exportable(layer, "no ONNX exporter is registered for class " + layer.class_name() +
                              " (register one with keras::onnx::register_layer_exporter)");
  return exporter(g, layer, call);
}

}  // namespace keras::onnx
