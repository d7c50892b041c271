#pragma once
// keras::utils::plot_model: the model's graph as Graphviz DOT, and as PNG/SVG/PDF when the `dot`
// program (Debian package graphviz) is installed.
#include <string>

#include "keras/model.hpp"

namespace keras::utils {

struct PlotModelOptions {
  bool show_shapes = false;             // input and output shapes of each layer
  bool show_dtype = false;              // the layer's dtype
  bool show_layer_names = true;         // "name: Class" instead of "Class"
  std::string rankdir = "TB";           // "TB" vertical, "LR" horizontal
  bool show_layer_activations = false;  // the activation of layers that have one
  bool show_trainable = false;          // "T" or "NT" per layer
  int dpi = 96;
};

/// The graph in the DOT language: one node per layer, one edge per connection.
std::string model_to_dot(const Model& model, const PlotModelOptions& options = {});

/// Writes the graph to `to_file`: DOT text for ".dot"/".gv", otherwise an image rendered by `dot` in
/// the format its extension names (".png", ".svg", ".pdf"). Atomic: a failure keeps an old file.
void plot_model(const Model& model, const std::string& to_file = "model.png", const PlotModelOptions& options = {});

}  // namespace keras::utils
