#pragma once
// A layer's "dtype" config entry as the Keras versions write it: a dtype name ("float32"), Keras 3's
// policy object ({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "mixed_float16"}},
// also FloatDTypePolicy and the quantized policies), tf.keras 2.x's mixed-precision "Policy" object, or
// null (the default). kerascpp computes in float32 whatever the policy says; a policy is read so that
// such files load, and checked so that a config that is really wrong is refused.
#include <string>

#include "keras/errors.hpp"
#include "keras/json.hpp"

namespace keras::config {

/// The policy's name ("float32", "mixed_float16", ...); "float32" for null. ValueError for anything else.
inline std::string dtype_policy_name(const json& dtype) {
  if (dtype.is_null()) return "float32";
  if (dtype.is_string()) return dtype.get<std::string>();
  if (dtype.is_object()) {
    auto cls = dtype.find("class_name");
    auto cfg = dtype.find("config");
    if (cls != dtype.end() && cls->is_string() && cfg != dtype.end() && cfg->is_object()) {
      const std::string c = cls->get<std::string>();
      const bool policy = c == "DTypePolicy" || c == "FloatDTypePolicy" || c == "Policy" ||
                          c == "QuantizedDTypePolicy" || c == "QuantizedFloat8DTypePolicy" ||
                          c == "DTypePolicyMap";
      auto name = cfg->find("name");
      if (policy && name != cfg->end() && name->is_string()) return name->get<std::string>();
    }
  }
  throw ValueError("Config field \"dtype\" = " + dtype.dump().substr(0, 200) +
                   ": expected a dtype name (\"float32\") or a dtype policy object "
                   "({\"class_name\": \"DTypePolicy\", \"config\": {\"name\": ...}})");
}

}  // namespace keras::config
