// plot_model: the layer graph read from the model's Keras config (Sequential: a chain; functional:
// the inbound_nodes of each layer), written as DOT and rendered by Graphviz's `dot` when asked.
#include "keras/json.hpp"
#include "keras/utils/plot_model.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace keras::utils {
namespace fs = std::filesystem;
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '|' || c == '<' || c == '>') out += '\\';
    out += c;
  }
  return out;
}

std::string shapes_str(const std::vector<Shape>& shapes) {
  if (shapes.empty()) return "?";
  if (shapes.size() == 1) return shape_str(shapes[0]);
  std::string s = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) s += (i ? ", " : "") + shape_str(shapes[i]);
  return s + "]";
}

// The layers each layer reads from, by name, from a Keras 2 functional config's inbound_nodes.
std::vector<std::string> inbound_layers(const json& layer_config) {
  std::vector<std::string> names;
  if (!layer_config.contains("inbound_nodes")) return names;
  for (const auto& node : layer_config["inbound_nodes"]) {
    if (!node.is_array()) continue;
    for (const auto& entry : node)
      if (entry.is_array() && !entry.empty() && entry[0].is_string()) names.push_back(entry[0]);
  }
  return names;
}

std::string node_label(const Layer& layer, const std::vector<Shape>& in_shapes, const PlotModelOptions& o) {
  std::string title = o.show_layer_names ? layer.name() + ": " + layer.class_name() : layer.class_name();
  if (o.show_layer_activations) {
    const json config = layer.get_config();
    if (config.contains("activation") && config["activation"].is_string())
      title += fmt::format(" ({})", config["activation"].get<std::string>());
  }
  std::string label = escape(title);
  if (o.show_dtype) label += fmt::format("|{}", escape(layer.get_config().value("dtype", std::string("float32"))));
  if (o.show_trainable) label += std::string("|") + (layer.trainable() ? "T" : "NT");
  if (o.show_shapes) {
    const bool is_input = layer.class_name() == "InputLayer";
    const std::string out = is_input && layer.batch_input_shape() ? shape_str(*layer.batch_input_shape())
                            : layer.built_input_shape()            ? shape_str(layer.output_shape())
                                                                   : "?";
    const std::string in = is_input ? out : shapes_str(in_shapes);
    label += fmt::format("|{{input:|output:}}|{{{}|{}}}", escape(in), escape(out));
  }
  return fmt::format("{{{}}}", label);
}

// Runs `dot -T<format> -o out in`; returns -1 when `dot` cannot be started, else its exit status.
int run_dot(const std::string& format, const std::string& out, const std::string& in) {
  std::string t = "-T" + format, o = "-o" + out, i = in, prog = "dot";
  char* argv[] = {prog.data(), t.data(), o.data(), i.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "dot", nullptr, nullptr, argv, environ) != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string model_to_dot(const Model& model, const PlotModelOptions& o) {
  if (o.rankdir != "TB" && o.rankdir != "LR")
    throw ValueError("plot_model: rankdir must be \"TB\" or \"LR\", got \"" + o.rankdir + "\"");
  const json config = model.get_config();
  const auto layers = model.layers();
  std::map<std::string, LayerPtr> by_name;
  for (const auto& l : layers) by_name[l->name()] = l;

  // Edges by layer name: from the functional config, or a chain for Sequential and subclassed models.
  std::vector<std::pair<std::string, std::string>> edges;
  const bool functional = config.contains("layers") && config["layers"].is_array() && config.contains("input_layers");
  if (functional) {
    for (const auto& lc : config["layers"])
      for (const auto& source : inbound_layers(lc)) edges.emplace_back(source, lc.value("name", std::string()));
  } else {
    for (std::size_t i = 1; i < layers.size(); ++i) edges.emplace_back(layers[i - 1]->name(), layers[i]->name());
  }

  std::ostringstream dot;
  dot << "digraph G {\n";
  dot << fmt::format("  graph [rankdir={}, dpi={}, concentrate=true];\n", o.rankdir, o.dpi);
  dot << "  node [shape=record, fontname=\"Helvetica\"];\n";
  for (std::size_t i = 0; i < layers.size(); ++i) {
    std::vector<Shape> in_shapes;
    for (const auto& [from, to] : edges)
      if (to == layers[i]->name() && by_name.count(from) && by_name[from]->built_input_shape())
        in_shapes.push_back(by_name[from]->output_shape());
      else if (to == layers[i]->name() && by_name.count(from) && by_name[from]->batch_input_shape())
        in_shapes.push_back(*by_name[from]->batch_input_shape());
    if (!functional && i == 0 && layers[0]->built_input_shape()) in_shapes.push_back(*layers[0]->built_input_shape());
    dot << fmt::format("  \"{}\" [label=\"{}\"];\n", escape(layers[i]->name()), node_label(*layers[i], in_shapes, o));
  }
  for (const auto& [from, to] : edges) dot << fmt::format("  \"{}\" -> \"{}\";\n", escape(from), escape(to));
  dot << "}\n";
  return dot.str();
}

void plot_model(const Model& model, const std::string& to_file, const PlotModelOptions& options) {
  const std::string text = model_to_dot(model, options);
  const std::string ext = fs::path(to_file).extension().string();
  const std::string tmp = to_file + ".tmp" + std::to_string(::getpid());
  auto fail = [&](const std::string& why) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw IOError("plot_model could not write " + to_file + ": " + why);
  };
  if (ext == ".dot" || ext == ".gv") {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.close();
    if (!out) fail("writing failed");
  } else {
    const std::string format = ext.empty() ? "" : ext.substr(1);
    if (format != "png" && format != "svg" && format != "pdf" && format != "jpg" && format != "gif")
      throw ValueError("plot_model: unsupported file type '" + ext + "' for " + to_file +
                       "; use .dot, .png, .svg, .pdf, .jpg or .gif");
    const std::string dot_file = tmp + ".dot";
    {
      std::ofstream out(dot_file, std::ios::trunc);
      out << text;
    }
    const int rc = run_dot(format, tmp, dot_file);
    std::error_code ignored;
    fs::remove(dot_file, ignored);
    if (rc == -1)
      throw Error("plot_model needs Graphviz's `dot` program to write " + to_file +
                  " (install the Debian package graphviz), or write a .dot file instead");
    if (rc != 0) fail("`dot` failed to render the graph");
  }
  std::error_code ec;
  fs::rename(tmp, to_file, ec);
  if (ec) fail(ec.message());
}

}  // namespace keras::utils
