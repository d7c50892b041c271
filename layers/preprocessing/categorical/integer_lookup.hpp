#pragma once
// IntegerLookup: integer tokens to contiguous indices, an IndexLookup over int64 (index_lookup.hpp has the
// layout, output modes int/one_hot/multi_hot/count/tf_idf, mask, adapt and saving, with the vocabulary in
// Keras 3's assets/ when adapted). A token not in the vocabulary goes to oov_start + token floormod
// num_oov_indices (oov_method "floormod", Keras's default), or with oov_method "farmhash" to the FarmHash
// Fingerprint64 bucket of its decimal text (SipHash-2-4 with a salt), as Keras 3. invert=true maps indices
// back to tokens (oov_token, -1 by default, for the OOV indices).
#include <optional>
#include <string>
#include <vector>

#include "layers/preprocessing/categorical/index_lookup.hpp"

namespace keras::layers {

struct IntegerLookupOptions {
  std::optional<std::int64_t> max_tokens{};
  std::int64_t num_oov_indices = 1;
  std::optional<std::int64_t> mask_token{};
  std::int64_t oov_token = -1;
  std::optional<std::vector<std::int64_t>> vocabulary{};
  /// Or a text file with one integer a line (Keras's `vocabulary` given as a path).
  std::string vocabulary_file{};
  std::string vocabulary_dtype = "int64";
  std::optional<std::vector<float>> idf_weights{};
  bool invert = false;
  std::string output_mode = "int";
  bool sparse = false;
  bool pad_to_max_tokens = false;
  std::string oov_method = "floormod";
  std::optional<std::vector<std::uint64_t>> salt{};
  KERAS_LAYER_OPTIONS
};

class IntegerLookup : public IndexLookup<std::int64_t, IntegerLookupOptions> {
 public:
  explicit IntegerLookup(IntegerLookupOptions options = {});
  json get_config() const override;
  static std::shared_ptr<Layer> from_config(const json& config);

  KERAS_LAYER(IntegerLookup)
};

}  // namespace keras::layers
