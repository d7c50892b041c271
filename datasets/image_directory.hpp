#pragma once
// keras::utils::image_dataset_from_directory: a Dataset of (image, label) batches from a folder with one
// subfolder per class, as tf.keras.utils.image_dataset_from_directory.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace keras::utils {

struct ImageDatasetOptions {
  /// "inferred": the label of a file is its class subfolder (subfolders sorted by name); "": no labels,
  /// the folder's images (recursively) yield images only. See also label_list.
  std::string labels = "inferred";
  /// Explicit integer labels, one per image file in sorted path order (Keras's `labels=[...]`).
  std::vector<std::int64_t> label_list{};
  /// "int" (int32 scalar), "categorical" (float32 one-hot), "binary" (float32 [1], two classes) or "".
  std::string label_mode = "int";
  /// The subfolders to use, in label order (default: every subfolder, sorted).
  std::vector<std::string> class_names{};
  std::string color_mode = "rgb";  // "grayscale", "rgb" or "rgba": 1, 3 or 4 channels
  std::int64_t batch_size = 32;    // 0: unbatched images (Keras's batch_size=None)
  Shape image_size{256, 256};      // every image is resized to {height, width}
  /// Shuffles the file order once (with seed) and the elements each epoch (a buffer of 8 batches).
  bool shuffle = true;
  std::optional<std::uint64_t> seed{};
  /// With subset: the fraction of files held out for validation (the last ones after shuffling).
  double validation_split = 0;
  std::string subset = "";  // "training" or "validation"; call twice with one seed for both
  std::string interpolation = "bilinear";  // or "nearest" (images stay uint8)
  bool follow_links = false;
};

/// What image_dataset_from_directory returns: the Dataset and, as Keras attaches them, its classes and files.
struct ImageDataset : data::Dataset {
  ImageDataset(data::Dataset d, std::vector<std::string> classes, std::vector<std::string> files)
      : data::Dataset(std::move(d)), class_names(std::move(classes)), file_paths(std::move(files)) {}
  std::vector<std::string> class_names;
  std::vector<std::string> file_paths;
};

/// Images with extension .bmp, .gif, .jpeg, .jpg or .png under directory; bilinear images are float32 in
/// [0, 255]. Prints "Found N files belonging to C classes." as Keras does. Throws keras::IOError for a
/// missing folder, keras::ValueError for options that do not fit the files.
ImageDataset image_dataset_from_directory(const std::string& directory, ImageDatasetOptions options = {});

}  // namespace keras::utils
