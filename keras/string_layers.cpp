#include "keras/string_layers.hpp"

#include <map>
#include <mutex>

#include "keras/layer.hpp"

namespace keras {
namespace {

struct Entry {
  bool takes_strings = false;
  OutputDTypeFn output_dtype;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> r;
  return r;
}

const Entry* find(const std::string& class_name) {
  std::lock_guard lock(registry_mutex());
  auto it = registry().find(class_name);
  return it == registry().end() ? nullptr : &it->second;
}

}  // namespace

void register_string_layer(const std::string& class_name, bool takes_strings, OutputDTypeFn output_dtype) {
  std::lock_guard lock(registry_mutex());
  registry()[class_name] = Entry{takes_strings, std::move(output_dtype)};
}

void check_string_input(const Layer& layer, DType dtype, std::size_t index) {
  if (dtype != DType::string || !layer.sublayers().empty()) return;  // containers: their layers decide
  const Entry* e = find(layer.class_name());
  if (e && e->takes_strings) return;
  throw ValueError("Layer \"" + layer.name() + "\" (" + layer.class_name() + ") received input " + std::to_string(index) +
                   " of dtype string, but it computes on numbers; turn the strings into numbers first (StringLookup, "
                   "TextVectorization or Hashing)");
}

DType symbolic_output_dtype(const Layer& layer, const std::vector<DType>& input_dtypes) {
  const Entry* e = find(layer.class_name());
  return e && e->output_dtype ? e->output_dtype(layer, input_dtypes) : DType::float32;
}

}  // namespace keras
