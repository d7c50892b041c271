#include "keras/registry.hpp"

#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "keras/json.hpp"

namespace keras {

namespace registry_detail {

struct Table::State {
  mutable std::shared_mutex mutex;
  std::map<std::string, AnyFactory> factories;
  std::map<std::string, std::string> aliases;
};

namespace {
/// Each thread's scopes, per table, innermost last.
thread_local std::map<const Table*, std::vector<const Scope*>> thread_scopes;

[[noreturn]] void throw_unknown(const std::string& family, const std::string& name,
                                const std::vector<std::string>& valid) {
  std::string list;
  for (const auto& n : valid) list += (list.empty() ? "" : ", ") + n;
  throw ValueError("Unknown " + family + ": '" + name + "'. Valid " + family + " identifiers are: " + list +
                   ". A custom class must be registered by name first (KERAS_REGISTER_LAYER, register_class) "
                   "or given as custom_objects.");
}
}  // namespace

Table::Table() : state_(std::make_unique<State>()) {}
Table::~Table() = default;

void Table::add(const std::string& class_name, AnyFactory factory, const std::vector<std::string>& aliases) {
  std::unique_lock lock(state_->mutex);
  state_->factories[class_name] = std::move(factory);
  for (const auto& a : aliases) state_->aliases[a] = class_name;
}

bool Table::contains(const std::string& name) const {
  if (auto it = thread_scopes.find(this); it != thread_scopes.end())
    for (const Scope* scope : it->second)
      if (scope->count(name)) return true;
  std::shared_lock lock(state_->mutex);
  return state_->factories.count(name) || state_->aliases.count(name);
}

AnyFactory Table::find(const std::string& name, const std::string& family) const {
  if (auto it = thread_scopes.find(this); it != thread_scopes.end())
    for (auto scope = it->second.rbegin(); scope != it->second.rend(); ++scope)
      if (auto f = (*scope)->find(name); f != (*scope)->end()) return f->second;
  {
    std::shared_lock lock(state_->mutex);
    auto alias = state_->aliases.find(name);
    const std::string& cls = alias == state_->aliases.end() ? name : alias->second;
    if (auto f = state_->factories.find(cls); f != state_->factories.end()) return f->second;
  }
  throw_unknown(family, name, names());
}

std::pair<AnyFactory, const json*> Table::find_serialized(const json& serialized, const std::string& family) const {
  if (serialized.is_string()) return {find(serialized.get<std::string>(), family), &empty_config()};
  if (!serialized.is_object() || !serialized.contains("class_name") || !serialized["class_name"].is_string())
    throw ValueError("Cannot read a " + family + " from " + serialized.dump().substr(0, 200) +
                     ": expected a string identifier or {\"class_name\", \"config\"}");
  auto config = serialized.find("config");
  const std::string& class_name = serialized["class_name"].get_ref<const std::string&>();
  // Keras 3 writes a built-in function (a loss, a metric, an activation) as
  // {"module": "keras.losses", "class_name": "function", "config": "mean_squared_error", ...}.
  if (class_name == "function" && config != serialized.end() && config->is_string())
    return {find(config->get<std::string>(), family), &empty_config()};
  // Keras 3's registered_name ("package>Name") names a class registered under a key of its own; the
  // module is informative only. Built-ins are found by class_name.
  auto registered = serialized.find("registered_name");
  if (!contains(class_name) && registered != serialized.end() && registered->is_string() &&
      contains(registered->get<std::string>()))
    return {find(registered->get<std::string>(), family),
            config == serialized.end() ? &empty_config() : &config_or_empty(*config)};
  return {find(class_name, family), config == serialized.end() ? &empty_config() : &config_or_empty(*config)};
}

std::vector<std::string> Table::names() const {
  std::vector<std::string> out;
  if (auto it = thread_scopes.find(this); it != thread_scopes.end())
    for (const Scope* scope : it->second)
      for (const auto& [n, f] : *scope) out.push_back(n);
  std::shared_lock lock(state_->mutex);
  for (const auto& [n, c] : state_->aliases) out.push_back(n);
  for (const auto& [n, f] : state_->factories) out.push_back(n);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void Table::push_scope(const Scope* scope) { thread_scopes[this].push_back(scope); }

void Table::pop_scope(const Scope* scope) {
  auto& scopes = thread_scopes[this];
  scopes.erase(std::find(scopes.begin(), scopes.end(), scope));
  if (scopes.empty()) thread_scopes.erase(this);
}

const json& empty_config() {
  static const json empty = json::object();
  return empty;
}

const json& config_or_empty(const json& config) { return config.is_null() ? empty_config() : config; }

}  // namespace registry_detail

json serialize_object(const std::string& class_name, const json& config) {
  return json{{"class_name", class_name}, {"config", config}};
}

}  // namespace keras
