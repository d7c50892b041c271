#pragma once
// Iterators over a Dataset: the node-level interface every transformation implements, and the
// user-facing Iterator (get_next / get_next_as_optional, save / restore).
#include <memory>
#include <optional>

#include "data/element.hpp"
#include "keras/json_fwd.hpp"

namespace keras::data {

using keras::json;

/// One pass over one node of a pipeline. Made fresh for each pass; owns the iterators of its inputs.
class IteratorBase {
 public:
  virtual ~IteratorBase() = default;
  /// The next element, or nullopt at the end of the pass.
  virtual std::optional<Element> next() = 0;
  /// The position of this pass (and of its inputs), to resume later; throws when not supported.
  virtual json save() const;
  /// Moves a fresh iterator to a position save() returned.
  virtual void restore(const json& state);

 protected:
  /// The name used in "cannot save" messages.
  virtual const char* kind() const { return "this transformation"; }
};

using IteratorPtr = std::unique_ptr<IteratorBase>;

/// An element serialized into json (dtype, shape, bytes) for iterator states.
json element_to_json(const Element& e);
Element element_from_json(const json& j);

/// An iterator over a Dataset, as `iter(dataset)` gives in Python.
class Iterator {
 public:
  /// `keep` holds the pipeline graph alive while the iterator lives.
  explicit Iterator(IteratorPtr impl, std::shared_ptr<const void> keep = {}) : keep_(std::move(keep)), impl_(std::move(impl)) {}
  /// The next element; throws keras::OutOfRangeError at the end (tf's get_next()).
  Element get_next();
  /// The next element, or nullopt at the end (tf's get_next_as_optional()).
  std::optional<Element> get_next_as_optional();
  /// The iterator's position, as json (tf's saveable iterator). Throws for the few transformations that
  /// cannot save (from_generator, a snapshot being written).
  json save() const;
  /// Resumes at a saved position; the iterator must come from the same Dataset.
  void restore(const json& state);

 private:
  std::shared_ptr<const void> keep_;
  IteratorPtr impl_;
};

/// Range-for support: `for (const Element& e : dataset)`.
class ElementIterator {
 public:
  using value_type = Element;
  using difference_type = std::ptrdiff_t;
  ElementIterator() = default;
  ElementIterator(std::shared_ptr<IteratorBase> it, std::shared_ptr<const void> keep) : keep_(std::move(keep)), it_(std::move(it)) {
    ++*this;
  }
  const Element& operator*() const { return *current_; }
  const Element* operator->() const { return &*current_; }
  ElementIterator& operator++() {
    current_ = it_->next();
    if (!current_) it_.reset();
    return *this;
  }
  void operator++(int) { ++*this; }
  bool operator==(const ElementIterator& o) const { return it_ == o.it_; }

 private:
  std::shared_ptr<const void> keep_;
  std::shared_ptr<IteratorBase> it_;
  std::optional<Element> current_;
};

}  // namespace keras::data
