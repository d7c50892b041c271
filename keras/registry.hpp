#pragma once
// Name → factory registries, one per family (layers, losses, metrics, optimizers, initializers,
// regularizers, constraints, activations, Lambda functions): the one way a string identifier or a
// {"class_name", "config"} object becomes an object. A class registers itself from its own source file
// under its Keras class_name and its string aliases ("mse", "adam"). Registration and look-up are
// thread-safe. Custom objects given for one load (CustomObjectScope, keras/saving/custom_objects.hpp)
// are a scope on the calling thread, looked up before the registered names and gone when the scope
// ends; other threads never see them (Keras 3's custom_object_scope is thread-local too).
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
/// A factory of one family, its result type erased.
using AnyFactory = std::function<std::shared_ptr<void>(const json& config)>;
using Scope = std::map<std::string, AnyFactory>;

/// The names of one family; the typed Registry<Base> below is its interface.
class Table {
 public:
  Table();
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  void add(const std::string& class_name, AnyFactory factory, const std::vector<std::string>& aliases);
  bool contains(const std::string& name) const;
  /// The factory of `name` (class name or alias; the calling thread's scopes first); unknown names get a
  /// ValueError naming `family` and listing the valid names.
  AnyFactory find(const std::string& name, const std::string& family) const;
  /// The factory of a Keras identifier: a string, or {"class_name": ..., "config": ...}; with the config
  /// to give it.
  std::pair<AnyFactory, const json*> find_serialized(const json& serialized, const std::string& family) const;
  std::vector<std::string> names() const;
  /// Scopes of the calling thread, innermost last.
  void push_scope(const Scope* scope);
  void pop_scope(const Scope* scope);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The config a factory receives: `config`, or an empty object when it is null.
const json& config_or_empty(const json& config);
const json& empty_config();
}  // namespace registry_detail

template <class Base>
class Registry {
 public:
  using Factory = std::function<std::shared_ptr<Base>(const json& config)>;

  static Registry& instance() {
    static Registry r;
    return r;
  }

  void add(const std::string& class_name, Factory factory, const std::vector<std::string>& aliases = {}) {
    table_.add(class_name, erase(std::move(factory)), aliases);
  }
  bool contains(const std::string& name) const { return table_.contains(name); }

  /// Builds from a class_name or alias and its config; `family` names the family in errors ("loss").
  std::shared_ptr<Base> create(const std::string& name, const json& config, const std::string& family) const {
    return std::static_pointer_cast<Base>(table_.find(name, family)(registry_detail::config_or_empty(config)));
  }
  /// Builds from a string identifier ("adam") with its default config.
  std::shared_ptr<Base> get(const std::string& identifier, const std::string& family) const {
    return create(identifier, registry_detail::empty_config(), family);
  }
  /// Builds from a string identifier or Keras's {"class_name": ..., "config": ...}.
  std::shared_ptr<Base> deserialize(const json& serialized, const std::string& family) const {
    auto [factory, config] = table_.find_serialized(serialized, family);
    return std::static_pointer_cast<Base>(factory(*config));
  }
  std::vector<std::string> names() const { return table_.names(); }

  /// Keeps `factories` visible to this thread's look-ups until pop_scope (CustomObjectScope does both).
  void push_scope(const registry_detail::Scope* factories) { table_.push_scope(factories); }
  void pop_scope(const registry_detail::Scope* factories) { table_.pop_scope(factories); }
  static registry_detail::AnyFactory erase(Factory factory) {
    return [f = std::move(factory)](const json& config) -> std::shared_ptr<void> { return f(config); };
  }

 private:
  registry_detail::Table table_;
};

/// Registers D (which has `static std::shared_ptr<Base> from_config(const json&)`) under `class_name`.
template <class Base, class D>
bool register_class(const std::string& class_name, const std::vector<std::string>& aliases = {}) {
  Registry<Base>::instance().add(class_name, [](const json& c) { return D::from_config(c); }, aliases);
  return true;
}

/// {"class_name": ..., "config": ...} as Keras serializes objects.
json serialize_object(const std::string& class_name, const json& config);

/// The one way an options struct or compile() takes an object of a family: an object (copied), a
/// shared_ptr, or, for a family with string identifiers (Base::get), a Keras identifier such as "mse".
/// A family whose identifiers depend on context (metrics: "accuracy" depends on the loss and shapes)
/// declares `static constexpr bool resolve_identifiers_late = true`; its Ref keeps the identifier and
/// the trainer resolves it.
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
  Ref(const std::string& identifier)
    requires requires(const std::string& s) { Base::get(s); }
      : identifier_(identifier) {
    if constexpr (!late()) p_ = Base::get(identifier);
  }
  Ref(const char* identifier)
    requires requires(const std::string& s) { Base::get(s); }
      : Ref(std::string(identifier)) {}

  Base* operator->() const { return p_.get(); }
  Base& operator*() const { return *p_; }
  const std::shared_ptr<Base>& ptr() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  /// The string identifier it was made from ("mse"; empty when made from an object): a family resolved
  /// late keeps only this until the trainer resolves it; saving writes it back as Keras does.
  const std::string& identifier() const { return identifier_; }

 private:
  static constexpr bool late() {
    if constexpr (requires { Base::resolve_identifiers_late; })
      return Base::resolve_identifiers_late;
    else
      return false;
  }
  std::shared_ptr<Base> p_;
  std::string identifier_;
};

}  // namespace keras
