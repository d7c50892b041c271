#include "layers/core/einsum_dense.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/einsum.hpp"
#include "keras/ops/math.hpp"

namespace keras::layers {

// output_shape and bias_axes are written by hand (None entries, a null bias_axes).
KERAS_FIELDS(EinsumDenseOptions, activation, kernel_initializer, bias_initializer, kernel_regularizer,
             bias_regularizer, activity_regularizer, kernel_constraint, bias_constraint)

namespace {
bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }
}  // namespace

EinsumDense::EinsumDense(std::string equation, Shape output_shape, EinsumDenseOptions options)
    : Layer(options, "einsum_dense"),
      equation_(std::move(equation)),
      partial_output_shape_(std::move(output_shape)),
      options_(std::move(options)),
      activation_(activations::resolve(options_.activation)) {
  set_activity_regularizer(options_.activity_regularizer);
  for (auto d : partial_output_shape_)
    if (d == 0 || d < -1)
      throw ValueError(fmt::format("EinsumDense: `output_shape` sizes must be positive or None, received {}",
                                   shape_str(partial_output_shape_)));
}

EinsumDense::Analysis EinsumDense::analyze(const Shape& input_shape) const {
  const std::string bad = fmt::format("Invalid einsum equation '{}'. Equations must be in the form [X],[Y]->[Z], "
                                      "...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....", equation_);
  std::string eq = equation_;
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const auto comma = eq.find(','), arrow = eq.find("->");
  if (comma == std::string::npos || arrow == std::string::npos || arrow < comma) throw ValueError(bad);
  std::string in = eq.substr(0, comma), w = eq.substr(comma + 1, arrow - comma - 1), out = eq.substr(arrow + 2);
  auto letters = [](const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  };
  const bool left = in.rfind("...", 0) == 0 && out.rfind("...", 0) == 0;
  const auto ends = [](const std::string& s) { return s.size() >= 3 && s.compare(s.size() - 3, 3, "...") == 0; };
  const bool right = !left && ends(in) && ends(out);
  if (left) in = in.substr(3), out = out.substr(3);
  if (right) in.resize(in.size() - 3), out.resize(out.size() - 3);
  if (!letters(in) || !letters(w) || !letters(out) || (right && in.size() < 2)) throw ValueError(bad);

  const auto rank = static_cast<std::int64_t>(input_shape.size());
  const auto elided = rank - static_cast<std::int64_t>(in.size());
  if (elided < 0 || (elided > 0 && !left && !right))
    throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): the equation '{}' expects inputs of rank {}, received "
                                 "input shape {}", name(), equation_, in.size(), shape_str(input_shape)));
  // Spell the ellipsis out as letters the equation does not use.
  std::string extra;
  for (char c = 'A'; static_cast<std::int64_t>(extra.size()) < elided && c <= 'z'; ++c)
    if (std::isalpha(static_cast<unsigned char>(c)) && !has(eq, c)) extra += c;
  Analysis a;
  a.input = left ? extra + in : in + extra;
  a.weight = w;
  a.output = left ? extra + out : out + extra;

  // The full output shape: the batch axis (or the elided axes), then output_shape, then right-elided axes.
  const std::size_t want = left ? out.size() : out.size() - 1;
  if (partial_output_shape_.size() != want)
    throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): `output_shape` {} must have {} sizes for the output "
                                 "spec '{}' (the batch{} axis excluded)", name(), shape_str(partial_output_shape_),
                                 want, out, left ? " and elided" : ""));
  Shape full;
  if (left) full.assign(input_shape.begin(), input_shape.begin() + elided);
  else full.push_back(input_shape[0]);
  full.insert(full.end(), partial_output_shape_.begin(), partial_output_shape_.end());
  if (right) full.insert(full.end(), input_shape.end() - elided, input_shape.end());
  auto in_dim = [&](char c) { return input_shape[a.input.find(c)]; };
  for (std::size_t i = 0; i < a.output.size(); ++i) {
    const char c = a.output[i];
    if (has(a.input, c)) {
      if (full[i] >= 0 && in_dim(c) >= 0 && full[i] != in_dim(c))
        throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): input shape and output shape do not match at shared "
                                     "dimension '{}'. Input shape is {}, and output shape is {}", name(), c,
                                     in_dim(c), full[i]));
      if (full[i] < 0) full[i] = in_dim(c);
    } else if (!has(a.weight, c)) {
      throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): dimension '{}' was specified in the output '{}' but "
                                   "has no corresponding dim in the input spec '{}' or weight spec '{}'", name(), c,
                                   out, in, w));
    }
  }
  a.output_shape = full;
  for (char c : a.weight) {
    std::int64_t d = -1;
    if (has(a.input, c)) d = in_dim(c);
    else if (has(a.output, c)) d = full[a.output.find(c)];
    else
      throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): weight dimension '{}' did not have a match in either "
                                   "the input spec '{}' or the output spec '{}'. For this layer, the weight must be "
                                   "fully specified.", name(), c, in, out));
    if (d <= 0)
      throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): the kernel's dimension '{}' must be known; input "
                                   "shape {}, output_shape {}", name(), c, shape_str(input_shape),
                                   shape_str(partial_output_shape_)));
    a.kernel.push_back(d);
  }
  if (!options_.bias_axes.empty()) {
    std::size_t first = out.size();
    for (char c : options_.bias_axes) {
      if (!has(out, c))
        throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): bias dimension '{}' was requested, but is not part "
                                     "of the output spec '{}'", name(), c, out));
      first = std::min(first, out.find(c));
    }
    for (std::size_t i = first; i < out.size(); ++i) {
      const std::int64_t d = full[i + (left ? elided : 0)];
      if (has(options_.bias_axes, out[i]) && d <= 0)
        throw ValueError(fmt::format("Layer \"{}\" (EinsumDense): the bias dimension '{}' must have a known size",
                                     name(), out[i]));
      a.bias.push_back(has(options_.bias_axes, out[i]) ? d : 1);
    }
    if (!left) a.bias.insert(a.bias.end(), static_cast<std::size_t>(elided), std::int64_t{1});
  }
  return a;
}

void EinsumDense::build(const Shape& input_shape) {
  built_ = analyze(input_shape);
  kernel_ = add_weight("kernel", built_.kernel, options_.kernel_initializer, true, options_.kernel_regularizer,
                       options_.kernel_constraint);
  if (!built_.bias.empty())
    bias_ = add_weight("bias", built_.bias, options_.bias_initializer, true, options_.bias_regularizer,
                       options_.bias_constraint);
}

Tensor EinsumDense::call(const Tensor& inputs, bool) {
  if (inputs.ndim() != static_cast<int>(built_.input.size()))
    throw ValueError(fmt::format("Input 0 of layer \"{}\" (EinsumDense) is incompatible with the layer: expected "
                                 "ndim={}, found ndim={}. Full shape received: {}", name(), built_.input.size(),
                                 inputs.ndim(), shape_str(inputs.shape())));
  Tensor y = ops::einsum(built_.input + "," + built_.weight + "->" + built_.output, {inputs, kernel_->value()});
  if (bias_) y = ops::add(y, bias_->value());
  return activation_(y);
}

Shape EinsumDense::compute_output_shape(const Shape& input_shape) const { return analyze(input_shape).output_shape; }

json EinsumDense::get_config() const {
  json c = layer_config(*this, options_);
  c["equation"] = equation_;
  json shape = json::array();
  for (auto d : partial_output_shape_) shape.push_back(d < 0 ? json(nullptr) : json(d));
  c["output_shape"] = shape;
  c["bias_axes"] = options_.bias_axes.empty() ? json(nullptr) : json(options_.bias_axes);
  c["activation"] = activation_.name;
  return c;
}

std::shared_ptr<Layer> EinsumDense::from_config(const json& c) {
  auto o = options_from_config<EinsumDenseOptions>(c);
  if (auto it = c.find("lora_rank"); it != c.end() && !it->is_null() && it->get<std::int64_t>() != 0)
    throw ValueError("EinsumDense \"" + o.name + "\": LoRA (lora_rank=" + it->dump() + ") is not supported; save "
                     "the model from Keras without LoRA (the merged kernel) to load it here");
  if (auto it = c.find("bias_axes"); it != c.end() && !it->is_null()) o.bias_axes = it->get<std::string>();
  Shape shape;
  const json& s = c.at("output_shape");
  if (s.is_number_integer()) {
    shape.push_back(s.get<std::int64_t>());
  } else if (s.is_array()) {
    for (const auto& d : s) {
      if (!d.is_null() && !d.is_number_integer())
        throw ValueError("EinsumDense \"" + o.name + "\": `output_shape` must hold integers or null, got " + s.dump());
      shape.push_back(d.is_null() ? -1 : d.get<std::int64_t>());
    }
  } else {
    throw ValueError("EinsumDense \"" + o.name + "\": `output_shape` must be an integer or a list, got " + s.dump());
  }
  auto layer = std::make_shared<EinsumDense>(c.at("equation").get<std::string>(), shape, o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(EinsumDense)

}  // namespace keras::layers
