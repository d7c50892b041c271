#include "keras/applications/imagenet_utils.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "keras/errors.hpp"
#include "keras/hdf5/file.hpp"
#include "keras/json.hpp"
#include "keras/saving/object_path_layout.hpp"
#include "layers/core/keras_tensor_ops.hpp"
#include "layers/core/dense.hpp"
#include "layers/merging/concatenate.hpp"
#include "layers/pooling/global_pooling.hpp"

namespace keras::applications {

namespace imagenet_utils {

Tensor preprocess_input(const Tensor& x, const std::string& mode) {
  if (mode != "caffe" && mode != "tf" && mode != "torch")
    throw ValueError("Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode=" + mode);
  if (!x.defined() || !is_numeric(x.dtype()))
    throw ValueError("preprocess_input: expected numeric pixels, got " + (x.defined() ? x.str() : std::string("no tensor")));
  Tensor out = x.astype(DType::float32).clone();
  float* p = out.data<float>();
  const std::int64_t n = out.size();
  if (mode == "tf") {
    for (std::int64_t i = 0; i < n; ++i) p[i] = p[i] / 127.5f - 1.f;
    return out;
  }
  if (out.ndim() < 1 || out.dim(-1) != 3)
    throw ValueError(fmt::format("preprocess_input(mode=\"{}\"): expected channels_last images with 3 channels "
                                 "(..., rows, cols, 3), got shape {}",
                                 mode, shape_str(out.shape())));
  if (mode == "torch") {
    const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
    for (std::int64_t i = 0; i < n; i += 3)
      for (int c = 0; c < 3; ++c) p[i + c] = (p[i + c] / 255.f - mean[c]) / std[c];
    return out;
  }
  const float mean[3] = {103.939f, 116.779f, 123.68f};  // B, G, R
  for (std::int64_t i = 0; i < n; i += 3) {
    std::swap(p[i], p[i + 2]);
    for (int c = 0; c < 3; ++c) p[i + c] -= mean[c];
  }
  return out;
}

KerasTensor preprocess_input(const KerasTensor& x, const std::string& mode) {
  if (mode != "caffe" && mode != "tf" && mode != "torch")
    throw ValueError("Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode=" + mode);
  if (mode == "tf") return x / 127.5f - 1.f;
  if (x.shape().empty() || x.shape().back() != 3)
    throw ValueError(fmt::format("preprocess_input(mode=\"{}\"): expected channels_last images with 3 channels "
                                 "(..., rows, cols, 3), got shape {}",
                                 mode, shape_str(x.shape())));
  auto channel = [&](std::int64_t c) { return getitem(x, {ellipsis, Slice{.start = c, .stop = c + 1}}); };
  std::vector<KerasTensor> channels;
  if (mode == "torch") {
    const float mean[3] = {0.485f, 0.456f, 0.406f}, std[3] = {0.229f, 0.224f, 0.225f};
    for (std::int64_t c = 0; c < 3; ++c) channels.push_back((channel(c) / 255.f - mean[c]) / std[c]);
  } else {
    const float mean[3] = {103.939f, 116.779f, 123.68f};  // B, G, R
    for (std::int64_t c = 0; c < 3; ++c) channels.push_back(channel(2 - c) - mean[c]);
  }
  return layers::concatenate(channels, -1);
}

namespace {

std::string default_class_index_path() {
  std::vector<std::filesystem::path> candidates;
  if (const char* home = std::getenv("KERAS_HOME")) candidates.emplace_back(std::filesystem::path(home) / "models");
  if (const char* home = std::getenv("HOME")) candidates.emplace_back(std::filesystem::path(home) / ".keras" / "models");
  candidates.emplace_back(std::filesystem::temp_directory_path() / ".keras" / "models");  // Keras's fallback
  for (const auto& dir : candidates)
    if (std::filesystem::exists(dir / "imagenet_class_index.json")) return (dir / "imagenet_class_index.json").string();
  throw IOError("decode_predictions needs Keras's imagenet_class_index.json (index → [WordNet id, class name]), "
                "which kerascpp does not download: pass its path as class_index_path, or put it in "
                "$KERAS_HOME/models/ or ~/.keras/models/ (where Keras's own download keeps it)");
}

std::vector<std::pair<std::string, std::string>> read_class_index(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw IOError("decode_predictions: cannot open the class index file " + path);
  json index;
  try {
    index = json::parse(in);
  } catch (const std::exception& e) {
    throw IOError("decode_predictions: " + path + " is not JSON (" + e.what() + ")");
  }
  std::vector<std::pair<std::string, std::string>> classes(1000);
  for (int i = 0; i < 1000; ++i) {
    const std::string key = std::to_string(i);
    if (!index.is_object() || !index.contains(key) || !index[key].is_array() || index[key].size() != 2 ||
        !index[key][0].is_string() || !index[key][1].is_string())
      throw IOError("decode_predictions: " + path + " is not Keras's imagenet_class_index.json: entry \"" + key +
                    "\" should be [\"<WordNet id>\", \"<class name>\"]");
    classes[i] = {index[key][0].get<std::string>(), index[key][1].get<std::string>()};
  }
  return classes;
}

}  // namespace

std::vector<std::vector<Prediction>> decode_predictions(const Tensor& preds, int top,
                                                        const std::string& class_index_path) {
  if (!preds.defined() || preds.ndim() != 2 || preds.dim(1) != 1000)
    throw ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape (samples, 1000)). "
                     "Received array with shape: " + (preds.defined() ? shape_str(preds.shape()) : std::string("none")));
  if (top < 1 || top > 1000) throw ValueError("decode_predictions: top must be in [1, 1000], got " + std::to_string(top));
  const auto classes = read_class_index(class_index_path.empty() ? default_class_index_path() : class_index_path);
  const Tensor p = preds.astype(DType::float32);
  const float* v = p.data<float>();
  std::vector<std::vector<Prediction>> results;
  for (std::int64_t r = 0; r < p.dim(0); ++r) {
    const float* row = v + r * 1000;
    std::vector<int> order(1000);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row[a] > row[b]; });
    std::vector<Prediction> best;
    for (int k = 0; k < top; ++k) best.push_back({classes[order[k]].first, classes[order[k]].second, row[order[k]]});
    results.push_back(std::move(best));
  }
  return results;
}

Shape obtain_input_shape(const std::optional<Shape>& input_shape, std::int64_t default_size, std::int64_t min_size,
                         bool require_flatten, const std::string& model) {
  Shape shape;
  if (input_shape && !input_shape->empty()) {
    shape = *input_shape;
    if (shape.size() != 3)
      throw ValueError(model + ": `input_shape` must be a tuple of three integers (rows, cols, channels). Received: " +
                       shape_str(shape));
    if ((shape[0] >= 0 && shape[0] < min_size) || (shape[1] >= 0 && shape[1] < min_size))
      throw ValueError(fmt::format("{}: Input size must be at least {}x{}; Received: input_shape={}", model, min_size,
                                   min_size, shape_str(shape)));
    if (shape[2] <= 0) throw ValueError(model + ": the input needs a known number of channels; Received: " + shape_str(shape));
  } else if (require_flatten) {
    shape = {default_size, default_size, 3};
  } else {
    shape = {-1, -1, 3};
  }
  if (require_flatten && (shape[0] < 0 || shape[1] < 0))
    throw ValueError(model + ": If `include_top` is True, you should specify a static `input_shape`. Received: "
                     "input_shape=" + shape_str(shape));
  return shape;
}

layers::SpatialPairs correct_pad(const KerasTensor& inputs, std::int64_t kernel_size) {
  const Shape& s = inputs.shape();
  const std::int64_t adjust_r = s[1] < 0 ? 1 : 1 - s[1] % 2, adjust_c = s[2] < 0 ? 1 : 1 - s[2] % 2;
  const std::int64_t correct = kernel_size / 2;
  return {{correct - adjust_r, correct}, {correct - adjust_c, correct}};
}

}  // namespace imagenet_utils

namespace detail {

void check_common(const ApplicationOptions& o, const std::string& model) {
  if (o.weights && (*o.weights == "imagenet"))
    throw ValueError(model + ": kerascpp does not download weights. Download Keras's published weights file "
                     "yourself and pass its path as `weights`, or leave `weights` unset for random initialization");
  if (o.weights && !std::filesystem::exists(*o.weights))
    throw ValueError("The `weights` argument should be either unset (random initialization) or the path to the "
                     "weights file to be loaded. Received: weights=" + *o.weights + " (no such file)");
  if (o.classes < 1) throw ValueError(model + ": `classes` must be positive, got " + std::to_string(o.classes));
  if (!o.include_top && !o.pooling.empty() && o.pooling != "avg" && o.pooling != "max")
    throw ValueError(model + ": `pooling` must be \"\" (None), \"avg\" or \"max\". Received: pooling=" + o.pooling);
}

KerasTensor image_input(const ApplicationOptions& o, const Shape& shape) {
  if (!o.input_tensor) return Input(shape);
  return *o.input_tensor;
}

void validate_activation(const ApplicationOptions& o) {
  if (!o.weights) return;
  const std::string& a = o.classifier_activation;
  if (a != "softmax" && a != "linear" && !a.empty())
    throw ValueError("Only `None` and `softmax` activations are allowed for the `classifier_activation` argument "
                     "when using pretrained weights, with `include_top=True`; Received: classifier_activation=" + a);
}

std::string classifier_activation(const ApplicationOptions& o) {
  return o.classifier_activation.empty() ? "linear" : o.classifier_activation;
}

KerasTensor predictions(const KerasTensor& x, const ApplicationOptions& o, initializers::InitializerRef kernel_initializer) {
  validate_activation(o);
  return layers::Dense(o.classes, {.activation = classifier_activation(o), .kernel_initializer = std::move(kernel_initializer),
                                   .name = "predictions"})(x);
}

KerasTensor pooled(const KerasTensor& x, const std::string& pooling, bool named) {
  if (pooling == "avg") return layers::GlobalAveragePooling2D({.name = named ? "avg_pool" : ""})(x);
  if (pooling == "max") return layers::GlobalMaxPooling2D({.name = named ? "max_pool" : ""})(x);
  return x;
}

KerasTensor average_pool_top(const KerasTensor& x, const ApplicationOptions& o, bool named_pooling) {
  if (!o.include_top) return pooled(x, o.pooling, named_pooling);
  return predictions(layers::GlobalAveragePooling2D({.name = "avg_pool"})(x), o);
}

namespace {

// Keras's get_source_inputs: the model inputs a symbolic tensor was computed from, in the order they are met.
void source_inputs(const KerasTensor& t, std::vector<KerasTensor>& out, std::set<const Node*>& seen) {
  const Node* node = t.node().get();
  if (!node || !seen.insert(node).second) return;
  if (node->inputs.empty()) {
    out.push_back(t);
    return;
  }
  for (const auto& in : node->inputs) source_inputs(in, out, seen);
}

}  // namespace

std::shared_ptr<Model> finish(const ApplicationOptions& o, const KerasTensor& img_input, const KerasTensor& x,
                              const std::string& default_name) {
  std::vector<KerasTensor> inputs;
  if (o.input_tensor) {
    std::set<const Node*> seen;
    source_inputs(*o.input_tensor, inputs, seen);
  } else {
    inputs.push_back(img_input);
  }
  auto model = std::make_shared<Model>(inputs, x, o.name.empty() ? default_name : o.name);
  if (o.weights) load_application_weights(*model, *o.weights);
  return model;
}

void load_application_weights(Model& model, const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".h5" || ext == ".hdf5") {
    hdf5::File file = hdf5::File::open(path);
    hdf5::Group root = file.root();
    if (!saving::is_object_path_layout(root)) {
      const hdf5::Group group = root.has("model_weights") ? root.open_group("model_weights") : std::move(root);
      std::set<std::string> in_file;
      for (const auto& name : group.string_list_attr("layer_names"))
        if (!group.open_group(name).string_list_attr("weight_names").empty()) in_file.insert(name);
      std::vector<std::string> missing;
      std::size_t with_weights = 0;
      for (const auto& layer : model.layers()) {
        if (layer->weights().empty()) continue;
        ++with_weights;
        if (!in_file.count(layer->name())) missing.push_back(layer->name());
      }
      if (in_file.size() != with_weights)
        throw ValueError(fmt::format(
            "Model '{}': the weights file {} holds {} layers with weights, the model has {}{}. A file without the "
            "classifier (\"..._notop.h5\") needs include_top=false, a file with it include_top=true and "
            "classes=1000, and the other arguments (alpha, ...) must be the file's",
            model.name(), path, in_file.size(), with_weights,
            missing.empty() ? std::string() : " (layer '" + missing.front() + "' is not in the file)"));
      if (missing.empty()) return model.load_weights(path, {.by_name = true});
      return model.load_weights(path);  // by position, as Keras loads it
    }
  }
  model.load_weights(path);
}

}  // namespace detail
}  // namespace keras::applications
