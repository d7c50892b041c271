// Checkpoint / CheckpointManager: HDF5 snapshots of model, optimizer and variables, and the
// directory's `checkpoint` state file.
#include "keras/saving/checkpoint.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/optimizer_weights.hpp"

namespace keras::train {
namespace fs = std::filesystem;
namespace {

constexpr const char* kStateFile = "checkpoint";

// One line of the state file: `key: "value"`.
std::string state_line(const std::string& key, const std::string& value) {
  return fmt::format("{}: \"{}\"\n", key, value);
}

// The paths the state file lists: the latest, then all kept ones (relative to the directory).
std::pair<std::optional<std::string>, std::vector<std::string>> read_state(const std::string& directory) {
  std::ifstream in(fs::path(directory) / kStateFile);
  if (!in) return {};
  static const std::regex line_re(R"(^\s*(\w+)\s*:\s*\"(.*)\"\s*$)");
  std::optional<std::string> latest;
  std::vector<std::string> all;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, line_re)) continue;
    const fs::path p(m[2].str());
    const std::string full = p.is_absolute() ? p.string() : (fs::path(directory) / p).string();
    if (m[1] == "model_checkpoint_path") latest = full;
    if (m[1] == "all_model_checkpoint_paths") all.push_back(full);
  }
  return {latest, all};
}

}  // namespace

Checkpoint::Checkpoint(Model& model, CheckpointOptions options) : model_(&model), options_(std::move(options)) {}

optimizers::Optimizer* Checkpoint::optimizer() const {
  if (options_.optimizer) return options_.optimizer;
  return model_->compiled() ? &model_->optimizer() : nullptr;
}

std::string Checkpoint::save(const std::string& file_prefix) {
  const std::string path = fmt::format("{}-{}.h5", file_prefix, save_counter_ + 1);
  ++save_counter_;
  try {
    write(path);
  } catch (...) {
    --save_counter_;
    throw;
  }
  return path;
}

void Checkpoint::write(const std::string& path) const {
  saving::write_atomically(path, [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    root.set_string_attr("save_counter", std::to_string(save_counter_));
    hdf5::Group weights = root.create_group("model_weights");
    saving::save_weights_to_group(weights, model_->layers());
    if (auto* opt = optimizer()) saving::save_optimizer_weights(root, *opt, model_->layers());
    if (!options_.variables.empty()) {
      hdf5::Group vars = root.create_group("variables");
      for (const auto& [name, var] : options_.variables) vars.write_dataset(name, var->value());
    }
  });
}

void Checkpoint::restore(const std::string& path) {
  hdf5::File file = hdf5::File::open(path);
  hdf5::Group root = file.root();
  if (!root.has("model_weights") || !root.has_attr("save_counter"))
    throw IOError("'" + path + "' is not a kerascpp checkpoint (no model_weights group or save_counter attribute)");
  if (!model_->built())
    throw ValueError("Checkpoint::restore: model '" + model_->name() + "' is not built yet; build it (or call it on "
                     "a batch) before restoring " + path);
  saving::load_weights_from_group(root.open_group("model_weights"), model_->layers(), false, false);
  if (auto* opt = optimizer(); opt && root.has("optimizer_weights"))
    if (!saving::load_optimizer_weights(root, *opt, model_->layers()))
      throw IOError("The optimizer state in '" + path + "' does not fit optimizer '" + opt->name() +
                    "' (different optimizer class or model)");
  for (const auto& [name, var] : options_.variables) {
    if (!root.has("variables/" + name))
      throw IOError("Checkpoint '" + path + "' has no variable '" + name + "'");
    var->assign(root.read_dataset("variables/" + name).astype(var->value().dtype()));
  }
  try {
    save_counter_ = std::stoll(root.string_attr("save_counter"));
  } catch (const std::logic_error&) {
    throw IOError("Checkpoint '" + path + "' has an unreadable save_counter attribute");
  }
}

CheckpointManager::CheckpointManager(Checkpoint& checkpoint, std::string directory, CheckpointManagerOptions options)
    : checkpoint_(&checkpoint), directory_(std::move(directory)), options_(std::move(options)) {
  if (options_.max_to_keep && *options_.max_to_keep < 1)
    throw ValueError(fmt::format("CheckpointManager: max_to_keep must be at least 1 (or unset), got {}",
                                 *options_.max_to_keep));
  for (const auto& path : read_state(directory_).second)
    if (fs::exists(path)) checkpoints_.push_back(path);
}

std::string CheckpointManager::save(std::optional<std::int64_t> checkpoint_number) {
  fs::create_directories(directory_);
  ++checkpoint_->save_counter_;  // as tf's manager does, whether or not a number is given
  const std::int64_t n = checkpoint_number.value_or(checkpoint_->save_counter_);
  const std::string path = (fs::path(directory_) / fmt::format("{}-{}.h5", options_.checkpoint_name, n)).string();
  try {
    checkpoint_->write(path);
  } catch (...) {
    --checkpoint_->save_counter_;
    throw;
  }
  std::erase(checkpoints_, path);
  checkpoints_.push_back(path);
  while (options_.max_to_keep && checkpoints_.size() > static_cast<std::size_t>(*options_.max_to_keep)) {
    std::error_code ignored;
    fs::remove(checkpoints_.front(), ignored);
    checkpoints_.erase(checkpoints_.begin());
  }
  write_state();
  return path;
}

void CheckpointManager::write_state() const {
  std::ostringstream text;
  if (!checkpoints_.empty()) text << state_line("model_checkpoint_path", fs::path(checkpoints_.back()).filename());
  for (const auto& p : checkpoints_) text << state_line("all_model_checkpoint_paths", fs::path(p).filename());
  const fs::path target = fs::path(directory_) / kStateFile;
  const fs::path tmp = target.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text.str();
    out.flush();
    if (!out) throw IOError("Could not write the checkpoint state file " + tmp.string());
  }
  fs::rename(tmp, target);
}

std::optional<std::string> CheckpointManager::latest_checkpoint() const {
  if (checkpoints_.empty()) return std::nullopt;
  return checkpoints_.back();
}

std::optional<std::string> CheckpointManager::restore_or_initialize() {
  auto latest = latest_checkpoint();
  if (latest) checkpoint_->restore(*latest);
  return latest;
}

std::optional<std::string> latest_checkpoint(const std::string& directory) {
  auto [latest, all] = read_state(directory);
  if (latest && fs::exists(*latest)) return latest;
  return std::nullopt;
}

}  // namespace keras::train
