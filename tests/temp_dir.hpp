#pragma once
// A fresh folder under the system's temporary directory, removed when the object goes.
#include <filesystem>
#include <string>

#include <unistd.h>

namespace keras_test {

class TempDir {
 public:
  explicit TempDir(const std::string& name = "test")
      : path_(std::filesystem::temp_directory_path() /
              ("kerascpp_" + name + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return file(name); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path path_;
};

}  // namespace keras_test
