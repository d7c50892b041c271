#include "keras/export/onnx/graph_builder.hpp"

#include <cstring>
#include <set>
#include <string_view>
#include <unordered_map>

#include "keras/errors.hpp"
#include "keras_onnx_proto/onnx.pb.h"

namespace keras::onnx {

struct GraphBuilder::Impl {
  ::onnx::GraphProto graph;
  std::set<std::string> used;  // every value name given out
  /// Initializers by a hash of their contents: a weight that two calls of a shared layer read is stored once.
  std::unordered_multimap<std::size_t, int> initializers_by_hash;
};

GraphBuilder::GraphBuilder(int opset) : impl_(std::make_unique<Impl>()), opset_(opset) {}
GraphBuilder::~GraphBuilder() = default;

void* GraphBuilder::proto() const { return &impl_->graph; }

std::string GraphBuilder::fresh_name(const std::string& hint) {
  const std::string base = scope_.empty() ? hint : scope_ + "/" + hint;
  std::string name = base;
  for (int i = 1; impl_->used.count(name); ++i) name = base + "_" + std::to_string(i);
  impl_->used.insert(name);
  return name;
}

namespace {

void set_attribute(::onnx::AttributeProto& a, const Attribute& attribute) {
  using A = ::onnx::AttributeProto;
  a.set_name(attribute.name);
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          a.set_type(A::INT);
          a.set_i(v);
        } else if constexpr (std::is_same_v<T, float>) {
          a.set_type(A::FLOAT);
          a.set_f(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          a.set_type(A::STRING);
          a.set_s(v);
        } else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>) {
          a.set_type(A::INTS);
          for (auto x : v) a.add_ints(x);
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          a.set_type(A::FLOATS);
          for (auto x : v) a.add_floats(x);
        } else {
          a.set_type(A::STRINGS);
          for (const auto& x : v) a.add_strings(x);
        }
      },
      attribute.value);
}

int element_type(DType dtype) {
  switch (dtype) {
    case DType::float32: return ::onnx::TensorProto::FLOAT;
    case DType::int32: return ::onnx::TensorProto::INT32;
    case DType::int64: return ::onnx::TensorProto::INT64;
    case DType::uint8: return ::onnx::TensorProto::UINT8;
    case DType::bool_: return ::onnx::TensorProto::BOOL;
    case DType::float64: return ::onnx::TensorProto::DOUBLE;
    case DType::string: return ::onnx::TensorProto::STRING;
  }
  return ::onnx::TensorProto::UNDEFINED;
}

void set_value_info(::onnx::ValueInfoProto& info, const std::string& name, const Shape& shape, DType dtype) {
  info.set_name(name);
  auto* type = info.mutable_type()->mutable_tensor_type();
  type->set_elem_type(element_type(dtype));
  auto* dims = type->mutable_shape();
  for (std::size_t i = 0; i < shape.size(); ++i) {
    auto* d = dims->add_dim();
    if (shape[i] >= 0)
      d->set_dim_value(shape[i]);
    else
      d->set_dim_param(i == 0 ? "batch" : name + "_dim" + std::to_string(i));
  }
}

}  // namespace

std::vector<std::string> GraphBuilder::op(const std::string& op_type, const std::vector<std::string>& inputs,
                                          const std::vector<Attribute>& attributes, int outputs) {
  auto* node = impl_->graph.add_node();
  node->set_op_type(op_type);
  std::vector<std::string> names;
  for (int i = 0; i < outputs; ++i) names.push_back(fresh_name(op_type + (outputs > 1 ? std::to_string(i) : "")));
  node->set_name(names.front());
  for (const auto& in : inputs) node->add_input(in);
  for (const auto& out : names) node->add_output(out);
  for (const auto& a : attributes) set_attribute(*node->add_attribute(), a);
  return names;
}

std::string GraphBuilder::op1(const std::string& op_type, const std::vector<std::string>& inputs,
                              const std::vector<Attribute>& attributes) {
  return op(op_type, inputs, attributes, 1).front();
}

std::string GraphBuilder::initializer(const std::string& hint, const Tensor& value) {
  ::onnx::TensorProto t;
  for (auto d : value.shape()) t.add_dims(d);
  if (value.dtype() == DType::float32) {
    t.set_data_type(::onnx::TensorProto::FLOAT);
    const Tensor c = value.clone();  // contiguous row-major
    t.set_raw_data(std::string(static_cast<const char*>(c.raw_data()), c.nbytes()));
  } else {
    t.set_data_type(::onnx::TensorProto::INT64);
    const auto v = value.astype(DType::int64).to_vector<std::int64_t>();
    t.set_raw_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(std::int64_t)));
  }
  const std::size_t hash = std::hash<std::string_view>{}(t.raw_data()) ^ static_cast<std::size_t>(t.data_type());
  auto [first, last] = impl_->initializers_by_hash.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const auto& same = impl_->graph.initializer(it->second);
    if (same.data_type() == t.data_type() && same.raw_data() == t.raw_data() &&
        std::equal(same.dims().begin(), same.dims().end(), t.dims().begin(), t.dims().end()))
      return same.name();
  }
  t.set_name(fresh_name(hint));
  impl_->initializers_by_hash.emplace(hash, impl_->graph.initializer_size());
  *impl_->graph.add_initializer() = std::move(t);
  return impl_->graph.initializer(impl_->graph.initializer_size() - 1).name();
}

std::string GraphBuilder::int64s(const std::string& hint, const std::vector<std::int64_t>& values) {
  return initializer(hint, Tensor::from_vector(values, Shape{static_cast<std::int64_t>(values.size())}));
}

std::string GraphBuilder::floats(const std::string& hint, const std::vector<float>& values, const Shape& shape) {
  if (shape_size(shape) != static_cast<std::int64_t>(values.size()))
    throw ValueError("onnx::GraphBuilder::floats: " + std::to_string(values.size()) + " values for shape " +
                     shape_str(shape));
  return initializer(hint, Tensor::from_vector(values, shape));
}

std::string GraphBuilder::scalar(const std::string& hint, float value) { return floats(hint, {value}, Shape{}); }

void GraphBuilder::add_input(const std::string& name, const Shape& shape, DType dtype) {
  impl_->used.insert(name);
  set_value_info(*impl_->graph.add_input(), name, shape, dtype);
}

void GraphBuilder::add_output(const std::string& name, const Shape& shape, DType dtype) {
  set_value_info(*impl_->graph.add_output(), name, shape, dtype);
}

}  // namespace keras::onnx
