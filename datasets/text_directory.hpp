#pragma once
// keras::utils::text_dataset_from_directory: a Dataset of (text, label) batches from a folder with one
// subfolder per class of .txt files, as tf.keras.utils.text_dataset_from_directory.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace keras::utils {

struct TextDatasetOptions {
  /// "inferred": the label of a file is its class subfolder (subfolders sorted by name); "": no labels,
  /// the folder's .txt files (recursively) yield texts only. See also label_list.
  std::string labels = "inferred";
  /// Explicit integer labels, one per .txt file in sorted path order (Keras's `labels=[...]`).
  std::vector<std::int64_t> label_list{};
  /// "int" (int32 scalar), "categorical" (float32 one-hot), "binary" (float32 [1], two classes) or "".
  std::string label_mode = "int";
  /// The subfolders to use, in label order (default: every subfolder, sorted).
  std::vector<std::string> class_names{};
  std::int64_t batch_size = 32;  // 0: unbatched texts (Keras's batch_size=None)
  /// Texts longer than this many bytes are cut to it (tf.strings.substr in bytes); none: whole files.
  std::optional<std::int64_t> max_length{};
  /// Shuffles the file order once (with seed) and the elements each epoch (a buffer of 8 batches).
  bool shuffle = true;
  std::optional<std::uint64_t> seed{};
  /// With subset: the fraction of files held out for validation (the last ones after shuffling).
  double validation_split = 0;
  std::string subset = "";  // "training" or "validation"; call twice with one seed for both
  bool follow_links = false;
};

/// What text_dataset_from_directory returns: the Dataset and, as Keras attaches them, its classes and files.
struct TextDataset : data::Dataset {
  TextDataset(data::Dataset d, std::vector<std::string> classes, std::vector<std::string> files)
      : data::Dataset(std::move(d)), class_names(std::move(classes)), file_paths(std::move(files)) {}
  std::vector<std::string> class_names;
  std::vector<std::string> file_paths;
};

/// The .txt files under directory (the extension in any case), each read whole as bytes: the texts are
/// string components of shape [batch] (scalars when unbatched), the labels as label_mode says. Prints
/// "Found N files belonging to C classes." as Keras does. Throws keras::IOError for a missing folder or an
/// unreadable file, keras::ValueError for options that do not fit the files.
TextDataset text_dataset_from_directory(const std::string& directory, TextDatasetOptions options = {});

}  // namespace keras::utils
