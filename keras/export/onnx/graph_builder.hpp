#pragma once
// onnx::GraphBuilder: the ONNX graph an export writes, node by node. Layer exporters add nodes and
// initializers through it and never see protobuf: tensor values are named by strings, as in ONNX.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::onnx {

/// One attribute of an ONNX node: an int, a float, a string, a list of ints or a list of floats.
struct Attribute {
  std::string name;
  std::variant<std::int64_t, float, std::string, std::vector<std::int64_t>, std::vector<float>,
               std::vector<std::string>>
      value;
};

class GraphBuilder {
 public:
  explicit GraphBuilder(int opset);
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;

  int opset() const { return opset_; }
  /// The name new values and nodes start with (the layer being exported, "model/dense"); exporters need not
  /// set it.
  const std::string& scope() const { return scope_; }
  void set_scope(std::string scope) { scope_ = std::move(scope); }
  /// A value name not used yet: `hint` under the current scope, with a number appended if needed.
  std::string fresh_name(const std::string& hint);

  /// A node of `op_type` (default ONNX domain) reading `inputs` ("" for an omitted optional input); returns its
  /// `outputs` output names.
  std::vector<std::string> op(const std::string& op_type, const std::vector<std::string>& inputs,
                              const std::vector<Attribute>& attributes = {}, int outputs = 1);
  /// A node with one output.
  std::string op1(const std::string& op_type, const std::vector<std::string>& inputs,
                  const std::vector<Attribute>& attributes = {});

  /// A weight as an initializer (float32 stays float32; integer tensors become int64).
  std::string initializer(const std::string& hint, const Tensor& value);
  std::string int64s(const std::string& hint, const std::vector<std::int64_t>& values);
  std::string floats(const std::string& hint, const std::vector<float>& values, const Shape& shape);
  std::string scalar(const std::string& hint, float value);

  /// A graph input or output: `shape` is Keras's, -1 (unknown, the batch dimension among them) becomes a
  /// named dynamic dimension.
  void add_input(const std::string& name, const Shape& shape, DType dtype);
  void add_output(const std::string& name, const Shape& shape, DType dtype);

  /// Records the element type of value `name` where it differs from the float32 that kerascpp's symbolic graph
  /// declares for layer outputs (Discretization's int64 ids); graph outputs are declared with it.
  void set_dtype(const std::string& name, DType dtype) { dtypes_[name] = dtype; }
  DType dtype_of(const std::string& name, DType declared) const {
    const auto it = dtypes_.find(name);
    return it == dtypes_.end() ? declared : it->second;
  }

  /// The GraphProto being built (an onnx::GraphProto*; only export_onnx.cpp, which includes the generated
  /// protobuf header, reads it).
  void* proto() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int opset_;
  std::string scope_;
  std::map<std::string, DType> dtypes_;
};

}  // namespace keras::onnx
