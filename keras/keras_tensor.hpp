#pragma once
// KerasTensor: a symbolic tensor of the functional API. Calling a layer on KerasTensors records a
// Node (the layer, its input tensors) and returns the output KerasTensor, whose shape comes from
// the layer's compute_output_shape. Model(inputs, outputs) turns the recorded graph into a model.
#include <memory>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras {

class Layer;
struct Node;

class KerasTensor {
 public:
  KerasTensor() = default;
  KerasTensor(Shape shape, DType dtype, std::shared_ptr<Node> node, int index = 0)
      : shape_(std::move(shape)), dtype_(dtype), node_(std::move(node)), index_(index) {}

  /// Shape with the batch dimension (and other unknown ones) as -1.
  const Shape& shape() const { return shape_; }
  DType dtype() const { return dtype_; }
  /// The call that produced this tensor.
  const std::shared_ptr<Node>& node() const { return node_; }
  /// Which of the call's outputs this is (Keras's tensor_index: 1 and 2 are an LSTM's h and c with return_state).
  int index() const { return index_; }
  bool defined() const { return node_ != nullptr; }
  std::string str() const { return "KerasTensor(shape=" + shape_str(shape_) + ", dtype=" + dtype_name(dtype_) + ")"; }

 private:
  Shape shape_;
  DType dtype_ = DType::float32;
  std::shared_ptr<Node> node_;
  int index_ = 0;
};

/// One call of a layer in a functional graph.
struct Node {
  std::shared_ptr<Layer> layer;
  std::vector<KerasTensor> inputs;  // empty for an InputLayer's node
  std::vector<Shape> output_shapes;  // one per output of the call
};

/// A symbolic input: the start of a functional model (keras.Input). Also accepted by Sequential.
struct InputOptions {
  std::string name{};
  std::int64_t batch_size = -1;
  DType dtype = DType::float32;
};
KerasTensor Input(const Shape& shape, InputOptions options = {});

}  // namespace keras
