#pragma once
// keras::json declared, not defined: what public headers need to declare get_config(), from_config()
// and friends without making every user parse nlohmann/json (a third of a one-line program's compile
// time). Code that builds, reads or copies a config includes keras/json.hpp, where the type is complete.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace keras {

/// nlohmann's serializer, with range-checked conversions to integers (defined in keras/json.hpp).
template <class T, class = void>
struct ConfigSerializer;

/// The one JSON type of configs, states and files (complete in keras/json.hpp).
using json = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t, double,
                                  std::allocator, ConfigSerializer>;

}  // namespace keras
