#include "layers/preprocessing/categorical/integer_lookup.hpp"

#include <fmt/format.h>

#include "keras/config/fields.hpp"

namespace keras::layers {

KERAS_FIELDS(IntegerLookupOptions, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary, vocabulary_dtype,
             idf_weights, invert, output_mode, sparse, pad_to_max_tokens, oov_method, salt)

IntegerLookup::IntegerLookup(IntegerLookupOptions options)
    : IndexLookup(std::move(options), "integer_lookup", "IntegerLookup") {
  if (options_.vocabulary_dtype != "int64")
    throw ValueError(fmt::format("{}: only vocabulary_dtype \"int64\" is supported (as Keras); received \"{}\"", who(),
                                 options_.vocabulary_dtype));
}

json IntegerLookup::get_config() const {
  json c = lookup_config(*this);
  // Older Keras releases (and tf.keras 2.x) have neither argument: leave them out at their defaults, so
  // every Keras reads the config.
  if (c["oov_method"] == "floormod") c.erase("oov_method");
  if (c["salt"].is_null()) c.erase("salt");
  return c;
}

std::shared_ptr<Layer> IntegerLookup::from_config(const json& c) {
  return lookup_from_config<IntegerLookup, IntegerLookupOptions>(c);
}

KERAS_REGISTER_LAYER(IntegerLookup)
}  // namespace keras::layers
