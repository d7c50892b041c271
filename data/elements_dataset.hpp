#pragma once
// A dataset over elements already in memory (of any shapes): the windows of group_by_window.
#include <memory>
#include <vector>

#include "data/dataset.hpp"

namespace keras::data::detail {

/// The elements in order; element_spec is `spec` (give -1 dims where the elements differ).
Dataset elements_dataset(std::shared_ptr<const std::vector<Element>> elements, ElementSpec spec);

/// The windows of `input` (as Dataset::window chooses them), each a tuple of the window's elements.
Dataset gathered_windows(const Dataset& input, std::int64_t size, WindowOptions options);

/// An element's components as one string of bytes (dtype, shape and data), for hashing and equality.
std::string element_key(const Element& e);

}  // namespace keras::data::detail
