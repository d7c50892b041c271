#include "callbacks/backup_and_restore.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "keras/model.hpp"
#include "optimizers/optimizer.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/utils/random.hpp"

namespace keras::callbacks {
namespace {

std::string rng_state() {
  std::ostringstream s;
  s << utils::random_generator();
  return s.str();
}

void set_rng_state(const std::string& state, const std::string& path) {
  std::istringstream s(state);
  std::mt19937_64 gen;
  if (!(s >> gen)) throw IOError("The random generator state in the backup '" + path + "' is unreadable");
  utils::random_generator() = gen;
}

std::vector<std::shared_ptr<Variable>> trainable(const Model& m) { return m.trainable_weights(); }

}  // namespace

BackupAndRestore::BackupAndRestore(std::string backup_dir, BackupAndRestoreOptions options)
    : backup_dir_(std::move(backup_dir)), o_(std::move(options)) {
  if (backup_dir_.empty()) throw ValueError("BackupAndRestore needs a backup_dir");
  every_ = o_.save_freq.batches("BackupAndRestore's save_freq");
}

std::string BackupAndRestore::backup_path() const { return (std::filesystem::path(backup_dir_) / "backup.h5").string(); }

void BackupAndRestore::on_train_begin(Logs&) {
  restored_ = false;
  batches_since_save_ = 0;
  if (std::filesystem::exists(backup_path())) restore();
  rng_at_epoch_start_ = restored_ ? rng_at_epoch_start_ : rng_state();
}

void BackupAndRestore::on_epoch_begin(int epoch, Logs&) {
  current_epoch_ = epoch;
  // The epoch's sample order was drawn from the restored epoch-start state; the batches that follow the
  // backup continue from the generator state at the backup (dropout masks).
  if (restored_ && restored_step_ > 0 && epoch == restored_epoch_) set_rng_state(rng_mid_epoch_, backup_path());
}

void BackupAndRestore::on_train_batch_end(std::int64_t batch, Logs&) {
  if (every_ == 0 || ++batches_since_save_ < every_) return;
  batches_since_save_ = 0;
  save(current_epoch_, batch + 1);
}

void BackupAndRestore::on_epoch_end(int epoch, Logs&) {
  rng_at_epoch_start_ = rng_state();  // what the next epoch shuffles with
  if (every_ == 0) save(epoch + 1, 0);
}

void BackupAndRestore::on_train_end(Logs&) {
  if (!o_.delete_checkpoint) return;
  std::error_code ignored;
  std::filesystem::remove_all(backup_dir_, ignored);
}

void BackupAndRestore::save(int epoch, std::int64_t step) {
  std::filesystem::create_directories(backup_dir_);
  Model& m = model();
  saving::write_atomically(backup_path(), [&](hdf5::File& file) {
    hdf5::Group root = file.root();
    root.set_string_attr("epoch", std::to_string(epoch));
    root.set_string_attr("step", std::to_string(step));
    root.set_string_attr("rng_at_epoch_start", rng_at_epoch_start_);
    root.set_string_attr("rng", rng_state());
    const auto weights = m.weights();
    for (std::size_t i = 0; i < weights.size(); ++i) root.write_dataset(fmt::format("weights/{}", i), weights[i]->value());
    if (!m.compiled()) return;
    auto& opt = m.optimizer();
    root.write_dataset("optimizer/iterations", Tensor::full({}, double(opt.iterations_variable()), DType::int64));
    if (!opt.learning_rate_schedule()) root.set_string_attr("learning_rate", fmt::format("{}", opt.learning_rate()));
    const auto vars = trainable(m);
    for (std::size_t i = 0; i < vars.size(); ++i)
      for (const auto& [slot, v] : opt.slots_of(*vars[i])) root.write_dataset(fmt::format("optimizer/{}/{}", i, slot), v->value());
  });
}

void BackupAndRestore::restore() {
  const std::string path = backup_path();
  hdf5::File file = hdf5::File::open(path);
  const hdf5::Group root = file.root();
  Model& m = model();
  const auto weights = m.weights();
  const hdf5::Group w = root.open_group("weights");
  if (w.children().size() != weights.size())
    throw ValueError(fmt::format("The backup '{}' holds {} weights but model '{}' has {}: it belongs to another model; "
                                 "delete it or use another backup_dir", path, w.children().size(), m.name(), weights.size()));
  for (std::size_t i = 0; i < weights.size(); ++i) {
    Tensor value = w.read_dataset(std::to_string(i)).astype(weights[i]->value().dtype());
    if (value.shape() != weights[i]->shape())
      throw ValueError(fmt::format("The backup '{}' holds weight {} of shape {} but '{}' has shape {}; delete the backup or "
                                   "use another backup_dir", path, i, shape_str(value.shape()), weights[i]->name(),
                                   shape_str(weights[i]->shape())));
    weights[i]->assign(value);
  }
  if (m.compiled() && root.has("optimizer")) {
    auto& opt = m.optimizer();
    const hdf5::Group o = root.open_group("optimizer");
    const auto vars = trainable(m);
    opt.build(vars);
    for (std::size_t i = 0; i < vars.size(); ++i)
      for (const auto& [slot, v] : opt.slots_of(*vars[i])) {
        const std::string name = fmt::format("{}/{}", i, slot);
        if (o.has(name)) v->assign(o.read_dataset(name).astype(v->value().dtype()));
      }
    opt.set_iterations_variable(static_cast<std::int64_t>(o.read_dataset("iterations").item()));
    if (root.has_attr("learning_rate") && !opt.learning_rate_schedule())
      opt.set_learning_rate(std::stod(root.string_attr("learning_rate")));
  }
  restored_epoch_ = std::stoi(root.string_attr("epoch"));
  restored_step_ = std::stoll(root.string_attr("step"));
  rng_at_epoch_start_ = root.string_attr("rng_at_epoch_start");
  rng_mid_epoch_ = root.string_attr("rng");
  set_rng_state(rng_at_epoch_start_, path);
  restored_ = true;
  m.resume_from = Model::ResumePoint{.epoch = restored_epoch_, .step = restored_step_};
}

}  // namespace keras::callbacks
