#include "layers/preprocessing/categorical/string_lookup.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"

namespace keras::layers {

KERAS_FIELDS(StringLookupOptions, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, idf_weights, invert,
             output_mode, pad_to_max_tokens, sparse, encoding, salt)

StringLookup::StringLookup(StringLookupOptions options)
    : IndexLookup(std::move(options), "string_lookup", "StringLookup") {
  if (options_.encoding != "utf-8" && options_.encoding != "UTF-8")
    throw ValueError(fmt::format("{}: kerascpp reads UTF-8 strings only; received encoding \"{}\"", who(),
                                 options_.encoding));
}

json StringLookup::get_config() const { return lookup_config(*this); }

std::shared_ptr<Layer> StringLookup::from_config(const json& c) {
  return lookup_from_config<StringLookup, StringLookupOptions>(c);
}

KERAS_REGISTER_LAYER(StringLookup)
}  // namespace keras::layers
