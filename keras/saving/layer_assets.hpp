#pragma once
// What Keras 3 keeps in a .keras archive beside the config and the variables: each lookup layer's
// (every layers::IndexLookupBase: StringLookup, IntegerLookup) vocabulary as `assets/<object path>/vocabulary.txt` (IndexLookup.save_assets, written when the vocabulary
// was adapted rather than given) and, in tf_idf mode, its idf weights as the dataset `<object path>/vars/
// idf_weights` of model.weights.h5 (save_own_variables). TextVectorization writes them at its own path and
// at `<its path>/_lookup_layer`, the StringLookup attribute Keras 3 also visits. Object paths are those of
// object_path_layout.hpp ("layers/string_lookup", "layers/text_vectorization_1").
#include <string>
#include <utility>
#include <vector>

#include "keras/hdf5/file.hpp"

namespace keras {
class Model;
}

namespace keras::saving {

class ZipReader;

/// The asset entries of `model`: (name inside the archive, content).
std::vector<std::pair<std::string, std::string>> layer_assets(const Model& model);
/// Writes the idf weights of tf_idf lookups under `root` of model.weights.h5.
void save_lookup_variables(hdf5::Group& root, const Model& model);
/// Gives each lookup layer without a vocabulary its assets/.../vocabulary.txt from `zip` (a Keras 3 file),
/// and its idf weights from `root` of model.weights.h5 when it has them.
void load_layer_assets(const ZipReader& zip, const hdf5::Group& root, const Model& model);

}  // namespace keras::saving
