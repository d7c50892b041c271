#pragma once
// Drives a callback's epoch hooks with a scripted training signal on a tiny compiled model.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "keras/keras.hpp"

namespace cbtest {

inline keras::Sequential tiny_model(const std::string& optimizer = "sgd") {
  keras::Sequential m({keras::layers::Input({2}), keras::layers::Dense(1)});
  m.compile({.optimizer = optimizer, .loss = "mse"});
  return m;
}

/// Runs epochs with `key` taking the scripted values; before each epoch's end `before_end(epoch)` runs
/// (e.g. to change the weights). Returns the number of epochs run before stop_training ended it.
template <class F>
int run_epochs(keras::callbacks::Callback& cb, keras::Model& model, const std::string& key,
               const std::vector<double>& values, F before_end) {
  cb.set_model(&model);
  cb.set_params({.epochs = static_cast<int>(values.size()), .steps = 1, .verbose = 0});
  model.stop_training = false;
  keras::Logs logs;
  cb.on_train_begin(logs);
  int epoch = 0;
  for (; epoch < static_cast<int>(values.size()) && !model.stop_training; ++epoch) {
    keras::Logs l;
    cb.on_epoch_begin(epoch, l);
    before_end(epoch);
    keras::Logs end{{"loss", 1.0}, {key, values[static_cast<std::size_t>(epoch)]}};
    cb.on_epoch_end(epoch, end);
  }
  cb.on_train_end(logs);
  return epoch;
}

inline int run_epochs(keras::callbacks::Callback& cb, keras::Model& model, const std::string& key,
                      const std::vector<double>& values) {
  return run_epochs(cb, model, key, values, [](int) {});
}

/// A fresh empty directory under the system's temporary directory.
inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("kerascpp_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

/// The one file of a directory (an event file); fails the test otherwise.
inline std::filesystem::path only_file(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file()) files.push_back(e.path());
  if (files.size() != 1)
    throw std::runtime_error(dir.string() + " holds " + std::to_string(files.size()) + " files, expected one");
  return files[0];
}

}  // namespace cbtest
