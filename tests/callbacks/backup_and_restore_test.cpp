#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"

using namespace keras;
using callbacks::BackupAndRestore;
using callbacks::BackupAndRestoreOptions;
namespace fs = std::filesystem;

extern char** environ;

namespace {

// The training run of the kill-and-resume test: a small dropout MLP, shuffled batches, Adam, one thread,
// a fixed seed. Settings come from the environment; the final weights are written as raw floats.
std::vector<float> train_child(const fs::path& backup_dir, std::int64_t kill_at, const std::string& save_freq) {
  utils::set_num_threads(1);
  utils::set_random_seed(7);
  Sequential m({layers::Input({4}), layers::Dense(16, {.activation = "relu"}), layers::Dropout(0.3), layers::Dense(2)});
  m.compile({.optimizer = optimizers::Adam({.learning_rate = 0.01}), .loss = "mse"});
  std::vector<float> xs, ys;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 4; ++j) xs.push_back(static_cast<float>(((i * 7 + j * 3) % 11) - 5) / 5.f);
    ys.push_back(static_cast<float>(i % 3));
    ys.push_back(static_cast<float>((i * 5) % 4) / 4.f);
  }
  std::int64_t seen = 0;
  BackupAndRestoreOptions opts;
  if (save_freq != "epoch") opts.save_freq = std::int64_t{std::stoll(save_freq)};
  m.fit(Tensor::from_vector(xs, {64, 4}), Tensor::from_vector(ys, {64, 2}),
        {.batch_size = 8, .epochs = 4, .verbose = 0,
         .callbacks = {BackupAndRestore(backup_dir.string(), opts),
                       callbacks::LambdaCallback({.on_batch_end = [&](std::int64_t, Logs&) {
                         if (++seen == kill_at) ::kill(::getpid(), SIGKILL);  // no cleanup, no flush: a crash
                       }})}});
  std::vector<float> out;
  for (const auto& w : m.get_weights())
    for (float v : w.to_vector<float>()) out.push_back(v);
  return out;
}

// Runs this test executable's hidden child test case with the given settings; returns the wait status.
int run_child(const fs::path& backup_dir, const fs::path& out, std::int64_t kill_at, const std::string& save_freq) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  env_strings.push_back("KERAS_BR_DIR=" + backup_dir.string());
  env_strings.push_back("KERAS_BR_OUT=" + out.string());
  env_strings.push_back("KERAS_BR_KILL_AT=" + std::to_string(kill_at));
  env_strings.push_back("KERAS_BR_SAVE_FREQ=" + save_freq);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::string name = "BackupAndRestore child run";
  char* argv[] = {const_cast<char*>(self.c_str()), name.data(), nullptr};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execve(self.c_str(), argv, envp.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

std::vector<float> read_floats(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<float> v(static_cast<std::size_t>(fs::file_size(p)) / sizeof(float));
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
  return v;
}

}  // namespace

TEST_CASE("BackupAndRestore child run", "[.backup_child]") {
  const char* dir = std::getenv("KERAS_BR_DIR");
  if (!dir) return;
  const auto weights = train_child(dir, std::stoll(std::getenv("KERAS_BR_KILL_AT")), std::getenv("KERAS_BR_SAVE_FREQ"));
  std::ofstream out(std::getenv("KERAS_BR_OUT"), std::ios::binary);
  out.write(reinterpret_cast<const char*>(weights.data()), static_cast<std::streamsize>(weights.size() * sizeof(float)));
}

TEST_CASE("BackupAndRestore: a process SIGKILLed mid-training resumes and ends with the uninterrupted weights",
          "[backup_and_restore]") {
  const auto dir = cbtest::temp_dir("backup_kill");
  REQUIRE(run_child(dir / "backup_a", dir / "a.bin", -1, "epoch") == 0);
  const auto uninterrupted = read_floats(dir / "a.bin");
  REQUIRE(uninterrupted.size() == 4 * 16 + 16 + 16 * 2 + 2);
  CHECK_FALSE(fs::exists(dir / "backup_a"));  // deleted when training ended

  for (const auto& [save_freq, kill_at] : std::vector<std::pair<std::string, int>>{{"5", 13}, {"epoch", 20}}) {
    INFO("save_freq " << save_freq << ", killed after batch " << kill_at);
    const auto backup = dir / ("backup_" + save_freq);
    const int killed = run_child(backup, dir / "b.bin", kill_at, save_freq);
    REQUIRE(WIFSIGNALED(killed));
    CHECK(WTERMSIG(killed) == SIGKILL);
    CHECK(fs::exists(backup / "backup.h5"));
    CHECK_FALSE(fs::exists(dir / "b.bin"));
    REQUIRE(run_child(backup, dir / "b.bin", -1, save_freq) == 0);
    CHECK(read_floats(dir / "b.bin") == uninterrupted);  // bit for bit
    CHECK_FALSE(fs::exists(backup));
    fs::remove(dir / "b.bin");
  }
  fs::remove_all(dir);
}

TEST_CASE("BackupAndRestore restores weights, optimizer state and position into a new model", "[backup_and_restore]") {
  const auto dir = cbtest::temp_dir("backup_state");
  const Tensor x = Tensor::ones({8, 2}), y = Tensor::zeros({8, 1});
  auto m = cbtest::tiny_model("adam");
  BackupAndRestore keep((dir / "b").string(), {.delete_checkpoint = false});
  m.fit(x, y, {.batch_size = 4, .epochs = 2, .verbose = 0, .callbacks = {keep}});
  REQUIRE(fs::exists(dir / "b/backup.h5"));

  auto fresh = cbtest::tiny_model("adam");
  auto restorer = std::make_shared<BackupAndRestore>((dir / "b").string(), BackupAndRestoreOptions{.delete_checkpoint = false});
  std::vector<Tensor> at_start;
  std::int64_t iterations_at_start = -1;
  auto probe = callbacks::LambdaCallback({.on_epoch_begin = [&](int, Logs&) {
    if (at_start.empty()) {
      at_start = fresh.get_weights();
      iterations_at_start = fresh.optimizer().iterations();
    }
  }});
  auto h = fresh.fit(x, y, {.batch_size = 4, .epochs = 3, .verbose = 0, .callbacks = {restorer, probe}});
  CHECK(restorer->restored());
  CHECK(restorer->restored_epoch() == 2);
  CHECK(restorer->restored_step() == 0);
  CHECK(h.epoch == std::vector<int>{2});  // only the epoch left
  CHECK(iterations_at_start == 4);
  for (std::size_t i = 0; i < at_start.size(); ++i) CHECK(at_start[i].to_vector<float>() == m.get_weights()[i].to_vector<float>());
  CHECK(fresh.optimizer().iterations() == 6);

  // A backup of another architecture is refused with a message that says what to do.
  Sequential other({layers::Input({3}), layers::Dense(5)});
  other.compile({.optimizer = "adam", .loss = "mse"});
  CHECK_THROWS_WITH(other.fit(Tensor::ones({4, 3}), Tensor::zeros({4, 5}),
                              {.verbose = 0, .callbacks = {BackupAndRestore((dir / "b").string())}}),
                    Catch::Contains("another backup_dir"));
  CHECK_THROWS_AS(BackupAndRestore("x", {.save_freq = std::string("sometimes")}), ValueError);
  fs::remove_all(dir);
}
