#include "data/iterator.hpp"

#include <cstring>

#include "keras/json.hpp"

namespace keras::data {

json IteratorBase::save() const {
  throw ValueError(std::string("Cannot save the state of an iterator over ") + kind() +
                   "; saveable pipelines use sources, files, map, batch, shuffle, prefetch, interleave, cache and most other transformations");
}

void IteratorBase::restore(const json&) {
  throw ValueError(std::string("Cannot restore the state of an iterator over ") + kind());
}

Element Iterator::get_next() {
  auto e = impl_->next();
  if (!e) throw OutOfRangeError("End of sequence: the iterator has no more elements");
  return std::move(*e);
}

std::optional<Element> Iterator::get_next_as_optional() { return impl_->next(); }

json Iterator::save() const { return impl_->save(); }

void Iterator::restore(const json& state) { impl_->restore(state); }

namespace {
json component_to_json(const Component& c) {
  json j{{"dtype", c.dtype_name()}, {"shape", c.shape()}};
  if (c.is_string()) {
    j["strings"] = json::array();
    for (const auto& s : c.string_values()) j["strings"].push_back(json::binary(std::vector<std::uint8_t>(s.begin(), s.end())));
  } else {
    const auto* p = static_cast<const std::uint8_t*>(c.tensor().raw_data());
    j["bytes"] = json::binary(std::vector<std::uint8_t>(p, p + c.tensor().nbytes()));
  }
  return j;
}

Component component_from_json(const json& j) {
  const Shape shape = j.at("shape").get<Shape>();
  if (j.at("dtype") == "string") {
    std::vector<std::string> v;
    for (const auto& s : j.at("strings")) {
      const auto& b = s.get_binary();
      v.emplace_back(b.begin(), b.end());
    }
    return Component::strings(std::move(v), shape);
  }
  Tensor t = Tensor::empty(shape, dtype_from_name(j.at("dtype").get<std::string>()));
  const auto& b = j.at("bytes").get_binary();
  if (b.size() != t.nbytes()) throw IOError("Corrupt serialized tensor: byte count does not match its shape");
  if (!b.empty()) std::memcpy(t.raw_data(), b.data(), b.size());
  return t;
}
}  // namespace

json element_to_json(const Element& e) {
  if (e.is_leaf()) return component_to_json(e.leaf());
  json items = json::array();
  for (const auto& c : e.children()) items.push_back(element_to_json(c));
  return e.is_dict() ? json{{"keys", e.keys()}, {"items", items}} : json{{"items", items}};
}

Element element_from_json(const json& j) {
  if (!j.contains("items")) return component_from_json(j);
  if (j.contains("keys")) {
    std::vector<std::pair<std::string, Element>> items;
    for (std::size_t i = 0; i < j["items"].size(); ++i)
      items.emplace_back(j["keys"][i].get<std::string>(), element_from_json(j["items"][i]));
    return Element::dict(std::move(items));
  }
  std::vector<Element> items;
  for (const auto& c : j["items"]) items.push_back(element_from_json(c));
  return Element::tuple(std::move(items));
}

}  // namespace keras::data
