#include "layers/merging/merge.hpp"

#include <fmt/format.h>

#include "keras/ops/math.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {
namespace {

std::string shapes_str(const std::vector<Shape>& shapes) {
  std::string s = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) s += (i ? ", " : "") + shape_str(shapes[i]);
  return s + "]";
}

// Inserts axes of size 1 after the batch axis until `shape` has `rank` axes.
Shape expanded(Shape shape, std::size_t rank) {
  while (shape.size() < rank) shape.insert(shape.begin() + (shape.empty() ? 0 : 1), 1);
  return shape;
}

}  // namespace

Merge::Merge(const MergeOptions& options, const std::string& default_prefix)
    : Layer(options, default_prefix) {}

void Merge::check_inputs(const std::vector<Shape>&) const {}

void Merge::check_shapes(const std::vector<Shape>& shapes) const {
  if (shapes.size() < 2)
    throw ValueError(fmt::format("A merge layer ({} \"{}\") should be called on a list of inputs, at least 2. Got {} "
                                 "input(s). Call it as layer({{a, b}}).",
                                 class_name(), name(), shapes.size()));
  check_inputs(shapes);
  std::int64_t batch = -1;
  for (const auto& s : shapes) {
    if (s.empty())
      throw ValueError(fmt::format("{} \"{}\": inputs need a batch axis, got shapes {}", class_name(), name(),
                                   shapes_str(shapes)));
    if (s[0] >= 0 && batch >= 0 && s[0] != batch)
      throw ValueError(fmt::format("Cannot merge tensors with different batch sizes. Got tensors with shapes {}",
                                   shapes_str(shapes)));
    if (s[0] >= 0) batch = s[0];
  }
  compute_output_shape(shapes);
}

void Merge::build(const std::vector<Shape>& input_shapes) { check_shapes(input_shapes); }

std::vector<Shape> Merge::compute_output_shape(const std::vector<Shape>& shapes) const {
  std::size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  Shape out = expanded(shapes[0], rank);
  for (std::size_t k = 1; k < shapes.size(); ++k) {
    const Shape s = expanded(shapes[k], rank);
    for (std::size_t i = 0; i < rank; ++i) {
      if (out[i] == s[i] || s[i] == 1) continue;
      if (out[i] == 1 || (i == 0 && out[i] < 0)) {
        out[i] = s[i];
      } else if (out[i] < 0 || s[i] < 0) {
        out[i] = -1;
      } else {
        throw ValueError(fmt::format("Inputs have incompatible shapes. Received shapes {} and {} ({} \"{}\")",
                                     shape_str(shapes[0]), shape_str(shapes[k]), class_name(), name()));
      }
    }
  }
  return {out};
}

std::vector<Tensor> Merge::call(const std::vector<Tensor>& inputs, const CallContext&) {
  std::vector<Shape> shapes;
  for (const auto& t : inputs) shapes.push_back(t.shape());
  check_shapes(shapes);
  std::size_t rank = 0;
  for (const auto& s : shapes) rank = std::max(rank, s.size());
  std::vector<Tensor> xs;
  for (const auto& t : inputs)
    xs.push_back(static_cast<std::size_t>(t.ndim()) == rank ? t : ops::reshape(t, expanded(t.shape(), rank)));
  return {merge_function(xs)};
}

Tensor merged_masks(const std::vector<Tensor>& masks) {
  Tensor all;
  for (const auto& m : masks) {
    if (!m.defined()) continue;
    const Tensor f = m.astype(DType::float32);
    if (all.defined() && all.shape() != f.shape()) return Tensor();  // masks of different steps: none
    all = all.defined() ? ops::multiply(all, f) : f;
  }
  return all;
}

std::vector<Tensor> Merge::compute_mask(const std::vector<Tensor>&, const std::vector<Tensor>& masks) const {
  return {merged_masks(masks)};
}

}  // namespace keras::layers
