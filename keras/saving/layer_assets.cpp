#include "keras/saving/layer_assets.hpp"

#include <functional>
#include <map>

#include "keras/model.hpp"
#include "keras/saving/object_path_layout.hpp"
#include "keras/saving/zip_archive.hpp"
#include "layers/preprocessing/categorical/index_lookup.hpp"
#include "layers/preprocessing/text/text_vectorization.hpp"

namespace keras::saving {
namespace {

// Each lookup of the model with its object paths (TextVectorization's own and its _lookup_layer's).
using Visit = std::function<void(layers::IndexLookupBase&, const std::vector<std::string>& paths)>;

void walk(const Model& model, const std::string& prefix, const Visit& visit) {
  std::map<std::string, int> used;
  for (const auto& l : model.layers()) {
    const std::string base = to_snake_case(l->class_name());
    const int n = used[base]++;
    const std::string path = prefix + "layers/" + (n ? base + "_" + std::to_string(n) : base);
    if (auto* sub = dynamic_cast<const Model*>(l.get())) walk(*sub, path + "/", visit);
    else if (auto* lookup = dynamic_cast<layers::IndexLookupBase*>(l.get())) visit(*lookup, {path});
    else if (auto* text = dynamic_cast<layers::TextVectorization*>(l.get()))
      visit(text->lookup_layer(), {path, path + "/_lookup_layer"});
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> layer_assets(const Model& model) {
  std::vector<std::pair<std::string, std::string>> out;
  walk(model, "", [&](layers::IndexLookupBase& lookup, const std::vector<std::string>& paths) {
    if (const auto text = lookup.save_assets())
      for (const auto& p : paths) out.emplace_back("assets/" + p + "/vocabulary.txt", *text);
  });
  return out;
}

void save_lookup_variables(hdf5::Group& root, const Model& model) {
  walk(model, "", [&](layers::IndexLookupBase& lookup, const std::vector<std::string>& paths) {
    const auto& idf = lookup.idf_weights();
    if (idf.empty()) return;
    const Tensor weights = Tensor::from_vector<float>(idf);
    for (const auto& p : paths) root.write_dataset(p + "/vars/idf_weights", weights);
  });
}

void load_layer_assets(const ZipReader& zip, const hdf5::Group& root, const Model& model) {
  walk(model, "", [&](layers::IndexLookupBase& lookup, const std::vector<std::string>& paths) {
    if (lookup.has_input_vocabulary()) return;
    const std::string name = "assets/" + paths.front() + "/vocabulary.txt";
    if (!zip.has(name)) return;
    std::vector<float> idf;
    if (const std::string w = paths.front() + "/vars/idf_weights"; root.has(w))
      idf = root.read_dataset(w).to_vector<float>();
    lookup.load_assets(zip.read(name), idf);
  });
}

}  // namespace keras::saving
