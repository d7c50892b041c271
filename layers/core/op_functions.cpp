#include "layers/core/op_functions.hpp"

#include <map>
#include <numeric>

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/ops/batch_matmul.hpp"
#include "keras/ops/manipulation.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"

namespace keras::layers {
namespace {

int normalize_axis(int axis, int rank, const std::string& who) {
  const int a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw ValueError(fmt::format("{}: axis {} is out of range for rank {}", who, axis, rank));
  return a;
}

std::vector<int> moved_to_end(int axis, int rank) {
  std::vector<int> perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  perm.erase(perm.begin() + axis);
  perm.push_back(axis);
  return perm;
}

Tensor softmax_over(const Tensor& x, int axis, const std::string& who) {
  const int a = normalize_axis(axis, x.ndim(), who);
  if (a == x.ndim() - 1) return ops::softmax(x, -1);
  const auto perm = moved_to_end(a, x.ndim());
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  return ops::transpose(ops::softmax(ops::transpose(x, perm), -1), inverse);
}

enum class Reduce { mean, sum, max, min };  // min gives -max(-x): the caller negates

// tf.math.reduce_* / keras.ops.mean...: axis null → every axis; keepdims (or tf v1's keep_dims).
Tensor reduce(Reduce kind, const OpArguments& a, const std::string& x_name) {
  Tensor x = a.tensor(x_name);
  std::vector<int> axes = a.integers(a.has("axis") ? "axis" : "reduction_indices");
  const bool keepdims = a.flag(a.has("keep_dims") ? "keep_dims" : "keepdims", false);
  for (int& ax : axes) ax = normalize_axis(ax, x.ndim(), a.who());
  switch (kind) {
    case Reduce::mean: return ops::mean(x, axes, keepdims);
    case Reduce::sum: return ops::sum(x, axes, keepdims);
    case Reduce::max: return ops::max(x, axes, keepdims);
    case Reduce::min: return ops::max(ops::negative(x), axes, keepdims);
  }
  return x;
}

Tensor squeeze(const Tensor& x, std::vector<int> axes, const std::string& who) {
  Shape out;
  for (int& ax : axes) {
    ax = normalize_axis(ax, x.ndim(), who);
    if (x.dim(ax) != 1)
      throw ValueError(fmt::format("{}: cannot squeeze axis {} of shape {}: its size is not 1", who, ax,
                                   shape_str(x.shape())));
  }
  for (int i = 0; i < x.ndim(); ++i) {
    const bool drop = axes.empty() ? x.dim(i) == 1 : std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!drop) out.push_back(x.dim(i));
  }
  return ops::reshape(x, out);
}

Tensor transpose(const Tensor& x, std::vector<int> perm, const std::string& who) {
  if (perm.empty())
    for (int i = x.ndim() - 1; i >= 0; --i) perm.push_back(i);
  if (static_cast<int>(perm.size()) != x.ndim())
    throw ValueError(fmt::format("{}: the permutation has {} entries for a tensor of rank {}", who, perm.size(), x.ndim()));
  for (int& p : perm) p = normalize_axis(p, x.ndim(), who);
  return ops::transpose(x, perm);
}

Tensor stack(const std::vector<Tensor>& xs, int axis) {
  std::vector<Tensor> expanded;
  for (const auto& x : xs) expanded.push_back(ops::expand_dims(x, axis));
  return ops::concatenate(expanded, axis);
}

Tensor swap_last(const Tensor& x, const std::string& who) {
  if (x.ndim() < 2) throw ValueError(who + ": a transposed matmul operand needs rank >= 2");
  std::vector<int> perm(x.ndim());
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return ops::transpose(x, perm);
}

// tf.linalg.matmul / keras.ops.matmul on [..., m, k] @ [..., k, n], or [..., m, k] @ [k, n].
Tensor matmul(Tensor a, Tensor b, bool ta, bool tb, const std::string& who) {
  if (a.ndim() < 2 || b.ndim() < 2)
    throw ValueError(fmt::format("{}: matmul needs operands of rank >= 2, got shapes {} and {}", who,
                                 shape_str(a.shape()), shape_str(b.shape())));
  if (b.ndim() == 2) {
    if (ta) a = swap_last(a, who);
    if (tb) b = swap_last(b, who);
    if (a.dim(-1) != b.dim(0))
      throw ValueError(fmt::format("{}: matmul shapes {} and {} do not match", who, shape_str(a.shape()),
                                   shape_str(b.shape())));
    return ops::matmul(a, b);
  }
  if (a.ndim() != b.ndim())
    throw ValueError(fmt::format("{}: matmul of shapes {} and {}: batched operands need the same rank", who,
                                 shape_str(a.shape()), shape_str(b.shape())));
  return ops::batch_matmul(a, b, ta, tb);
}

Tensor cast(const Tensor& x, const json& dtype, const std::string& who) {
  if (!dtype.is_string()) throw ValueError(who + ": the dtype should be a string such as \"float32\", got " + dtype.dump());
  DType d;
  try {
    d = dtype_from_name(dtype.get<std::string>());
  } catch (const std::exception&) {
    throw ValueError(who + ": unsupported dtype \"" + dtype.get<std::string>() + "\" (float32, int32, int64 ...)");
  }
  return ops::cast(x, d);
}

Shape shape_of(const OpArguments& a, const std::string& name) {
  Shape s;
  for (int d : a.integers(name)) s.push_back(d);
  return s;
}

// A constant scalar argument (an exponent, a clip bound).
float scalar(const OpArguments& a, const std::string& name, float fallback) {
  if (!a.has(name)) return fallback;
  if (is_input_placeholder(a.value(name))) throw ValueError(a.who() + ": '" + name + "' must be a constant number");
  const Tensor v = a.tensor(name);
  if (v.size() != 1) throw ValueError(a.who() + ": '" + name + "' must be a single number");
  return v.astype(DType::float32).data<float>()[0];
}

Tensor power(const OpArguments& a) {
  if (!a.has("y")) throw ValueError(a.who() + " needs the exponent 'y'");
  return ops::pow(a.tensor("x"), scalar(a, "y", 1.f));
}

// Comparisons give 1.0 / 0.0 in float32 (TensorFlow gives bools, which models cast to float before use).
Tensor not_equal(const Tensor& x, const Tensor& y) { return 1.f - ops::equal(x, y); }
Tensor less(const Tensor& x, const Tensor& y) { return ops::cast(ops::greater(y, x), DType::float32); }
Tensor greater_equal(const Tensor& x, const Tensor& y) { return 1.f - ops::greater(y, x); }
Tensor less_equal(const Tensor& x, const Tensor& y) { return 1.f - ops::greater(x, y); }

Tensor log_softmax_over(const Tensor& x, int axis, const std::string& who) {
  const int a = normalize_axis(axis, x.ndim(), who);
  if (a == x.ndim() - 1) return ops::log_softmax(x, -1);
  const auto perm = moved_to_end(a, x.ndim());
  std::vector<int> inverse(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int>(i);
  return ops::transpose(ops::log_softmax(ops::transpose(x, perm), -1), inverse);
}

// tf.math.l2_normalize: x / sqrt(max(sum(x^2, axis), epsilon)).
Tensor l2_normalize(const OpArguments& a) {
  Tensor x = a.tensor("x");
  std::vector<int> axes = a.integers("axis");
  for (int& ax : axes) ax = normalize_axis(ax, x.ndim(), a.who());
  const float eps = scalar(a, "epsilon", 1e-12f);
  Tensor sq = ops::sum(ops::square(x), axes, true);
  return ops::divide(x, ops::sqrt(ops::maximum(sq, Tensor::scalar(eps))));
}

using Table = std::map<std::string, OpFunction>;

const Table& tf_table() {
  static const Table table = [] {
    Table t;
    const OpFunction add{{"x", "y"}, [](const OpArguments& a) { return ops::add(a.tensor("x"), a.tensor("y")); }};
    const OpFunction truediv{{"x", "y"}, [](const OpArguments& a) { return ops::divide(a.tensor("x"), a.tensor("y")); }};
    t["__operators__.add"] = add;
    t["math.add"] = add;
    t["math.subtract"] = {{"x", "y"}, [](const OpArguments& a) { return ops::subtract(a.tensor("x"), a.tensor("y")); }};
    t["math.multiply"] = {{"x", "y"}, [](const OpArguments& a) { return ops::multiply(a.tensor("x"), a.tensor("y")); }};
    t["math.truediv"] = truediv;
    t["math.divide"] = truediv;
    t["math.maximum"] = {{"x", "y"}, [](const OpArguments& a) { return ops::maximum(a.tensor("x"), a.tensor("y")); }};
    t["math.minimum"] = {{"x", "y"}, [](const OpArguments& a) { return ops::minimum(a.tensor("x"), a.tensor("y")); }};
    t["math.pow"] = {{"x", "y"}, power};
    t["nn.relu"] = {{"features"}, [](const OpArguments& a) { return ops::relu(a.tensor("features")); }};
    t["nn.relu6"] = {{"features"}, [](const OpArguments& a) { return ops::clip(a.tensor("features"), 0.f, 6.f); }};
    t["nn.leaky_relu"] = {{"features", "alpha"},
                          [](const OpArguments& a) { return ops::relu(a.tensor("features"), scalar(a, "alpha", 0.2f)); }};
    const OpFunction silu{{"features", "beta"}, [](const OpArguments& a) {
                            const Tensor x = a.tensor("features");
                            return ops::multiply(x, ops::sigmoid(ops::multiply(x, Tensor::scalar(scalar(a, "beta", 1.f)))));
                          }};
    t["nn.silu"] = t["nn.swish"] = silu;
    t["math.softplus"] = t["nn.softplus"] = {{"features"},
                                             [](const OpArguments& a) { return ops::softplus(a.tensor("features")); }};
    t["nn.log_softmax"] = t["math.log_softmax"] = {{"logits", "axis"}, [](const OpArguments& a) {
                                                     return log_softmax_over(a.tensor("logits"), a.integer("axis", -1), a.who());
                                                   }};
    t["math.rsqrt"] = {{"x"}, [](const OpArguments& a) { return ops::divide(Tensor::scalar(1.f), ops::sqrt(a.tensor("x"))); }};
    t["math.reciprocal"] = {{"x"}, [](const OpArguments& a) { return ops::divide(Tensor::scalar(1.f), a.tensor("x")); }};
    t["clip_by_value"] = {{"t", "clip_value_min", "clip_value_max"}, [](const OpArguments& a) {
                            if (!a.has("clip_value_min") || !a.has("clip_value_max"))
                              throw ValueError(a.who() + " needs clip_value_min and clip_value_max");
                            return ops::clip(a.tensor("t"), scalar(a, "clip_value_min", 0.f), scalar(a, "clip_value_max", 0.f));
                          }};
    t["math.l2_normalize"] = t["nn.l2_normalize"] = {{"x", "axis", "epsilon"}, l2_normalize};
    t["math.equal"] = t["__operators__.eq"] = {{"x", "y"}, [](const OpArguments& a) { return ops::cast(ops::equal(a.tensor("x"), a.tensor("y")), DType::float32); }};
    t["math.not_equal"] = t["__operators__.ne"] = {{"x", "y"}, [](const OpArguments& a) { return not_equal(a.tensor("x"), a.tensor("y")); }};
    t["math.greater"] = {{"x", "y"}, [](const OpArguments& a) { return ops::cast(ops::greater(a.tensor("x"), a.tensor("y")), DType::float32); }};
    t["math.less"] = {{"x", "y"}, [](const OpArguments& a) { return less(a.tensor("x"), a.tensor("y")); }};
    t["math.greater_equal"] = {{"x", "y"}, [](const OpArguments& a) { return greater_equal(a.tensor("x"), a.tensor("y")); }};
    t["math.less_equal"] = {{"x", "y"}, [](const OpArguments& a) { return less_equal(a.tensor("x"), a.tensor("y")); }};
    const OpFunction sigmoid{{"x"}, [](const OpArguments& a) { return ops::sigmoid(a.tensor("x")); }};
    const OpFunction tanh{{"x"}, [](const OpArguments& a) { return ops::tanh(a.tensor("x")); }};
    const OpFunction softmax{{"logits", "axis"}, [](const OpArguments& a) {
                               return softmax_over(a.tensor("logits"), a.integer("axis", -1), a.who());
                             }};
    t["math.sigmoid"] = t["nn.sigmoid"] = sigmoid;
    t["math.tanh"] = t["nn.tanh"] = tanh;
    t["nn.softmax"] = t["math.softmax"] = softmax;
    t["math.exp"] = {{"x"}, [](const OpArguments& a) { return ops::exp(a.tensor("x")); }};
    t["math.log"] = {{"x"}, [](const OpArguments& a) { return ops::log(a.tensor("x")); }};
    t["math.sqrt"] = {{"x"}, [](const OpArguments& a) { return ops::sqrt(a.tensor("x")); }};
    t["math.square"] = {{"x"}, [](const OpArguments& a) { return ops::square(a.tensor("x")); }};
    t["math.abs"] = {{"x"}, [](const OpArguments& a) { return ops::abs(a.tensor("x")); }};
    t["math.negative"] = {{"x"}, [](const OpArguments& a) { return ops::negative(a.tensor("x")); }};
    t["identity"] = {{"input"}, [](const OpArguments& a) { return a.tensor("input"); }};
    t["convert_to_tensor"] = {{"value", "dtype", "dtype_hint"}, [](const OpArguments& a) {
                                Tensor x = a.tensor("value");
                                return a.has("dtype") ? cast(x, a.value("dtype"), a.who()) : x;
                              }};
    t["concat"] = {{"values", "axis"},
                   [](const OpArguments& a) { return ops::concatenate(a.tensors("values"), a.integer("axis", 0)); }};
    t["stack"] = {{"values", "axis"}, [](const OpArguments& a) { return stack(a.tensors("values"), a.integer("axis", 0)); }};
    t["reshape"] = {{"tensor", "shape"},
                    [](const OpArguments& a) { return ops::reshape(a.tensor("tensor"), shape_of(a, "shape")); }};
    t["expand_dims"] = {{"input", "axis"},
                        [](const OpArguments& a) { return ops::expand_dims(a.tensor("input"), a.integer("axis", 0)); }};
    t["squeeze"] = {{"input", "axis"},
                    [](const OpArguments& a) { return squeeze(a.tensor("input"), a.integers("axis"), a.who()); }};
    t["compat.v1.squeeze"] = {{"input", "axis", "name", "squeeze_dims"}, [](const OpArguments& a) {
                                return squeeze(a.tensor("input"), a.integers(a.has("axis") ? "axis" : "squeeze_dims"),
                                               a.who());
                              }};
    t["transpose"] = {{"a", "perm", "conjugate"},
                      [](const OpArguments& a) { return transpose(a.tensor("a"), a.integers("perm"), a.who()); }};
    t["compat.v1.transpose"] = {{"a", "perm", "name", "conjugate"},
                                [](const OpArguments& a) { return transpose(a.tensor("a"), a.integers("perm"), a.who()); }};
    const std::vector<std::string> reduce_params{"input_tensor", "axis", "keepdims"};
    const std::vector<std::string> reduce_v1_params{"input_tensor", "axis", "keepdims", "name", "reduction_indices",
                                                    "keep_dims"};
    const auto mean = [](const OpArguments& a) { return reduce(Reduce::mean, a, "input_tensor"); };
    const auto sum = [](const OpArguments& a) { return reduce(Reduce::sum, a, "input_tensor"); };
    const auto max = [](const OpArguments& a) { return reduce(Reduce::max, a, "input_tensor"); };
    t["math.reduce_mean"] = {reduce_params, mean};
    t["math.reduce_sum"] = {reduce_params, sum};
    t["math.reduce_max"] = {reduce_params, max};
    t["math.reduce_min"] = {reduce_params, [](const OpArguments& a) { return ops::negative(reduce(Reduce::min, a, "input_tensor")); }};
    t["compat.v1.reduce_mean"] = {reduce_v1_params, mean};
    t["compat.v1.reduce_sum"] = {reduce_v1_params, sum};
    t["compat.v1.reduce_max"] = {reduce_v1_params, max};
    t["linalg.matmul"] = {{"a", "b", "transpose_a", "transpose_b"}, [](const OpArguments& a) {
                            if (a.flag("adjoint_a", false) || a.flag("adjoint_b", false))
                              throw ValueError(a.who() + ": adjoint_a/adjoint_b are not supported (use transpose_a/b)");
                            return matmul(a.tensor("a"), a.tensor("b"), a.flag("transpose_a", false),
                                          a.flag("transpose_b", false), a.who());
                          }};
    t["cast"] = {{"x", "dtype"}, [](const OpArguments& a) { return cast(a.tensor("x"), a.value("dtype"), a.who()); }};
    t["__operators__.getitem"] = {{"tensor", "slice_spec"}, [](const OpArguments& a) {
                                    return ops::getitem(a.tensor("tensor"), slice_spec_from_json(a.value("slice_spec"), a.who()));
                                  }};
    return t;
  }();
  return table;
}

const Table& keras_table() {
  static const Table table = [] {
    Table t;
    t["Add"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::add(a.tensor("x1"), a.tensor("x2")); }};
    t["Subtract"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::subtract(a.tensor("x1"), a.tensor("x2")); }};
    t["Multiply"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::multiply(a.tensor("x1"), a.tensor("x2")); }};
    t["Divide"] = t["TrueDivide"] = {{"x1", "x2"},
                                     [](const OpArguments& a) { return ops::divide(a.tensor("x1"), a.tensor("x2")); }};
    t["Maximum"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::maximum(a.tensor("x1"), a.tensor("x2")); }};
    t["Minimum"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::minimum(a.tensor("x1"), a.tensor("x2")); }};
    t["Matmul"] = {{"x1", "x2"},
                   [](const OpArguments& a) { return matmul(a.tensor("x1"), a.tensor("x2"), false, false, a.who()); }};
    t["Negative"] = {{"x"}, [](const OpArguments& a) { return ops::negative(a.tensor("x")); }};
    t["Exp"] = {{"x"}, [](const OpArguments& a) { return ops::exp(a.tensor("x")); }};
    t["Log"] = {{"x"}, [](const OpArguments& a) { return ops::log(a.tensor("x")); }};
    t["Sqrt"] = {{"x"}, [](const OpArguments& a) { return ops::sqrt(a.tensor("x")); }};
    t["Square"] = {{"x"}, [](const OpArguments& a) { return ops::square(a.tensor("x")); }};
    t["Absolute"] = {{"x"}, [](const OpArguments& a) { return ops::abs(a.tensor("x")); }};
    t["Tanh"] = {{"x"}, [](const OpArguments& a) { return ops::tanh(a.tensor("x")); }};
    t["Sigmoid"] = {{"x"}, [](const OpArguments& a) { return ops::sigmoid(a.tensor("x")); }};
    t["Relu"] = {{"x"}, [](const OpArguments& a) { return ops::relu(a.tensor("x")); }};
    t["Relu6"] = {{"x"}, [](const OpArguments& a) { return ops::clip(a.tensor("x"), 0.f, 6.f); }};
    t["LeakyRelu"] = {{"x"}, [](const OpArguments& a) { return ops::relu(a.tensor("x"), scalar(a, "negative_slope", 0.2f)); }};
    t["Silu"] = {{"x"}, [](const OpArguments& a) {
                   const Tensor x = a.tensor("x");
                   return ops::multiply(x, ops::sigmoid(x));
                 }};
    t["Softplus"] = {{"x"}, [](const OpArguments& a) { return ops::softplus(a.tensor("x")); }};
    t["LogSoftmax"] = {{"x"}, [](const OpArguments& a) { return log_softmax_over(a.tensor("x"), a.integer("axis", -1), a.who()); }};
    t["Reciprocal"] = {{"x"}, [](const OpArguments& a) { return ops::divide(Tensor::scalar(1.f), a.tensor("x")); }};
    t["Clip"] = {{"x", "x_min", "x_max"}, [](const OpArguments& a) {
                   return ops::clip(a.tensor("x"), scalar(a, "x_min", 0.f), scalar(a, "x_max", 0.f));
                 }};
    t["Min"] = {{"x"}, [](const OpArguments& a) { return ops::negative(reduce(Reduce::min, a, "x")); }};
    t["Equal"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::cast(ops::equal(a.tensor("x1"), a.tensor("x2")), DType::float32); }};
    t["NotEqual"] = {{"x1", "x2"}, [](const OpArguments& a) { return not_equal(a.tensor("x1"), a.tensor("x2")); }};
    t["Greater"] = {{"x1", "x2"}, [](const OpArguments& a) { return ops::cast(ops::greater(a.tensor("x1"), a.tensor("x2")), DType::float32); }};
    t["Less"] = {{"x1", "x2"}, [](const OpArguments& a) { return less(a.tensor("x1"), a.tensor("x2")); }};
    t["GreaterEqual"] = {{"x1", "x2"}, [](const OpArguments& a) { return greater_equal(a.tensor("x1"), a.tensor("x2")); }};
    t["LessEqual"] = {{"x1", "x2"}, [](const OpArguments& a) { return less_equal(a.tensor("x1"), a.tensor("x2")); }};
    t["Softmax"] = {{"x"}, [](const OpArguments& a) { return softmax_over(a.tensor("x"), a.integer("axis", -1), a.who()); }};
    t["Concatenate"] = {{"xs"},
                        [](const OpArguments& a) { return ops::concatenate(a.tensors("xs"), a.integer("axis", 0)); }};
    t["Stack"] = {{"x"}, [](const OpArguments& a) { return stack(a.tensors("x"), a.integer("axis", 0)); }};
    t["Reshape"] = {{"x"}, [](const OpArguments& a) { return ops::reshape(a.tensor("x"), shape_of(a, "newshape")); }};
    t["ExpandDims"] = {{"x"}, [](const OpArguments& a) { return ops::expand_dims(a.tensor("x"), a.integer("axis", 0)); }};
    t["Squeeze"] = {{"x"}, [](const OpArguments& a) { return squeeze(a.tensor("x"), a.integers("axis"), a.who()); }};
    t["Transpose"] = {{"x"}, [](const OpArguments& a) { return transpose(a.tensor("x"), a.integers("axes"), a.who()); }};
    t["Mean"] = {{"x"}, [](const OpArguments& a) { return reduce(Reduce::mean, a, "x"); }};
    t["Sum"] = {{"x"}, [](const OpArguments& a) { return reduce(Reduce::sum, a, "x"); }};
    t["Max"] = {{"x"}, [](const OpArguments& a) { return reduce(Reduce::max, a, "x"); }};
    t["Cast"] = {{"x"}, [](const OpArguments& a) { return cast(a.tensor("x"), a.value("dtype"), a.who()); }};
    t["GetItem"] = {{"x", "key"}, [](const OpArguments& a) {
                      return ops::getitem(a.tensor("x"), slice_spec_from_json(a.value("key"), a.who()));
                    }};
    return t;
  }();
  return table;
}

std::vector<std::string> names_of(const Table& t) {
  std::vector<std::string> out;
  for (const auto& [name, _] : t) out.push_back(name);
  return out;
}

std::optional<std::int64_t> bound(const json& v, const std::string& who) {
  if (v.is_null()) return std::nullopt;
  if (!v.is_number_integer())
    throw ValueError(who + ": slice bounds must be integers or null (tensor-valued bounds are not supported), got " +
                     v.dump());
  return v.get<std::int64_t>();
}

Index index_from_json(const json& j, const std::string& who) {
  if (j.is_null()) return newaxis;
  if (j.is_number_integer()) return j.get<std::int64_t>();
  if (j.is_object()) {
    const std::string cls = j.value("class_name", "");
    if (cls == "__ellipsis__") return ellipsis;
    const json& s = cls == "__slice__" ? j.at("config") : j;
    if (s.contains("start") || s.contains("stop") || s.contains("step"))
      return Slice{bound(s.value("start", json()), who), bound(s.value("stop", json()), who),
                   bound(s.value("step", json()), who)};
  }
  throw ValueError(who + ": unsupported index " + j.dump() +
                   " (supported: integers, slices {\"start\", \"stop\", \"step\"}, Ellipsis and None/newaxis)");
}

}  // namespace

const OpFunction* find_tf_function(const std::string& function) {
  auto it = tf_table().find(function);
  return it == tf_table().end() ? nullptr : &it->second;
}
std::vector<std::string> tf_function_names() { return names_of(tf_table()); }

const OpFunction* find_keras_op(const std::string& class_name) {
  auto it = keras_table().find(class_name);
  return it == keras_table().end() ? nullptr : &it->second;
}
std::vector<std::string> keras_op_names() { return names_of(keras_table()); }

std::vector<Index> slice_spec_from_json(const json& spec, const std::string& who) {
  std::vector<Index> key;
  if (spec.is_array())
    for (const auto& e : spec) key.push_back(index_from_json(e, who));
  else
    key.push_back(index_from_json(spec, who));
  return key;
}

json slice_spec_to_json(const std::vector<Index>& key) {
  auto one = [](const Index& i) -> json {
    if (const auto* k = std::get_if<std::int64_t>(&i)) return *k;
    if (std::holds_alternative<NewAxis>(i)) return nullptr;
    if (std::holds_alternative<Ellipsis>(i)) return {{"class_name", "__ellipsis__"}};
    const Slice& s = std::get<Slice>(i);
    auto opt = [](const std::optional<std::int64_t>& v) { return v ? json(*v) : json(nullptr); };
    return {{"start", opt(s.start)}, {"stop", opt(s.stop)}, {"step", opt(s.step)}};
  };
  if (key.size() == 1) return one(key[0]);
  json out = json::array();
  for (const auto& i : key) out.push_back(one(i));
  return out;
}

}  // namespace keras::layers
