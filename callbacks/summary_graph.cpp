#include "callbacks/summary_graph.hpp"

#include "callbacks/proto_wire.hpp"

namespace keras::summary {
namespace {

using namespace wire;

std::string shape_proto(const Shape& shape) {
  std::string s;
  for (auto d : shape) {
    std::string dim;
    put_int(dim, 1, d);
    put_bytes(s, 2, dim);
  }
  return s;
}

void put_attr(std::string& node, const std::string& key, const std::string& value) {
  std::string entry;
  put_bytes(entry, 1, key);
  put_bytes(entry, 2, value);
  put_bytes(node, 5, entry);
}

}  // namespace

int tf_data_type(DType dtype) {
  switch (dtype) {
    case DType::float32: return 1;
    case DType::float64: return 2;
    case DType::int32: return 3;
    case DType::uint8: return 4;
    case DType::string: return 7;
    case DType::int64: return 9;
    case DType::bool_: return 10;
  }
  return 0;
}

std::string encode_graph_def(const std::vector<GraphNode>& nodes) {
  std::string graph;
  for (const auto& n : nodes) {
    std::string node;
    put_bytes(node, 1, n.name);
    put_bytes(node, 2, n.op);
    for (const auto& in : n.inputs) put_bytes(node, 3, in);
    put_bytes(node, 4, "/job:localhost/replica:0/task:0/device:CPU:0");
    std::string type;
    put_int(type, 6, tf_data_type(n.dtype));
    std::string shape;
    put_bytes(shape, 7, shape_proto(n.shape));
    if (n.op == "Placeholder") {
      put_attr(node, "dtype", type);
      put_attr(node, "shape", shape);
    } else {
      put_attr(node, "T", type);
    }
    std::string shapes;  // a list of one shape
    put_bytes(shapes, 7, shape_proto(n.shape));
    std::string list;
    put_bytes(list, 1, shapes);
    put_attr(node, "_output_shapes", list);
    put_bytes(graph, 1, node);
  }
  return graph;
}

std::string encode_run_metadata(const std::string& graph_def, const std::vector<NodeStats>& stats) {
  std::string run;
  if (!stats.empty()) {
    std::string device;
    put_bytes(device, 1, "/job:localhost/replica:0/task:0/device:CPU:0");
    for (const auto& s : stats) {
      std::string n;
      put_bytes(n, 1, s.node_name);
      put_int(n, 2, s.start_micros);
      put_int(n, 4, s.duration_micros);
      put_int(n, 5, s.duration_micros);
      put_bytes(n, 8, s.node_name + " = " + s.op + "()");
      put_int(n, 10, s.thread_id);
      put_bytes(device, 2, n);
    }
    std::string step_stats;
    put_bytes(step_stats, 1, device);
    put_bytes(run, 1, step_stats);
  }
  std::string function_graphs;
  put_bytes(function_graphs, 2, graph_def);
  put_bytes(run, 4, function_graphs);
  return run;
}

}  // namespace keras::summary
