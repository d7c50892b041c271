#pragma once
// Graphs for TensorBoard's Graphs tab, hand-encoded as TensorFlow's protocol buffers
// (tensorflow/core/framework/{graph,node_def,attr_value,tensor_shape,step_stats}.proto, protobuf/config.proto):
//   GraphDef     { repeated NodeDef node = 1; }
//   NodeDef      { string name = 1; string op = 2; repeated string input = 3; string device = 4;
//                  map<string, AttrValue> attr = 5; }
//   AttrValue    { ListValue list = 1 { repeated TensorShapeProto shape = 7; }; DataType type = 6;
//                  TensorShapeProto shape = 7; }
//   RunMetadata  { StepStats step_stats = 1; repeated FunctionGraphs function_graphs = 4
//                  { GraphDef pre_optimization_graph = 2; }; }
//   StepStats    { repeated DeviceStepStats dev_stats = 1 { string device = 1; repeated NodeExecStats node_stats = 2; } }
//   NodeExecStats { string node_name = 1; int64 all_start_micros = 2; int64 op_start_rel_micros = 3;
//                   int64 op_end_rel_micros = 4; int64 all_end_rel_micros = 5; string timeline_label = 8;
//                   uint32 thread_id = 10; }
#include <cstdint>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::summary {

/// One node of a traced graph: an op, a variable, or an input fed from outside.
struct GraphNode {
  std::string name;  // "sequential/dense/dense": scopes, then the op, "_<n>" when repeated
  std::string op;    // the keras::ops op ("dense", "add", ...), "VarHandleOp", "Placeholder"
  std::vector<std::string> inputs{};
  DType dtype = DType::float32;
  Shape shape{};  // the output's shape
};
/// The time one node took, for RunMetadata.step_stats.
struct NodeStats {
  std::string node_name, op;
  std::int64_t start_micros = 0, duration_micros = 0;  // start: since the Unix epoch
  int thread_id = 0;
};

/// TensorFlow's DataType number of a dtype (DT_FLOAT = 1, ...).
int tf_data_type(DType dtype);
/// A serialized GraphDef of the nodes (each with its dtype "T" and "_output_shapes"; placeholders with "dtype" and
/// "shape").
std::string encode_graph_def(const std::vector<GraphNode>& nodes);
/// A serialized RunMetadata: the graph as a function graph and, when given, the step stats of its nodes on the CPU.
std::string encode_run_metadata(const std::string& graph_def, const std::vector<NodeStats>& stats);

}  // namespace keras::summary
