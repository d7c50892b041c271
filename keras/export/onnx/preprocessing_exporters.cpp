// ONNX exporters of the preprocessing layers that ONNX can express in inference: Rescaling, Normalization
// (and its inverse), Resizing, CenterCrop, CategoryEncoding, Discretization, and the random augmentation
// layers (identities outside training; RandomCrop resizes as Keras's inference path does).
//
// Resizing: "bilinear" and "nearest" are ONNX's Resize with tf.image.resize's half-pixel rules
// (coordinate_transformation_mode "half_pixel", and "tf_half_pixel_for_nn" with nearest_mode "floor").
// "bicubic" and "area" are two MatMuls with per-axis interpolation matrices computed on the host from
// kerascpp's own resize: ONNX has no area mode, and TensorFlow's bicubic reads Keys's kernel from a table
// of 1024 steps, which ONNX's exact cubic misses by up to 1e-3. They need the image size in the model's
// input shape, as crop_to_aspect_ratio and CenterCrop do.
#include <algorithm>
#include <cmath>
#include <limits>

#include "keras/export/onnx/export_helpers.hpp"
#include "keras/json.hpp"
#include "keras/layer.hpp"
#include "layers/preprocessing/image/image_batch.hpp"

namespace keras::onnx {
namespace {

constexpr std::int64_t kFloat = 1, kInt64 = 7;

std::string to_float(GraphBuilder& g, const std::string& x) { return g.op1("Cast", {x}, {{"to", kFloat}}); }

std::vector<std::string> rescaling(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const auto scale = static_cast<float>(c.at("scale").get<double>());
  const auto offset = static_cast<float>(c.value("offset", 0.0));
  std::string x = g.op1("Mul", {to_float(g, call.inputs[0]), g.scalar("scale", scale)});
  if (offset != 0.f) x = g.op1("Add", {x, g.scalar("offset", offset)});
  return one(x);
}

// Normalization: (x - mean) / max(sqrt(variance), 1e-7) per kept index, or mean + x * that with invert.
std::vector<std::string> normalization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const Shape& in = call.shape();
  const auto rank = static_cast<std::int64_t>(in.size());
  std::vector<std::int64_t> keep;
  if (c.contains("axis") && !c["axis"].is_null()) {
    if (c["axis"].is_number()) keep.push_back(c["axis"].get<std::int64_t>());
    else
      for (const auto& a : c["axis"]) keep.push_back(a.get<std::int64_t>());
  }
  for (auto& a : keep) a = a < 0 ? a + rank : a;
  std::sort(keep.begin(), keep.end());
  Shape broadcast(in.size(), 1);
  std::int64_t kept = 1;
  for (auto a : keep) {
    if (in[static_cast<std::size_t>(a)] < 0) not_exportable(layer, "its kept axis " + std::to_string(a) + " has no size");
    broadcast[static_cast<std::size_t>(a)] = in[static_cast<std::size_t>(a)];
    kept *= in[static_cast<std::size_t>(a)];
  }
  auto statistic = [&](const char* key) {
    std::vector<float> v;
    if (c.contains(key) && !c[key].is_null()) {
      if (c[key].is_number()) v.push_back(static_cast<float>(c[key].get<double>()));
      else
        for (const auto& x : c[key]) v.push_back(static_cast<float>(x.get<double>()));
    } else {
      v = weight(layer, key).to_vector<float>();
    }
    if (v.size() == 1) v.assign(static_cast<std::size_t>(kept), v[0]);
    if (static_cast<std::int64_t>(v.size()) != kept)
      not_exportable(layer, std::string("its ") + key + " has " + std::to_string(v.size()) + " values for " +
                                std::to_string(kept) + " kept indices");
    return v;
  };
  const std::vector<float> mean = statistic("mean");
  std::vector<float> scale = statistic("variance");
  for (float& s : scale) s = std::max(static_cast<float>(std::sqrt(static_cast<double>(s))), 1e-7f);
  const std::string x = to_float(g, call.inputs[0]), m = g.floats("mean", mean, broadcast),
                    s = g.floats("scale", scale, broadcast);
  if (c.value("invert", false)) return one(g.op1("Add", {m, g.op1("Mul", {x, s})}));
  return one(g.op1("Div", {g.op1("Sub", {x, m}), s}));
}

// The static height and width of an image input [N, H, W, C].
std::pair<std::int64_t, std::int64_t> image_size(const Layer& layer, const LayerCall& call, const std::string& why) {
  const Shape& s = call.shape();
  if (s.size() != 4) not_exportable(layer, "its input is not a batch of images [batch, height, width, channels]");
  if (s[1] < 0 || s[2] < 0) not_exportable(layer, "the height and width of its input are unknown, and " + why);
  return {s[1], s[2]};
}

// x[:, top:top+h, left:left+w, :].
std::string crop(GraphBuilder& g, const std::string& x, std::int64_t top, std::int64_t left, std::int64_t h,
                 std::int64_t w) {
  return g.op1("Slice", {x, g.int64s("starts", {top, left}), g.int64s("ends", {top + h, left + w}),
                         g.int64s("axes", {1, 2})});
}

// The [out, in] matrix that kerascpp's resize applies along one axis of `in` pixels (each of its columns is the
// resize of a one-hot column image).
Tensor interpolation_matrix(std::int64_t in, std::int64_t out, const std::string& interpolation, const Layer& layer) {
  Tensor eye = Tensor::zeros({in, in, 1, 1});
  for (std::int64_t i = 0; i < in; ++i) eye.data<float>()[i * in + i] = 1.f;
  const Tensor r = layers::preprocessing::resize_images(eye, out, 1, interpolation, layer.name());  // [in, out, 1, 1]
  return transposed(r.reshape({in, out}), {1, 0});
}

// [N, H, W, C] resized to (height, width) as kerascpp's resize_images does it.
std::string resize(GraphBuilder& g, const Layer& layer, const std::string& x, std::int64_t h, std::int64_t w,
                   std::int64_t height, std::int64_t width, const std::string& interpolation) {
  if (interpolation == "bilinear" || interpolation == "nearest") {
    const std::string cf = to_channels_first(g, x, 4);
    const std::string sizes = g.op1("Concat", {g.op1("Slice", {g.op1("Shape", {cf}), g.int64s("starts", {0}),
                                                              g.int64s("ends", {2}), g.int64s("axes", {0})}),
                                               g.int64s("size", {height, width})},
                                    {{"axis", std::int64_t{0}}});
    std::vector<Attribute> attributes;
    if (interpolation == "bilinear")
      attributes = {{"mode", std::string("linear")}, {"coordinate_transformation_mode", std::string("half_pixel")}};
    else
      attributes = {{"mode", std::string("nearest")},
                    {"coordinate_transformation_mode", std::string("tf_half_pixel_for_nn")},
                    {"nearest_mode", std::string("floor")}};
    return to_channels_last(g, g.op1("Resize", {cf, "", "", sizes}, attributes), 4);
  }
  if (h < 0 || w < 0)
    not_exportable(layer, "the height and width of its input are unknown, and its " + interpolation +
                              " interpolation is exported as matrices of a known size");
  // [N, H, W, C] → [N, C, H, W]; rows: Wy [height, H] @ x; columns: x @ Wx^T [W, width].
  const std::string cf = to_channels_first(g, x, 4);
  const std::string wy = g.initializer("rows", interpolation_matrix(h, height, interpolation, layer));
  const std::string wxt =
      g.initializer("columns", transposed(interpolation_matrix(w, width, interpolation, layer), {1, 0}));
  return to_channels_last(g, g.op1("MatMul", {g.op1("MatMul", {wy, cf}), wxt}), 4);
}

// The largest centred window of aspect ratio height:width, then resized to it (tf.keras's smart_resize).
std::string smart_resize(GraphBuilder& g, const Layer& layer, const LayerCall& call, std::int64_t height,
                         std::int64_t width, const std::string& interpolation) {
  const auto [h, w] = image_size(layer, call, "the crop to the target aspect ratio is computed from them");
  const auto crop_h = std::min(h, static_cast<std::int64_t>(double(w * height) / double(width)));
  const auto crop_w = std::min(w, static_cast<std::int64_t>(double(h * width) / double(height)));
  const auto top = static_cast<std::int64_t>(double(h - crop_h) / 2), left = static_cast<std::int64_t>(double(w - crop_w) / 2);
  const std::string x = crop(g, to_float(g, call.inputs[0]), top, left, crop_h, crop_w);
  return resize(g, layer, x, crop_h, crop_w, height, width, interpolation);
}

std::vector<std::string> resizing(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const auto height = c.at("height").get<std::int64_t>(), width = c.at("width").get<std::int64_t>();
  const std::string interpolation = c.value("interpolation", std::string("bilinear"));
  if (call.shape().size() != 4) not_exportable(layer, "its input is not a batch of images [batch, height, width, channels]");
  if (c.value("crop_to_aspect_ratio", false)) return one(smart_resize(g, layer, call, height, width, interpolation));
  return one(resize(g, layer, to_float(g, call.inputs[0]), call.shape()[1], call.shape()[2], height, width, interpolation));
}

// The centred window, or smart_resize (bilinear) when the image is smaller on either side.
std::vector<std::string> center_crop(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  const auto height = c.at("height").get<std::int64_t>(), width = c.at("width").get<std::int64_t>();
  const auto [h, w] = image_size(layer, call, "the window is computed from them");
  if (h < height || w < width) return one(smart_resize(g, layer, call, height, width, "bilinear"));
  return one(crop(g, to_float(g, call.inputs[0]), (h - height) / 2, (w - width) / 2, height, width));
}

// RandomCrop outside training: smart_resize to its size (bilinear), as Keras's inference path.
std::vector<std::string> random_crop(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  return one(smart_resize(g, layer, call, c.at("height").get<std::int64_t>(), c.at("width").get<std::int64_t>(), "bilinear"));
}

// The augmentation layers return their input (as float32) outside training.
std::vector<std::string> augmentation(GraphBuilder& g, const Layer&, const LayerCall& call) {
  return one(to_float(g, call.inputs[0]));
}

// Integer ids [N] or [N, n] encoded over `depth` bins: one_hot / multi_hot (the largest of the one-hot rows)
// or count (their sum), [N, depth] float32. kerascpp refuses ids outside [0, depth); ONNX's OneHot gives such
// an id a zero row (a negative one counts from the end).
std::string encode(GraphBuilder& g, const Layer& layer, const std::string& ids, const std::string& mode,
                   std::int64_t depth) {
  if (mode != "one_hot" && mode != "multi_hot" && mode != "count")
    not_exportable(layer, "its output_mode '" + mode + "' is not int, one_hot, multi_hot or count");
  const std::string rows = g.op1("Reshape", {g.op1("Cast", {ids}, {{"to", kInt64}}), g.int64s("rows", {0, -1})});
  const std::string hot =
      g.op1("OneHot", {rows, g.int64s("depth", {depth}), g.floats("values", {0.f, 1.f}, {2})}, {{"axis", std::int64_t{-1}}});
  return reduce(g, mode == "count" ? "Sum" : "Max", hot, {1}, false);
}

std::vector<std::string> category_encoding(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  if (c.value("sparse", false)) not_exportable(layer, "its output is sparse, and the export writes dense tensors");
  return one(encode(g, layer, call.inputs[0], c.value("output_mode", std::string("multi_hot")),
                    c.at("num_tokens").get<std::int64_t>()));
}

// Discretization: the bin of x is the number of boundaries b <= x. A float32 x is >= a boundary b exactly
// when it is >= the smallest float32 not below b, so the comparison runs in float32 without changing a bin.
std::vector<std::string> discretization(GraphBuilder& g, const Layer& layer, const LayerCall& call) {
  const json c = layer.get_config();
  if (!c.contains("bin_boundaries") || c["bin_boundaries"].is_null())
    not_exportable(layer, "it has no bin_boundaries");
  if (c.value("sparse", false)) not_exportable(layer, "its output is sparse, and the export writes dense tensors");
  std::vector<float> bounds;
  for (const auto& b : c["bin_boundaries"]) {
    const double v = b.get<double>();
    auto f = static_cast<float>(v);
    if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    bounds.push_back(f);
  }
  const auto n = static_cast<std::int64_t>(bounds.size());
  const std::string x = g.op1("Unsqueeze", {to_float(g, call.inputs[0]), g.int64s("last", {-1})});
  const std::string above = g.op1("Cast", {g.op1("GreaterOrEqual", {x, g.floats("bin_boundaries", bounds, {n})})},
                                  {{"to", kInt64}});
  const std::string ids = reduce(g, "Sum", above, {-1}, false);
  const std::string mode = c.value("output_mode", std::string("int"));
  if (mode == "int") {
    g.set_dtype(ids, DType::int64);
    return one(ids);
  }
  return one(encode(g, layer, ids, mode, n + 1));
}

const bool registered = register_exporters({
    {"Rescaling", rescaling},
    {"Normalization", normalization},
    {"Resizing", resizing},
    {"CenterCrop", center_crop},
    {"CategoryEncoding", category_encoding},
    {"Discretization", discretization},
    {"RandomCrop", random_crop},
    {"RandomFlip", augmentation},
    {"RandomRotation", augmentation},
    {"RandomTranslation", augmentation},
    {"RandomZoom", augmentation},
    {"RandomContrast", augmentation},
    {"RandomBrightness", augmentation},
});

}  // namespace
}  // namespace keras::onnx
