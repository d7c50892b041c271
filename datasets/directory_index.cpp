// Indexing a folder of class subfolders for the *_dataset_from_directory readers (see directory_index.hpp).
#include "datasets/directory_index.hpp"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "keras/errors.hpp"
#include "keras/utils/random.hpp"

namespace keras::utils::directory {
namespace fs = std::filesystem;
namespace {

// The wanted files under dir, ordered as Keras walks them: by containing folder, then by file name.
std::vector<std::string> wanted_files(const fs::path& dir, const IndexOptions& o) {
  std::vector<std::pair<std::string, std::string>> found;  // (folder, name)
  auto opts = o.follow_links ? fs::directory_options::follow_directory_symlink : fs::directory_options::none;
  for (auto it = fs::recursive_directory_iterator(dir, opts); it != fs::recursive_directory_iterator(); ++it)
    if (!it->is_directory() && o.wanted(it->path()))
      found.emplace_back(it->path().parent_path().string(), it->path().filename().string());
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (const auto& [folder, name] : found) out.push_back((fs::path(folder) / name).string());
  return out;
}

void check_options(const IndexOptions& o) {
  auto one_of = [&](const std::string& v, std::initializer_list<const char*> ok, const char* what) {
    for (const char* k : ok)
      if (v == k) return;
    throw ValueError(fmt::format("{}: {} must be one of {}, got \"{}\"", o.caller, what, fmt::join(ok, ", "), v));
  };
  one_of(o.labels, {"inferred", ""}, "labels (use label_list for explicit labels)");
  one_of(o.label_mode, {"int", "categorical", "binary", ""}, "label_mode");
  one_of(o.subset, {"training", "validation", ""}, "subset");
  if (!o.class_names.empty() && (o.labels != "inferred" || !o.label_list.empty()))
    throw ValueError(fmt::format("{}: class_names can only be given with labels=\"inferred\"", o.caller));
  if (o.validation_split < 0 || o.validation_split >= 1)
    throw ValueError(fmt::format("{}: validation_split must be in [0, 1), got {}", o.caller, o.validation_split));
  if ((o.validation_split > 0) != !o.subset.empty())
    throw ValueError(fmt::format("{}: validation_split and subset go together: set both or neither", o.caller));
  if (o.validation_split > 0 && o.shuffle && !o.seed)
    throw ValueError(fmt::format("{}: with validation_split and shuffle, give a seed so that the training and "
                                 "validation subsets do not overlap",
                                 o.caller));
}

}  // namespace

bool has_extension(const fs::path& p, std::initializer_list<const char*> extensions) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return std::any_of(extensions.begin(), extensions.end(), [&](const char* e) { return ext == e; });
}

Index index_directory(const std::string& directory, const IndexOptions& o) {
  check_options(o);
  if (!fs::is_directory(directory)) throw IOError(fmt::format("{}: '{}' is not a folder", o.caller, directory));
  const bool labelled = (o.labels == "inferred" || !o.label_list.empty()) && !o.label_mode.empty();

  Index index;
  std::vector<std::string> files;
  std::vector<std::int64_t> labels;
  if (o.labels == "inferred" && o.label_list.empty()) {
    std::vector<std::string> subdirs;
    for (const auto& e : fs::directory_iterator(directory))
      if (e.is_directory()) subdirs.push_back(e.path().filename().string());
    std::sort(subdirs.begin(), subdirs.end());
    index.class_names = o.class_names.empty() ? subdirs : o.class_names;
    const auto& classes = index.class_names;
    if (std::set<std::string>(classes.begin(), classes.end()) != std::set<std::string>(subdirs.begin(), subdirs.end()))
      throw ValueError(fmt::format("{}: class_names [{}] do not match the subfolders of '{}': [{}]", o.caller,
                                   fmt::join(classes, ", "), directory, fmt::join(subdirs, ", ")));
    for (std::size_t c = 0; c < classes.size(); ++c)
      for (auto& f : wanted_files(fs::path(directory) / classes[c], o)) {
        files.push_back(std::move(f));
        labels.push_back(static_cast<std::int64_t>(c));
      }
  } else {
    files = wanted_files(directory, o);
    if (!o.label_list.empty()) {
      if (o.label_list.size() != files.size())
        throw ValueError(fmt::format("{}: label_list has {} labels but '{}' has {} {}", o.caller,
                                     o.label_list.size(), directory, files.size(), o.kind));
      labels = o.label_list;
    }
  }
  if (files.empty()) throw ValueError(fmt::format("{}: no {} found in '{}' ({})", o.caller, o.kind, directory, o.formats));
  if (labelled) std::cout << fmt::format("Found {} files belonging to {} classes.\n", files.size(), index.class_names.size());
  else std::cout << fmt::format("Found {} files.\n", files.size());

  index.num_classes = static_cast<std::int64_t>(index.class_names.size());
  if (!o.label_list.empty()) index.num_classes = *std::max_element(labels.begin(), labels.end()) + 1;
  if (labelled && o.label_mode == "binary" && index.num_classes != 2)
    throw ValueError(fmt::format("{}: label_mode \"binary\" needs exactly 2 classes, '{}' has {}", o.caller, directory,
                                 index.num_classes));
  for (std::int64_t l : labels)
    if (l < 0) throw ValueError(fmt::format("{}: labels must be >= 0, got {}", o.caller, l));

  // Shuffle the file list once, then split off the validation files from the end (Keras's order).
  index.seed = o.seed.value_or(random_generator()());
  std::vector<std::size_t> order(files.size());
  std::iota(order.begin(), order.end(), 0);
  if (o.shuffle) std::shuffle(order.begin(), order.end(), std::mt19937_64(index.seed));
  const auto n = static_cast<std::int64_t>(files.size());
  const auto num_val = static_cast<std::int64_t>(o.validation_split * static_cast<double>(n));
  std::int64_t begin = 0, end = n;
  if (o.subset == "training") end = n - num_val;
  if (o.subset == "validation") begin = n - num_val;
  if (!o.subset.empty()) std::cout << fmt::format("Using {} files for {}.\n", end - begin, o.subset);
  if (begin == end)
    throw ValueError(fmt::format("{}: the {} subset of '{}' is empty ({} files, validation_split {})", o.caller,
                                 o.subset, directory, n, o.validation_split));
  for (std::int64_t i = begin; i < end; ++i) {
    index.files.push_back(files[order[static_cast<std::size_t>(i)]]);
    if (labelled) index.labels.push_back(labels[order[static_cast<std::size_t>(i)]]);
  }
  return index;
}

data::Component encode_labels(const Index& index, const std::string& label_mode) {
  const auto rows = static_cast<std::int64_t>(index.labels.size());
  if (label_mode == "int") {
    std::vector<std::int32_t> v(index.labels.begin(), index.labels.end());
    return Tensor::from_vector(v, {rows});
  }
  if (label_mode == "binary") {
    std::vector<float> v(index.labels.begin(), index.labels.end());
    return Tensor::from_vector(v, {rows, 1});
  }
  const std::int64_t k = index.num_classes;
  Tensor y = Tensor::zeros({rows, k});
  for (std::int64_t i = 0; i < rows; ++i) y.data<float>()[i * k + index.labels[static_cast<std::size_t>(i)]] = 1.f;
  return y;
}

}  // namespace keras::utils::directory
