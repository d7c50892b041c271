#pragma once
// An ONNX file read into plain structures (no protobuf beyond onnx_reading.cpp): the graph's inputs,
// outputs, constants (initializers and Constant nodes) and nodes with their attributes as JSON.
#include <map>
#include <string>
#include <vector>

#include "keras/json.hpp"
#include "keras/tensor.hpp"

namespace keras::onnx {

struct OnnxNode {
  std::string op;  // op_type, default domain
  std::vector<std::string> inputs, outputs;
  json attributes = json::object();  // name → int, float, string, or a list of them
  /// An int attribute, or `fallback`.
  std::int64_t integer(const std::string& name, std::int64_t fallback) const;
  /// An ints attribute, or `fallback`.
  std::vector<std::int64_t> integers(const std::string& name, std::vector<std::int64_t> fallback = {}) const;
};

struct OnnxValueInfo {
  std::string name;
  Shape shape;  // -1 for a dynamic dimension
  DType dtype = DType::float32;
};

struct OnnxGraph {
  std::string name;
  std::vector<OnnxValueInfo> inputs;  // without the initializers some writers also list as inputs
  std::vector<std::string> outputs;
  std::map<std::string, Tensor> constants;
  std::vector<OnnxNode> nodes;  // in the file's (topological) order
};

/// Reads and parses `path`; an IOError when it cannot be read, a ValueError when it is not an ONNX model.
OnnxGraph read_onnx(const std::string& path);

}  // namespace keras::onnx
