#pragma once
// keras::utils::pad_sequences: ragged sequences to one [num_samples, maxlen, ...] array, padded and cut
// at the front ("pre") or the back ("post"), as keras.utils.pad_sequences.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keras/tensor.hpp"

namespace keras::utils {

struct PadSequencesOptions {
  std::optional<std::int64_t> maxlen{};  // none: the longest sequence's length
  std::string dtype = "int32";           // the output's type, by Keras's name ("object"/"str": strings)
  std::string padding = "pre";           // "pre" or "post": where the padding goes
  std::string truncating = "pre";        // "pre" or "post": where values are removed beyond maxlen
  double value = 0;                      // the padding value (cast to dtype, as np.full does)
  std::string string_value{};            // the padding of string sequences (Keras's `value` given as a string)
};

/// Each sequence is a tensor [length, ...sample]; every non-empty one must have the same sample shape
/// (the first non-empty one's). Returns [num_samples, maxlen, ...sample] of dtype. Bad options, a
/// negative maxlen or mismatched sample shapes are a ValueError naming the sequence.
Tensor pad_sequences(const std::vector<Tensor>& sequences, const PadSequencesOptions& options = {});

/// Sequences of scalars (std::vector<std::vector<int>>, ... of any Tensor element type): [num_samples, maxlen].
template <class T>
Tensor pad_sequences(const std::vector<std::vector<T>>& sequences, const PadSequencesOptions& options = {}) {
  std::vector<Tensor> parts;
  parts.reserve(sequences.size());
  for (const auto& s : sequences) parts.push_back(Tensor::from_vector(s, {static_cast<std::int64_t>(s.size())}));
  return pad_sequences(parts, options);
}

}  // namespace keras::utils
