#pragma once
// What image_dataset_from_directory and text_dataset_from_directory share (Keras's dataset_utils): index
// the files of a folder with their labels, check the common options, shuffle the file list and keep the
// training or validation subset, and turn integer labels into Keras's label_mode encodings.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "data/element.hpp"

namespace keras::utils::directory {

/// The arguments both readers take, as Keras names them.
struct IndexOptions {
  std::string caller;                       // "text_dataset_from_directory", for messages
  std::string labels = "inferred";          // "inferred" or "" (no labels, unless label_list)
  std::vector<std::int64_t> label_list{};   // explicit labels in sorted path order
  std::string label_mode = "int";           // "int", "categorical", "binary" or ""
  std::vector<std::string> class_names{};   // with labels="inferred": the subfolders, in label order
  bool shuffle = true;
  std::optional<std::uint64_t> seed{};
  double validation_split = 0;
  std::string subset = "";                  // "training", "validation" or ""
  bool follow_links = false;
  std::function<bool(const std::filesystem::path&)> wanted;  // keeps the files of the right format
  std::string kind = "files";               // "images", "text files": what the messages call them
  std::string formats;                      // "allowed: .txt", for the message when nothing is found
};

/// The files kept, in the order the dataset yields them before its element shuffle.
struct Index {
  std::vector<std::string> files;
  std::vector<std::int64_t> labels;  // empty when unlabelled
  std::vector<std::string> class_names;
  std::int64_t num_classes = 0;
  std::uint64_t seed = 0;            // the seed used (drawn when none was given)
  bool labelled() const { return !labels.empty(); }
};

/// Checks the options, lists the files (Keras's order: class subfolders in label order, then each
/// folder's files by directory and name), prints Keras's "Found N files ..." lines, shuffles the list
/// with the seed and keeps the subset. IOError for a missing folder, ValueError for options that do not
/// fit the files.
Index index_directory(const std::string& directory, const IndexOptions& options);

/// The labels of `index` as one component of Keras's label_mode: "int" int32 [n], "binary" float32
/// [n, 1], "categorical" float32 one-hot [n, num_classes].
data::Component encode_labels(const Index& index, const std::string& label_mode);

/// True when the lower-cased extension of p is one of `extensions` (".txt", ...).
bool has_extension(const std::filesystem::path& p, std::initializer_list<const char*> extensions);

}  // namespace keras::utils::directory
