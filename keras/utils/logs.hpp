#pragma once
// Logs: metric name → value, in insertion order (the dict Keras passes to callbacks).
#include <string>
#include <utility>
#include <vector>

#include "keras/errors.hpp"

namespace keras {

class Logs {
 public:
  using Item = std::pair<std::string, double>;
  Logs() = default;
  Logs(std::initializer_list<Item> items) : items_(items) {}

  /// The value for `key`, inserted as 0 when absent.
  double& operator[](const std::string& key) {
    for (auto& [k, v] : items_)
      if (k == key) return v;
    items_.emplace_back(key, 0.0);
    return items_.back().second;
  }
  double at(const std::string& key) const {
    for (const auto& [k, v] : items_)
      if (k == key) return v;
    throw ValueError("No log entry named '" + key + "'; available: " + keys_str());
  }
  bool contains(const std::string& key) const {
    for (const auto& [k, v] : items_)
      if (k == key) return true;
    return false;
  }
  void erase(const std::string& key) {
    std::erase_if(items_, [&](const Item& i) { return i.first == key; });
  }
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  std::string keys_str() const {
    std::string s;
    for (const auto& [k, v] : items_) s += (s.empty() ? "" : ", ") + k;
    return s.empty() ? "(none)" : s;
  }

 private:
  std::vector<Item> items_;
};

}  // namespace keras
