// Dataset::rebatch: the rows of batched elements regrouped into batches of new sizes (cycled through),
// crossing input batch boundaries.
#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class RebatchNode : public UnaryNode<RebatchNode> {
 public:
  RebatchNode(Dataset input, std::vector<std::int64_t> sizes, bool drop) : UnaryNode(std::move(input)), sizes_(std::move(sizes)), drop_(drop) {
    if (sizes_.empty()) throw ValueError("rebatch: batch_size must be a positive number or a non-empty list of them");
    for (auto s : sizes_)
      if (s <= 0) throw ValueError(fmt::format("rebatch: batch sizes must be positive, got {}", s));
    for (const auto& t : input_.element_spec().flatten())
      if (t.shape.empty())
        throw ValueError("rebatch: the input's elements must be batched (every component needs a first axis); got " +
                         spec_str(input_.element_spec()) + ". batch() it first");
  }
  ElementSpec element_spec() const override {
    const bool fixed = drop_ && std::all_of(sizes_.begin(), sizes_.end(), [&](auto s) { return s == sizes_[0]; });
    return batched_spec(unbatched_spec(input_.element_spec()), fixed ? sizes_[0] : -1);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const RebatchNode* n;
      IteratorPtr input;
      std::optional<Element> current;  // the input batch rows are taken from
      std::int64_t row = 0, rows = 0;
      std::size_t which = 0;  // index into sizes
      bool ended = false;
      bool load() {
        current = input->next();
        if (!current) {
          ended = true;
          return false;
        }
        const auto flat = current->flatten();
        rows = flat.at(0).shape().at(0);
        for (const auto& c : flat)
          if (c.shape().empty() || c.shape()[0] != rows)
            throw ValueError("rebatch: every component of an input batch needs the same first dimension");
        row = 0;
        return true;
      }
      std::optional<Element> next() override {
        const std::int64_t want = n->sizes_[which];
        std::vector<std::vector<Component>> parts;
        std::optional<Element> structure;
        std::int64_t have = 0;
        while (have < want) {
          if (!current || row >= rows) {
            if (ended || !load()) break;
            continue;
          }
          const std::int64_t take = std::min(want - have, rows - row);
          const auto flat = current->flatten();
          if (parts.empty()) parts.resize(flat.size());
          for (std::size_t k = 0; k < flat.size(); ++k) parts[k].push_back(flat[k].rows(row, row + take));
          structure = current;
          row += take;
          have += take;
        }
        if (have == 0 || (n->drop_ && have < want)) return std::nullopt;
        which = (which + 1) % n->sizes_.size();
        std::vector<Component> out;
        for (auto& p : parts) out.push_back(p.size() == 1 ? p[0] : Component::concat(p));
        return structure->pack(out);
      }
      json save() const override {
        return {{"input", input->save()}, {"row", row}, {"which", which}, {"ended", ended},
                {"current", current ? element_to_json(*current) : json()}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        row = s.at("row");
        which = s.at("which");
        ended = s.at("ended");
        current.reset();
        rows = 0;
        if (!s.at("current").is_null()) {
          current = element_from_json(s["current"]);
          rows = current->flatten().at(0).shape().at(0);
        }
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  std::vector<std::int64_t> sizes_;
  bool drop_;
};

}  // namespace

Dataset Dataset::rebatch(std::int64_t batch_size, bool drop_remainder) const {
  return rebatch(std::vector<std::int64_t>{batch_size}, drop_remainder);
}
Dataset Dataset::rebatch(std::vector<std::int64_t> batch_sizes, bool drop_remainder) const {
  return Dataset(std::make_shared<RebatchNode>(*this, std::move(batch_sizes), drop_remainder));
}

}  // namespace keras::data
