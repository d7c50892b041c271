#include "keras/export/onnx/spatial_padding.hpp"

#include "keras/errors.hpp"

namespace keras::onnx {

std::vector<Attribute> padding_attributes(const std::string& padding, const Window& w) {
  const std::size_t n = w.kernel.size();
  std::vector<std::int64_t> pads(2 * n, 0);
  if (padding == "valid") return {{"pads", pads}};
  if (padding == "causal") {
    for (std::size_t i = 0; i < n; ++i) pads[i] = w.kernel[i] - 1;
    return {{"pads", pads}};
  }
  if (padding != "same") throw ValueError("ONNX export: unknown padding '" + padding + "'");
  for (std::size_t i = 0; i < n; ++i) {
    if (w.in[i] < 0) return {{"auto_pad", std::string("SAME_UPPER")}};  // the same rule, applied by the runtime
    const std::int64_t out = (w.in[i] + w.strides[i] - 1) / w.strides[i];
    const std::int64_t total = std::max<std::int64_t>((out - 1) * w.strides[i] + w.kernel[i] - w.in[i], 0);
    pads[i] = total / 2;
    pads[n + i] = total - total / 2;
  }
  return {{"pads", pads}};
}

}  // namespace keras::onnx
