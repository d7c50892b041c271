#include "keras/import/onnx/onnx_reading.hpp"

#include <cstring>
#include <fstream>

#include "keras/errors.hpp"
#include "keras_onnx_proto/onnx.pb.h"

namespace keras::onnx {
namespace {

Tensor tensor_of(const ::onnx::TensorProto& t) {
  Shape shape(t.dims().begin(), t.dims().end());
  const std::int64_t n = shape_size(shape);
  const std::string& raw = t.raw_data();
  switch (t.data_type()) {
    case ::onnx::TensorProto::FLOAT: {
      Tensor out = Tensor::empty(shape, DType::float32);
      if (!raw.empty()) {
        if (raw.size() != static_cast<std::size_t>(n) * 4) throw ValueError("ONNX tensor '" + t.name() + "': raw_data size does not match its shape");
        std::memcpy(out.raw_data(), raw.data(), raw.size());
      } else {
        if (t.float_data_size() != n) throw ValueError("ONNX tensor '" + t.name() + "': float_data size does not match its shape");
        std::copy(t.float_data().begin(), t.float_data().end(), out.data<float>());
      }
      return out;
    }
    case ::onnx::TensorProto::INT64: {
      std::vector<std::int64_t> v(static_cast<std::size_t>(n));
      if (!raw.empty()) {
        if (raw.size() != v.size() * 8) throw ValueError("ONNX tensor '" + t.name() + "': raw_data size does not match its shape");
        std::memcpy(v.data(), raw.data(), raw.size());
      } else {
        if (t.int64_data_size() != n) throw ValueError("ONNX tensor '" + t.name() + "': int64_data size does not match its shape");
        v.assign(t.int64_data().begin(), t.int64_data().end());
      }
      return Tensor::from_vector(v, shape);
    }
    default:
      throw ValueError("ONNX tensor '" + t.name() + "' has element type " + std::to_string(t.data_type()) +
                       "; load_onnx reads float32 and int64 constants");
  }
}

json attribute_value(const ::onnx::AttributeProto& a) {
  using A = ::onnx::AttributeProto;
  switch (a.type()) {
    case A::INT: return a.i();
    case A::FLOAT: return a.f();
    case A::STRING: return a.s();
    case A::INTS: return std::vector<std::int64_t>(a.ints().begin(), a.ints().end());
    case A::FLOATS: return std::vector<float>(a.floats().begin(), a.floats().end());
    case A::STRINGS: return std::vector<std::string>(a.strings().begin(), a.strings().end());
    default: return nullptr;  // graphs and tensors: no pattern of load_onnx reads them
  }
}

DType dtype_of(int element_type, const std::string& name) {
  switch (element_type) {
    case ::onnx::TensorProto::FLOAT: return DType::float32;
    case ::onnx::TensorProto::INT32: return DType::int32;
    case ::onnx::TensorProto::INT64: return DType::int64;
    case ::onnx::TensorProto::UINT8: return DType::uint8;
    default: throw ValueError("ONNX input '" + name + "' has element type " + std::to_string(element_type) + ", not one kerascpp has");
  }
}

}  // namespace

std::int64_t OnnxNode::integer(const std::string& name, std::int64_t fallback) const {
  return attributes.contains(name) ? attributes[name].get<std::int64_t>() : fallback;
}

std::vector<std::int64_t> OnnxNode::integers(const std::string& name, std::vector<std::int64_t> fallback) const {
  return attributes.contains(name) ? attributes[name].get<std::vector<std::int64_t>>() : fallback;
}

OnnxGraph read_onnx(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError("Cannot open " + path);
  ::onnx::ModelProto model;
  if (!model.ParseFromIstream(&in)) throw ValueError(path + " is not an ONNX model (its protobuf does not parse)");
  const auto& g = model.graph();
  OnnxGraph out;
  out.name = g.name();
  for (const auto& t : g.initializer()) out.constants[t.name()] = tensor_of(t);
  for (const auto& v : g.input()) {
    if (out.constants.count(v.name())) continue;
    OnnxValueInfo info{v.name(), {}, dtype_of(v.type().tensor_type().elem_type(), v.name())};
    for (const auto& d : v.type().tensor_type().shape().dim()) info.shape.push_back(d.has_dim_value() ? d.dim_value() : -1);
    out.inputs.push_back(info);
  }
  for (const auto& v : g.output()) out.outputs.push_back(v.name());
  for (const auto& n : g.node()) {
    if (!n.domain().empty() && n.domain() != "ai.onnx")
      throw ValueError("ONNX node '" + n.name() + "' is of domain " + n.domain() + "; load_onnx reads the default domain");
    if (n.op_type() == "Constant" && n.output_size() == 1 && n.attribute_size() == 1 && n.attribute(0).has_t()) {
      out.constants[n.output(0)] = tensor_of(n.attribute(0).t());
      continue;
    }
    OnnxNode node{n.op_type(), {n.input().begin(), n.input().end()}, {n.output().begin(), n.output().end()}};
    for (const auto& a : n.attribute()) node.attributes[a.name()] = attribute_value(a);
    out.nodes.push_back(std::move(node));
  }
  return out;
}

}  // namespace keras::onnx
