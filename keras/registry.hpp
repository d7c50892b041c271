#pragma once
// Name → factory registries, one per family (layers, losses, metrics, optimizers, initializers).
// A class registers itself from its own source file under its Keras class_name and its string
// aliases ("mse", "adam"); get_config/from_config and string identifiers go through here.
#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "keras/errors.hpp"
#include "keras/json_fwd.hpp"

namespace keras {

namespace registry_detail {
/// The config a factory receives: `config`, or an empty object when it is null.
const json& config_or_empty(const json& config);
/// The error for a name no factory has, listing the valid ones (`family` is "loss", "optimizer", ...).
[[noreturn]] void throw_unknown(const std::string& family, const std::string& name,
                                const std::vector<std::string>& valid);
}  // namespace registry_detail

template <class Base>
class Registry {
 public:
  using Factory = std::function<std::shared_ptr<Base>(const json& config)>;

  /// The registry of one family; `family` names it in error messages ("loss", "optimizer").
  static Registry& instance() {
    static Registry r;
    return r;
  }

  void add(const std::string& class_name, Factory factory, const std::vector<std::string>& aliases = {}) {
    factories_[class_name] = factory;
    for (const auto& a : aliases) aliases_[a] = class_name;
  }

  bool contains(const std::string& name) const { return factories_.count(name) || aliases_.count(name); }

  /// The factory registered under exactly this class name, or null.
  const Factory* find(const std::string& class_name) const {
    auto it = factories_.find(class_name);
    return it == factories_.end() ? nullptr : &it->second;
  }
  void remove(const std::string& class_name) { factories_.erase(class_name); }

  /// Builds from a class_name or alias; unknown names get an error listing the valid ones.
  std::shared_ptr<Base> create(const std::string& name, const json& config, const std::string& family) const {
    auto alias = aliases_.find(name);
    const std::string& cls = alias == aliases_.end() ? name : alias->second;
    auto it = factories_.find(cls);
    if (it == factories_.end()) registry_detail::throw_unknown(family, name, names());
    return it->second(registry_detail::config_or_empty(config));
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [n, f] : aliases_) out.push_back(n);
    for (const auto& [n, f] : factories_) out.push_back(n);
    return out;
  }

 private:
  std::map<std::string, Factory> factories_;
  std::map<std::string, std::string> aliases_;
};

/// Registers D (which has `static std::shared_ptr<Base> from_config(const json&)`) under `class_name`.
template <class Base, class D>
bool register_class(const std::string& class_name, const std::vector<std::string>& aliases = {}) {
  Registry<Base>::instance().add(class_name, [](const json& c) { return D::from_config(c); }, aliases);
  return true;
}

/// {"class_name": ..., "config": ...} as Keras serializes objects.
json serialize_object(const std::string& class_name, const json& config);

/// A shared Base taken from an object (copied), a shared_ptr, or a Keras string identifier.
/// Used by options structs so that `.loss = "mse"` and `.loss = losses::MeanSquaredError()` both work.
template <class Base>
class Ref {
 public:
  Ref() = default;
  Ref(std::shared_ptr<Base> p) : p_(std::move(p)) {}
  template <class D>
    requires std::derived_from<D, Base>
  Ref(std::shared_ptr<D> p) : p_(std::move(p)) {}
  template <class D>
    requires std::derived_from<std::decay_t<D>, Base> && (!std::is_pointer_v<std::decay_t<D>>)
  Ref(D&& object) : p_(std::make_shared<std::decay_t<D>>(std::forward<D>(object))) {}
  Ref(const std::string& identifier) : p_(Base::get(identifier)) {}
  Ref(const char* identifier) : p_(Base::get(identifier)) {}

  Base* operator->() const { return p_.get(); }
  Base& operator*() const { return *p_; }
  const std::shared_ptr<Base>& ptr() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  std::shared_ptr<Base> p_;
};

}  // namespace keras
