#pragma once
// Python's str.format for checkpoint file names: "ckpt-{epoch:02d}-{val_loss:.3f}.h5".
#include <cstdint>
#include <map>
#include <string>

#include "keras/utils/logs.hpp"

namespace keras::callbacks {

/// Replaces each {name} or {name:spec} with the named value; `{{` and `}}` are literal braces.
/// Integers (epoch, batch) take specs like "02d" or "5"; log values (floats) take "[sign][0][width][.precision]"
/// with type f, e, E, g, G or none (Python's repr). An unknown name or a spec Python rejects is a ValueError.
std::string format_path(const std::string& pattern, const std::map<std::string, std::int64_t>& ints, const Logs& floats);

}  // namespace keras::callbacks
