// image_dataset_from_directory: index the image files (Keras's order: class subfolders sorted, then each
// folder's files by directory and name), shuffle and split the file list, then decode and resize the
// images in a parallel map.
#include "datasets/image_directory.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "data/image.hpp"
#include "keras/errors.hpp"
#include "keras/utils/random.hpp"

namespace keras::utils {
namespace fs = std::filesystem;
namespace {

bool is_image_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".bmp" || ext == ".gif" || ext == ".jpeg" || ext == ".jpg" || ext == ".png";
}

// The image files under dir, ordered as Keras walks them: by containing folder, then by file name.
std::vector<std::string> image_files(const fs::path& dir, bool follow_links) {
  std::vector<std::pair<std::string, std::string>> found;  // (folder, name)
  auto opts = follow_links ? fs::directory_options::follow_directory_symlink : fs::directory_options::none;
  for (auto it = fs::recursive_directory_iterator(dir, opts); it != fs::recursive_directory_iterator(); ++it)
    if (!it->is_directory() && is_image_file(it->path()))
      found.emplace_back(it->path().parent_path().string(), it->path().filename().string());
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& [folder, name] : found) out.push_back((fs::path(folder) / name).string());
  return out;
}

void check_options(const ImageDatasetOptions& o) {
  auto one_of = [](const std::string& v, std::initializer_list<const char*> ok, const char* what) {
    for (const char* k : ok)
      if (v == k) return;
    throw ValueError(fmt::format("image_dataset_from_directory: {} must be one of {}, got \"{}\"", what, fmt::join(ok, ", "), v));
  };
  one_of(o.labels, {"inferred", ""}, "labels (use label_list for explicit labels)");
  one_of(o.label_mode, {"int", "categorical", "binary", ""}, "label_mode");
  one_of(o.color_mode, {"grayscale", "rgb", "rgba"}, "color_mode");
  one_of(o.interpolation, {"bilinear", "nearest"}, "interpolation");
  one_of(o.subset, {"training", "validation", ""}, "subset");
  if (!o.class_names.empty() && (o.labels != "inferred" || !o.label_list.empty()))
    throw ValueError("image_dataset_from_directory: class_names can only be given with labels=\"inferred\"");
  if (o.image_size.size() != 2 || o.image_size[0] <= 0 || o.image_size[1] <= 0)
    throw ValueError("image_dataset_from_directory: image_size must be {height, width}, got " + shape_str(o.image_size));
  if (o.batch_size < 0) throw ValueError(fmt::format("image_dataset_from_directory: batch_size must be >= 0, got {}", o.batch_size));
  if (o.validation_split < 0 || o.validation_split >= 1)
    throw ValueError(fmt::format("image_dataset_from_directory: validation_split must be in [0, 1), got {}", o.validation_split));
  if ((o.validation_split > 0) != !o.subset.empty())
    throw ValueError("image_dataset_from_directory: validation_split and subset go together: set both or neither");
  if (o.validation_split > 0 && o.shuffle && !o.seed)
    throw ValueError("image_dataset_from_directory: with validation_split and shuffle, give a seed so that the "
                     "training and validation subsets do not overlap");
}

}  // namespace

ImageDataset image_dataset_from_directory(const std::string& directory, ImageDatasetOptions o) {
  check_options(o);
  if (!fs::is_directory(directory)) throw IOError(fmt::format("image_dataset_from_directory: '{}' is not a folder", directory));
  const bool labelled = (o.labels == "inferred" || !o.label_list.empty()) && !o.label_mode.empty();

  std::vector<std::string> classes, files;
  std::vector<std::int64_t> labels;
  if (o.labels == "inferred" && o.label_list.empty()) {
    std::vector<std::string> subdirs;
    for (const auto& e : fs::directory_iterator(directory))
      if (e.is_directory()) subdirs.push_back(e.path().filename().string());
    std::sort(subdirs.begin(), subdirs.end());
    classes = o.class_names.empty() ? subdirs : o.class_names;
    if (std::set<std::string>(classes.begin(), classes.end()) != std::set<std::string>(subdirs.begin(), subdirs.end()))
      throw ValueError(fmt::format("image_dataset_from_directory: class_names [{}] do not match the subfolders of '{}': [{}]",
                                   fmt::join(classes, ", "), directory, fmt::join(subdirs, ", ")));
    for (std::size_t c = 0; c < classes.size(); ++c)
      for (auto& f : image_files(fs::path(directory) / classes[c], o.follow_links)) {
        files.push_back(std::move(f));
        labels.push_back(static_cast<std::int64_t>(c));
      }
  } else {
    files = image_files(directory, o.follow_links);
    if (!o.label_list.empty()) {
      if (o.label_list.size() != files.size())
        throw ValueError(fmt::format("image_dataset_from_directory: label_list has {} labels but '{}' has {} image files",
                                     o.label_list.size(), directory, files.size()));
      labels = o.label_list;
    }
  }
  if (files.empty())
    throw ValueError(fmt::format("image_dataset_from_directory: no images found in '{}' (allowed: .bmp, .gif, .jpeg, .jpg, .png)",
                                 directory));
  if (labelled) std::cout << fmt::format("Found {} files belonging to {} classes.\n", files.size(), classes.size());
  else std::cout << fmt::format("Found {} files.\n", files.size());

  std::int64_t num_classes = static_cast<std::int64_t>(classes.size());
  if (!o.label_list.empty()) num_classes = *std::max_element(labels.begin(), labels.end()) + 1;
  if (labelled && o.label_mode == "binary" && num_classes != 2)
    throw ValueError(fmt::format("image_dataset_from_directory: label_mode \"binary\" needs exactly 2 classes, '{}' has {}",
                                 directory, num_classes));
  for (std::int64_t l : labels)
    if (l < 0) throw ValueError(fmt::format("image_dataset_from_directory: labels must be >= 0, got {}", l));

  // Shuffle the file list once, then split off the validation files from the end (Keras's order).
  const std::uint64_t seed = o.seed.value_or(random_generator()());
  std::vector<std::size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  if (o.shuffle) std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  const auto n = static_cast<std::int64_t>(files.size());
  const auto num_val = static_cast<std::int64_t>(o.validation_split * static_cast<double>(n));
  std::int64_t begin = 0, end = n;
  if (o.subset == "training") end = n - num_val;
  if (o.subset == "validation") begin = n - num_val;
  if (!o.subset.empty()) std::cout << fmt::format("Using {} files for {}.\n", end - begin, o.subset);
  if (begin == end)
    throw ValueError(fmt::format("image_dataset_from_directory: the {} subset of '{}' is empty ({} files, validation_split {})",
                                 o.subset, directory, n, o.validation_split));

  std::vector<std::string> paths;
  std::vector<std::int64_t> picked;
  for (std::int64_t i = begin; i < end; ++i) {
    paths.push_back(files[order[static_cast<std::size_t>(i)]]);
    if (labelled) picked.push_back(labels[order[static_cast<std::size_t>(i)]]);
  }
  const auto rows = static_cast<std::int64_t>(paths.size());
  data::Element slices = data::Component::strings(paths, {rows});
  if (labelled) {
    Tensor y;
    if (o.label_mode == "int") {
      std::vector<std::int32_t> v(picked.begin(), picked.end());
      y = Tensor::from_vector(v, {rows});
    } else if (o.label_mode == "binary") {
      std::vector<float> v(picked.begin(), picked.end());
      y = Tensor::from_vector(v, {rows, 1});
    } else {
      y = Tensor::zeros({rows, num_classes});
      for (std::int64_t i = 0; i < rows; ++i) y.data<float>()[i * num_classes + picked[static_cast<std::size_t>(i)]] = 1.f;
    }
    slices = data::Element::tuple({slices, data::Element(y)});
  }

  const int channels = o.color_mode == "grayscale" ? 1 : o.color_mode == "rgb" ? 3 : 4;
  auto load = [channels, size = o.image_size, method = o.interpolation](const data::Element& e) {
    auto read = [&](const data::Element& path) {
      return data::Element(image::resize(image::load_image(path.leaf().str(), channels), size, method));
    };
    return e.is_leaf() ? read(e) : data::Element::tuple({read(e[0]), e[1]});
  };
  data::Dataset ds = data::Dataset::from_tensor_slices(slices).map(load, {.num_parallel_calls = data::AUTOTUNE});
  if (o.shuffle) ds = ds.shuffle(o.batch_size > 0 ? o.batch_size * 8 : 1024, {.seed = seed});
  if (o.batch_size > 0) ds = ds.batch(o.batch_size);
  return ImageDataset(ds.prefetch(data::AUTOTUNE), classes, paths);
}

}  // namespace keras::utils
