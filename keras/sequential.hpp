#pragma once
// Sequential: a plain stack of layers, each taking the previous one's output.
#include <initializer_list>

#include "keras/model.hpp"

namespace keras {

class Sequential : public Model {
 public:
  explicit Sequential(std::initializer_list<LayerRef> layers = {}, const std::string& name = "");
  explicit Sequential(const std::vector<LayerRef>& layers, const std::string& name = "");

  /// Appends a layer; when the input shape is known the model (re)builds at once.
  void add(const LayerRef& layer);
  /// Removes the last layer.
  void pop();
  std::vector<LayerPtr> layers() const override;

  void build(const Shape& input_shape) override;
  Tensor call(const Tensor& inputs, bool training) override;
  Shape compute_output_shape(const Shape& input_shape) const override;
  std::string class_name() const override { return "Sequential"; }
  /// Keras's Sequential config: {"name", "layers": [{"class_name", "config"}, ...]}.
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

 private:
  std::vector<LayerPtr> layers_;  // an InputLayer, when given, is kept first but is not a "layer" of the model
};

}  // namespace keras
