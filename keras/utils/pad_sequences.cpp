#include "keras/utils/pad_sequences.hpp"

#include <fmt/format.h>

#include "keras/errors.hpp"

namespace keras::utils {

Tensor pad_sequences(const std::vector<Tensor>& sequences, const PadSequencesOptions& o) {
  if (o.padding != "pre" && o.padding != "post")
    throw ValueError(fmt::format("pad_sequences: padding must be \"pre\" or \"post\", got \"{}\"", o.padding));
  if (o.truncating != "pre" && o.truncating != "post")
    throw ValueError(fmt::format("pad_sequences: truncating must be \"pre\" or \"post\", got \"{}\"", o.truncating));
  if (o.maxlen && *o.maxlen < 0) throw ValueError(fmt::format("pad_sequences: maxlen must be >= 0, got {}", *o.maxlen));
  // NumPy's names for strings (Keras asks for dtype=object or str with variable-length strings).
  const bool strings = o.dtype == "object" || o.dtype == "str" || o.dtype == "string" || o.dtype.rfind("<U", 0) == 0;
  const DType dtype = strings ? DType::string : dtype_from_name(o.dtype);

  // The sample shape comes from the first non-empty sequence, as in Keras.
  Shape sample;
  std::int64_t longest = 0;
  bool found = false;
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const Tensor& s = sequences[i];
    if (!s.defined() || s.ndim() == 0)
      throw ValueError(fmt::format("pad_sequences: sequence {} is not a sequence (a tensor with a time axis)", i));
    longest = std::max(longest, s.dim(0));
    if (!found && s.dim(0) > 0) {
      sample.assign(s.shape().begin() + 1, s.shape().end());
      found = true;
    }
  }
  const std::int64_t maxlen = o.maxlen.value_or(longest);
  const auto n = static_cast<std::int64_t>(sequences.size());
  Shape out_shape{n, maxlen};
  out_shape.insert(out_shape.end(), sample.begin(), sample.end());
  Tensor out = strings ? Tensor::empty(out_shape, dtype) : Tensor::full(out_shape, o.value, dtype);
  if (strings)
    for (std::int64_t i = 0; i < out.size(); ++i) out.data<std::string>()[i] = o.string_value;
  Shape row_shape{maxlen};
  row_shape.insert(row_shape.end(), sample.begin(), sample.end());

  for (std::int64_t i = 0; i < n; ++i) {
    const Tensor& s = sequences[static_cast<std::size_t>(i)];
    const std::int64_t len = s.dim(0);
    if (len == 0) continue;
    if ((s.dtype() == DType::string) != strings)
      throw ValueError(fmt::format("pad_sequences: sequence {} holds {} but dtype is \"{}\"; {}", i,
                                   dtype_name(s.dtype()), o.dtype,
                                   strings ? "give numeric sequences, or a numeric dtype"
                                           : "for string sequences set dtype=\"object\" (or \"str\")"));
    if (Shape(s.shape().begin() + 1, s.shape().end()) != sample)
      throw ValueError(fmt::format("pad_sequences: sequence {} has samples of shape {} but the first non-empty sequence "
                                   "has {}; every time step must have the same shape",
                                   i, shape_str(Shape(s.shape().begin() + 1, s.shape().end())), shape_str(sample)));
    const std::int64_t kept = std::min(len, maxlen);
    const std::int64_t from = o.truncating == "pre" ? len - kept : 0;  // first time step kept
    const std::int64_t at = o.padding == "pre" ? maxlen - kept : 0;     // where it goes
    // Views of out share its storage: assign writes the kept steps in place, converted to dtype.
    out.slice(i, i + 1).reshape(row_shape).slice(at, at + kept).assign(s.slice(from, from + kept));
  }
  return out;
}

}  // namespace keras::utils
