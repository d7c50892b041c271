#include "keras/export/onnx/export_onnx.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "keras/errors.hpp"
#include "keras/export/onnx/graph_builder.hpp"
#include "keras/export/onnx/model_graph.hpp"
#include "keras/functional_graph.hpp"
#include "keras/model.hpp"
#include "kerascpp_version.hpp"
#include "keras_onnx_proto/onnx.pb.h"

namespace keras {
namespace {

constexpr int kMinOpset = 13, kMaxOpset = 17;
constexpr std::int64_t kIrVersion = 8;  // the ONNX IR of opset 17 (ONNX 1.12)

::onnx::ModelProto model_proto(const Model& model, const ExportOnnxOptions& options) {
  if (options.opset < kMinOpset || options.opset > kMaxOpset)
    throw ValueError("export_onnx: opset " + std::to_string(options.opset) + " is not supported; use " +
                     std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset));
  if (!model.graph())
    throw ValueError("Model '" + model.name() +
                     "' cannot be exported to ONNX: it has no graph of layer calls (a subclassed model, or a "
                     "Sequential model that was never built; build it or give its first layer an input shape)");
  onnx::GraphBuilder g(options.opset);
  const auto& graph = *model.graph();
  const std::vector<std::string> input_names = model.input_names(), output_names = model.output_names();
  for (std::size_t i = 0; i < graph.inputs().size(); ++i)
    g.add_input(input_names[i], graph.inputs()[i].shape(), graph.inputs()[i].dtype());
  const std::vector<std::string> outputs = onnx::export_model_graph(g, model, input_names);
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    // Identity gives the output Keras's name (and lets one value be two outputs).
    g.set_scope("");
    auto* node = static_cast<::onnx::GraphProto*>(g.proto())->add_node();
    node->set_op_type("Identity");
    node->set_name(output_names[i] + "/Identity");
    node->add_input(outputs[i]);
    node->add_output(output_names[i]);
    g.add_output(output_names[i], graph.outputs()[i].shape(), g.dtype_of(outputs[i], graph.outputs()[i].dtype()));
  }
  ::onnx::ModelProto proto;
  proto.set_ir_version(kIrVersion);
  proto.set_producer_name("kerascpp");
  proto.set_producer_version(KERASCPP_VERSION);
  proto.set_domain("io.github.kerascpp");
  proto.set_model_version(1);
  proto.set_doc_string("Keras model '" + model.name() + "' exported by kerascpp");
  auto* opset = proto.add_opset_import();
  opset->set_domain("");
  opset->set_version(options.opset);
  auto* graph_proto = proto.mutable_graph();
  graph_proto->Swap(static_cast<::onnx::GraphProto*>(g.proto()));
  graph_proto->set_name(model.name());
  auto* meta = proto.add_metadata_props();
  meta->set_key("keras_class_name");
  meta->set_value(model.class_name());
  return proto;
}

}  // namespace

void export_onnx(const Model& model, const std::string& path, ExportOnnxOptions options) {
  const ::onnx::ModelProto proto = model_proto(model, options);
  constexpr std::size_t kProtobufLimit = 2147483647;  // protobuf serializes messages below 2 GB only
  if (const std::size_t bytes = proto.ByteSizeLong(); bytes > kProtobufLimit)
    throw ValueError("Model '" + model.name() + "' needs " + std::to_string(bytes) +
                     " bytes as ONNX; a single ONNX file holds less than 2 GB (protobuf's limit)");
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw IOError("Cannot write " + tmp + " (for " + path + ")");
    if (!proto.SerializeToOstream(&out) || !out.flush()) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw IOError("Cannot write " + tmp + " (for " + path + "): is the disk full?");
    }
  }
  std::error_code error;
  std::filesystem::rename(tmp, path, error);
  if (error) throw IOError("Cannot rename " + tmp + " to " + path + ": " + error.message());
}

}  // namespace keras
