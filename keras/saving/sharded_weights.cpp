#include "keras/saving/sharded_weights.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include <unistd.h>

#include "keras/json.hpp"
#include "keras/model.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/object_path_layout.hpp"

namespace keras::saving {
namespace {

namespace fs = std::filesystem;

// "m.weights.json" → "m", as Keras names the shards.
std::string base_name(const fs::path& manifest) {
  std::string stem = manifest.stem().string();
  if (stem.ends_with(".weights") && stem.size() > 8) stem.resize(stem.size() - 8);
  return stem;
}

std::string shard_name(const std::string& base, int index) {
  char number[16];
  std::snprintf(number, sizeof number, "%05d", index);
  return base + "_" + number + ".weights.h5";
}

std::string map_key(const std::string& vars_path) { return "/" + vars_path; }

}  // namespace

void save_sharded_weights(const Model& model, const std::string& path, double max_shard_size_gb) {
  if (!(max_shard_size_gb > 0))
    throw ValueError("save_weights: max_shard_size must be a positive number of gigabytes, got " +
                     std::to_string(max_shard_size_gb));
  const fs::path manifest(path);
  const std::string base = base_name(manifest);
  const double limit = max_shard_size_gb * 1024.0 * 1024.0 * 1024.0;
  using Values = std::vector<std::pair<std::string, std::vector<Tensor>>>;
  std::vector<Values> shards(1);
  double current = 0, total = 0;
  for (auto& [vars_path, values] : object_path_values(model, true)) {
    double bytes = 0;
    for (const auto& v : values) bytes += double(v.nbytes());
    if (current > 0 && current + bytes > limit) {
      shards.emplace_back();
      current = 0;
    }
    current += bytes;
    total += bytes;
    shards.back().emplace_back(vars_path, std::move(values));
  }
  json weight_map = json::object();
  for (std::size_t s = 0; s < shards.size(); ++s) {
    const std::string name = shard_name(base, int(s));
    write_atomically((manifest.parent_path() / name).string(), [&](hdf5::File& file) {
      hdf5::Group root = file.root();
      for (const auto& [vars_path, values] : shards[s]) {
        for (std::size_t i = 0; i < values.size(); ++i) root.write_dataset(vars_path + "/" + std::to_string(i), values[i]);
        weight_map[map_key(vars_path)] = name;
      }
    });
  }
  const json config{{"metadata", {{"total_size", total}}}, {"weight_map", weight_map}};
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << config.dump(4);
    if (!out.flush()) throw IOError("Cannot write " + tmp + " (for " + path + "): is the disk full?");
  }
  std::error_code error;
  fs::rename(tmp, path, error);
  if (error) throw IOError("Cannot rename " + tmp + " to " + path + ": " + error.message());
}

void load_sharded_weights(const Model& model, const std::string& path, bool skip_mismatch) {
  std::ifstream in(path);
  if (!in) throw IOError("No such file: " + path);
  json config;
  try {
    config = json::parse(in);
  } catch (const json::exception& e) {
    throw IOError("The sharded-weights manifest " + path + " is not valid JSON: " + e.what());
  }
  if (!config.is_object() || !config.contains("weight_map") || !config["weight_map"].is_object())
    throw IOError("The sharded-weights manifest " + path + " has no \"weight_map\" object: was it written by "
                  "Keras's save_weights(..., max_shard_size=...)?");
  const json& weight_map = config["weight_map"];
  const fs::path folder = fs::path(path).parent_path();
  std::map<std::string, std::unique_ptr<hdf5::File>> open;
  load_object_path_weights(
      [&](const std::string& vars_path) -> std::vector<Tensor> {
        auto entry = weight_map.find(map_key(vars_path));
        if (entry == weight_map.end()) return {};
        if (!entry->is_string()) throw IOError("The weight_map of " + path + " names no file for " + entry.key());
        const std::string name = entry->get<std::string>();
        if (name.find('/') != std::string::npos || name.find("..") != std::string::npos)
          throw IOError("The weight_map of " + path + " points outside its folder: '" + name + "'");
        auto& file = open[name];
        if (!file) file = std::make_unique<hdf5::File>(hdf5::File::open((folder / name).string()));
        return read_object_vars(file->root(), vars_path);
      },
      model, skip_mismatch);
}

}  // namespace keras::saving
