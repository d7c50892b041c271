#pragma once
// What Keras accepts for a model's several inputs or outputs: one value, a list in the order of
// model.inputs / model.outputs, or a map by input/output name: x, y and sample_weight (Arrays), and
// compile's loss and loss_weights (Structure<LossRef>, Structure<double>).
#include <concepts>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keras/errors.hpp"
#include "keras/tensor.hpp"

namespace keras {

namespace structure_detail {
std::string join_names(const std::vector<std::string>& names);
enum class Mismatch { none_given, single_given, list_length, unknown_key, missing_key };
/// The error for `what` ("x", "loss", ...) given to `model` in a form that does not fit its `names`.
[[noreturn]] void throw_mismatch(Mismatch problem, const std::string& model, const std::string& what,
                                 const std::vector<std::string>& names, std::size_t given = 0,
                                 const std::string& key = "");
}  // namespace structure_detail

/// One value, a list (in the order of the model's inputs or outputs) or a map by name.
template <class T>
class Structure {
 public:
  enum class Kind { none, one, list, map };
  Structure() = default;
  template <class U>
    requires std::constructible_from<T, U&&> && (!std::same_as<std::decay_t<U>, Structure>)
  Structure(U&& one) : kind_(Kind::one), list_{T(std::forward<U>(one))} {}  // NOLINT: implicit, as Keras
  Structure(std::initializer_list<T> list) : kind_(Kind::list), list_(list) {}
  Structure(std::vector<T> list) : kind_(Kind::list), list_(std::move(list)) {}  // NOLINT
  Structure(std::initializer_list<std::pair<const std::string, T>> by_name) : kind_(Kind::map), map_(by_name) {}
  Structure(std::map<std::string, T> by_name) : kind_(Kind::map), map_(std::move(by_name)) {}  // NOLINT

  Kind kind() const { return kind_; }
  bool empty() const { return kind_ == Kind::none; }
  /// The single value (kind one).
  const T& one() const { return list_.at(0); }
  const std::vector<T>& list() const { return list_; }
  const std::map<std::string, T>& by_name() const { return map_; }

  /// One entry per name, in the order of `names`. A list must have exactly one item per name; a map may
  /// only use known names (a missing name gives nullopt unless `all_required`); a single value fits one
  /// name, or every name with `broadcast`. `what` ("x", "y", "loss", ...) and `model` name the problem.
  std::vector<std::optional<T>> resolve(const std::vector<std::string>& names, const std::string& what,
                                        const std::string& model, bool broadcast, bool all_required) const {
    std::vector<std::optional<T>> out(names.size());
    switch (kind_) {
      case Kind::none:
        if (all_required)
          structure_detail::throw_mismatch(structure_detail::Mismatch::none_given, model, what, names);
        break;
      case Kind::one:
        if (names.size() != 1 && !broadcast)
          structure_detail::throw_mismatch(structure_detail::Mismatch::single_given, model, what, names);
        for (auto& o : out) o = list_[0];
        break;
      case Kind::list:
        if (list_.size() != names.size())
          structure_detail::throw_mismatch(structure_detail::Mismatch::list_length, model, what, names, list_.size());
        for (std::size_t i = 0; i < names.size(); ++i) out[i] = list_[i];
        break;
      case Kind::map:
        for (const auto& [key, value] : map_) {
          std::size_t i = 0;
          while (i < names.size() && names[i] != key) ++i;
          if (i == names.size())
            structure_detail::throw_mismatch(structure_detail::Mismatch::unknown_key, model, what, names, 0, key);
          out[i] = value;
        }
        for (std::size_t i = 0; i < names.size() && all_required; ++i)
          if (!out[i])
            structure_detail::throw_mismatch(structure_detail::Mismatch::missing_key, model, what, names, 0, names[i]);
        break;
    }
    return out;
  }

 private:
  Kind kind_ = Kind::none;
  std::vector<T> list_;
  std::map<std::string, T> map_;
};

/// Arrays for x, y or sample_weight: one Tensor, a list in model.inputs / model.outputs order, or a map by name.
using Arrays = Structure<Tensor>;

}  // namespace keras
