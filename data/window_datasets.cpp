// Dataset::window_datasets: tf.data's window as a dataset of datasets, consumed by flat_map/interleave
// (as Keras and tf code write `ds.window(n, shift).flat_map(lambda w: w.batch(n))`).
#include <memory>

#include "data/dataset.hpp"
#include "data/elements_dataset.hpp"

namespace keras::data {

WindowDataset Dataset::window_datasets(std::int64_t size, WindowOptions options) const {
  return WindowDataset(detail::gathered_windows(*this, size, options), element_spec());
}

Dataset WindowDataset::window_of(const Element& gathered) const {
  return detail::elements_dataset(std::make_shared<const std::vector<Element>>(gathered.children()), spec_);
}

Dataset WindowDataset::flat_map(WindowFn fn) const {
  if (!fn) throw ValueError("window_datasets(...).flat_map needs a function of a window Dataset");
  auto self = *this;
  return gathered_.flat_map([self, fn](const Element& g) { return fn(self.window_of(g)); });
}

Dataset WindowDataset::interleave(WindowFn fn, InterleaveOptions options) const {
  if (!fn) throw ValueError("window_datasets(...).interleave needs a function of a window Dataset");
  auto self = *this;
  return gathered_.interleave([self, fn](const Element& g) { return fn(self.window_of(g)); }, options);
}

std::vector<Dataset> WindowDataset::windows() const {
  if (cardinality() == INFINITE_CARDINALITY) throw ValueError("windows(): the input is infinite; take() a finite part first");
  std::vector<Dataset> out;
  for (const Element& g : gathered_) out.push_back(window_of(g));
  return out;
}

Dataset WindowDataset::component(const Dataset& window, std::size_t index) {
  return window.map([index](const Element& e) { return e[index]; });
}

Dataset WindowDataset::component(const Dataset& window, const std::string& name) {
  return window.map([name](const Element& e) { return e[name]; });
}

}  // namespace keras::data
