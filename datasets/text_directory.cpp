// text_dataset_from_directory: index the .txt files (datasets/directory_index.hpp), then read each file
// (cut to max_length bytes) in a parallel map.
#include "datasets/text_directory.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "datasets/directory_index.hpp"
#include "keras/errors.hpp"

namespace keras::utils {
namespace {

std::string read_text(const std::string& path, std::optional<std::int64_t> max_length) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError(fmt::format("text_dataset_from_directory: cannot read '{}'", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string s = std::move(text).str();
  if (max_length && static_cast<std::int64_t>(s.size()) > *max_length) s.resize(static_cast<std::size_t>(*max_length));
  return s;
}

}  // namespace

TextDataset text_dataset_from_directory(const std::string& directory, TextDatasetOptions o) {
  const char* caller = "text_dataset_from_directory";
  if (o.batch_size < 0) throw ValueError(fmt::format("{}: batch_size must be >= 0, got {}", caller, o.batch_size));
  if (o.max_length && *o.max_length < 0)
    throw ValueError(fmt::format("{}: max_length must be >= 0, got {}", caller, *o.max_length));

  const directory::Index index = directory::index_directory(
      directory, {.caller = caller, .labels = o.labels, .label_list = o.label_list, .label_mode = o.label_mode,
                  .class_names = o.class_names, .shuffle = o.shuffle, .seed = o.seed,
                  .validation_split = o.validation_split, .subset = o.subset, .follow_links = o.follow_links,
                  .wanted = [](const std::filesystem::path& p) { return directory::has_extension(p, {".txt"}); },
                  .kind = "text files", .formats = "allowed: .txt"});
  const auto rows = static_cast<std::int64_t>(index.files.size());
  data::Element slices = data::Component::strings(index.files, {rows});
  if (index.labelled()) slices = data::Element::tuple({slices, directory::encode_labels(index, o.label_mode)});

  auto load = [max_length = o.max_length](const data::Element& e) {
    auto read = [&](const data::Element& path) { return data::Element(read_text(path.leaf().str(), max_length)); };
    return e.is_leaf() ? read(e) : data::Element::tuple({read(e[0]), e[1]});
  };
  // As Keras does, the (path, label) pairs are shuffled before the files are read.
  data::Dataset ds = data::Dataset::from_tensor_slices(slices);
  if (o.shuffle) ds = ds.shuffle(o.batch_size > 0 ? o.batch_size * 8 : 1024, {.seed = index.seed});
  ds = ds.map(load, {.num_parallel_calls = data::AUTOTUNE});
  if (o.batch_size > 0) ds = ds.batch(o.batch_size);
  return TextDataset(ds.prefetch(data::AUTOTUNE), index.class_names, index.files);
}

}  // namespace keras::utils
