#pragma once
// A Structure written as Keras writes compile() arguments into training_config.
#include "keras/json.hpp"
#include "keras/trainers/structure.hpp"

namespace keras {

/// A Structure's serialized form as Keras writes compile arguments: a value, a list, or a map.
template <class T, class F>
json serialize_structure(const Structure<T>& s, F&& one) {
  switch (s.kind()) {
    case Structure<T>::Kind::none: return nullptr;
    case Structure<T>::Kind::one: return one(s.one());
    case Structure<T>::Kind::list: {
      json out = json::array();
      for (const auto& v : s.list()) out.push_back(one(v));
      return out;
    }
    case Structure<T>::Kind::map: {
      json out = json::object();
      for (const auto& [k, v] : s.by_name()) out[k] = one(v);
      return out;
    }
  }
  return nullptr;
}


}  // namespace keras
