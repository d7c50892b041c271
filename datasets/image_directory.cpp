// image_dataset_from_directory: index the image files (datasets/directory_index.hpp), then decode and
// resize the images in a parallel map.
#include "datasets/image_directory.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "data/image.hpp"
#include "datasets/directory_index.hpp"
#include "keras/errors.hpp"

namespace keras::utils {

ImageDataset image_dataset_from_directory(const std::string& directory, ImageDatasetOptions o) {
  const char* caller = "image_dataset_from_directory";
  auto one_of = [&](const std::string& v, std::initializer_list<const char*> ok, const char* what) {
    for (const char* k : ok)
      if (v == k) return;
    throw ValueError(fmt::format("{}: {} must be one of {}, got \"{}\"", caller, what, fmt::join(ok, ", "), v));
  };
  one_of(o.color_mode, {"grayscale", "rgb", "rgba"}, "color_mode");
  one_of(o.interpolation, {"bilinear", "nearest"}, "interpolation");
  if (o.image_size.size() != 2 || o.image_size[0] <= 0 || o.image_size[1] <= 0)
    throw ValueError(fmt::format("{}: image_size must be {{height, width}}, got {}", caller, shape_str(o.image_size)));
  if (o.batch_size < 0) throw ValueError(fmt::format("{}: batch_size must be >= 0, got {}", caller, o.batch_size));

  const directory::Index index = directory::index_directory(
      directory, {.caller = caller, .labels = o.labels, .label_list = o.label_list, .label_mode = o.label_mode,
                  .class_names = o.class_names, .shuffle = o.shuffle, .seed = o.seed,
                  .validation_split = o.validation_split, .subset = o.subset, .follow_links = o.follow_links,
                  .wanted = [](const std::filesystem::path& p) {
                    return directory::has_extension(p, {".bmp", ".gif", ".jpeg", ".jpg", ".png"});
                  },
                  .kind = "images", .formats = "allowed: .bmp, .gif, .jpeg, .jpg, .png"});
  const auto rows = static_cast<std::int64_t>(index.files.size());
  data::Element slices = data::Component::strings(index.files, {rows});
  if (index.labelled()) slices = data::Element::tuple({slices, directory::encode_labels(index, o.label_mode)});

  const int channels = o.color_mode == "grayscale" ? 1 : o.color_mode == "rgb" ? 3 : 4;
  auto load = [channels, size = o.image_size, method = o.interpolation](const data::Element& e) {
    auto read = [&](const data::Element& path) {
      return data::Element(image::resize(image::load_image(path.leaf().str(), channels), size, method));
    };
    return e.is_leaf() ? read(e) : data::Element::tuple({read(e[0]), e[1]});
  };
  data::Dataset ds = data::Dataset::from_tensor_slices(slices).map(load, {.num_parallel_calls = data::AUTOTUNE});
  if (o.shuffle) ds = ds.shuffle(o.batch_size > 0 ? o.batch_size * 8 : 1024, {.seed = index.seed});
  if (o.batch_size > 0) ds = ds.batch(o.batch_size);
  return ImageDataset(ds.prefetch(data::AUTOTUNE), index.class_names, index.files);
}

}  // namespace keras::utils
