#include "data/elements_dataset.hpp"

#include <cstring>

#include "keras/json.hpp"

namespace keras::data::detail {
namespace {

class ElementsNode : public DatasetNode {
 public:
  ElementsNode(std::shared_ptr<const std::vector<Element>> e, ElementSpec spec) : e_(std::move(e)), spec_(std::move(spec)) {}
  std::int64_t cardinality() const override { return static_cast<std::int64_t>(e_->size()); }
  ElementSpec element_spec() const override { return spec_; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::shared_ptr<const std::vector<Element>> e;
      std::size_t i = 0;
      std::optional<Element> next() override {
        if (i >= e->size()) return std::nullopt;
        return (*e)[i++];
      }
      json save() const override { return {{"i", i}}; }
      void restore(const json& s) override { i = s.at("i"); }
    };
    auto it = std::make_unique<It>();
    it->e = e_;
    return it;
  }

 private:
  std::shared_ptr<const std::vector<Element>> e_;
  ElementSpec spec_;
};

}  // namespace

Dataset elements_dataset(std::shared_ptr<const std::vector<Element>> elements, ElementSpec spec) {
  return Dataset(std::make_shared<ElementsNode>(std::move(elements), std::move(spec)));
}

std::string element_key(const Element& e) {
  std::string key;
  for (const Component& c : e.flatten()) {
    key += c.dtype_name() + shape_str(c.shape()) + '|';
    if (c.is_string()) {
      for (const auto& s : c.string_values()) {
        const std::uint64_t n = s.size();
        key.append(reinterpret_cast<const char*>(&n), sizeof n);
        key += s;
      }
    } else {
      key.append(static_cast<const char*>(c.tensor().raw_data()), c.tensor().nbytes());
    }
  }
  return key;
}

}  // namespace keras::data::detail
