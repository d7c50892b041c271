// Dataset::batch, padded_batch and unbatch.
#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

std::int64_t batched_cardinality(std::int64_t c, std::int64_t n, bool drop) {
  if (c < 0) return c;
  return drop ? c / n : (c + n - 1) / n;
}

class BatchNode : public UnaryNode<BatchNode> {
 public:
  BatchNode(Dataset input, std::int64_t n, bool drop, std::optional<PaddedBatchOptions> pad, std::int64_t threads = 0,
            std::optional<bool> deterministic = {})
      : UnaryNode(std::move(input)), n_(n), drop_(drop), pad_(std::move(pad)), threads_(threads), deterministic_(deterministic) {
    if (n <= 0) throw ValueError("batch_size must be positive, got " + std::to_string(n));
  }
  std::int64_t cardinality() const override { return batched_cardinality(input_.cardinality(), n_, drop_); }
  ElementSpec element_spec() const override {
    ElementSpec s = batched_spec(input_.element_spec(), drop_ ? n_ : -1);
    if (!pad_) return s;
    auto flat = s.flatten();
    for (std::size_t i = 0; i < flat.size(); ++i) {
      const Shape want = pad_->padded_shapes ? pad_->padded_shapes->flatten().at(i) : Shape(flat[i].shape.size() - 1, -1);
      for (std::size_t d = 0; d < want.size() && d + 1 < flat[i].shape.size(); ++d) flat[i].shape[d + 1] = want[d];
    }
    return s.pack(flat);
  }
  IteratorPtr make_iterator() const override {
    // Gathers the next batch's elements; stacks them here, or (in parallel) yields them as one tuple
    // that the workers of a parallel map stack.
    struct It : IteratorBase {
      const BatchNode* n;
      IteratorPtr input;
      bool gather_only = false;
      std::optional<Element> next() override {
        std::vector<Element> items;
        items.reserve(static_cast<std::size_t>(n->n_));
        while (static_cast<std::int64_t>(items.size()) < n->n_) {
          auto e = input->next();
          if (!e) break;
          items.push_back(std::move(*e));
        }
        if (items.empty() || (n->drop_ && static_cast<std::int64_t>(items.size()) < n->n_)) return std::nullopt;
        return gather_only ? Element::tuple(std::move(items)) : n->combine(items);
      }
      json save() const override { return input->save(); }
      void restore(const json& s) override { input->restore(s); }
    };
    auto it = fresh_iterator<It>();
    if (threads_ <= 1) return it;
    it->gather_only = true;
    return detail::make_parallel_map_iterator(std::move(it), &stack_, threads_, deterministic_);
  }

 private:
  std::int64_t n_;
  bool drop_;
  std::optional<PaddedBatchOptions> pad_;
  std::int64_t threads_;
  std::optional<bool> deterministic_;
  MapFn stack_ = [this](const Element& gathered) { return combine(gathered.children()); };

  Element combine(const std::vector<Element>& items) const {
    const std::size_t k = items[0].flatten().size();
    std::vector<std::vector<Component>> cols(k);
    for (const auto& e : items) {
      if (!e.same_structure(items[0])) throw ValueError("batch: elements have different structures");
      auto f = e.flatten();
      for (std::size_t i = 0; i < k; ++i) cols[i].push_back(std::move(f[i]));
    }
    std::vector<Shape> shapes;
    std::vector<double> values;
    if (pad_ && pad_->padded_shapes) shapes = pad_->padded_shapes->flatten();
    if (pad_ && pad_->padding_values) values = pad_->padding_values->flatten();
    if (pad_ && ((!shapes.empty() && shapes.size() != k) || (!values.empty() && values.size() != k)))
      throw ValueError(fmt::format("padded_batch: padded_shapes/padding_values must have one entry per component ({})", k));
    std::vector<Component> out;
    for (std::size_t i = 0; i < k; ++i)
      out.push_back(pad_ ? Component::pad_stack(cols[i], shapes.empty() ? Shape{} : shapes[i], values.empty() ? 0.0 : values[i])
                         : Component::stack(cols[i], i));
    return items[0].pack(out);
  }
};

class UnbatchNode : public UnaryNode<UnbatchNode> {
 public:
  explicit UnbatchNode(Dataset input) : UnaryNode(std::move(input)) {}
  ElementSpec element_spec() const override { return unbatched_spec(input_.element_spec()); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      IteratorPtr input;
      std::optional<Element> current;
      std::vector<Component> flat;
      std::int64_t row = 0, rows = 0;
      std::optional<Element> next() override {
        while (row >= rows) {
          current = input->next();
          if (!current) return std::nullopt;
          flat = current->flatten();
          rows = flat.at(0).shape().empty() ? -1 : flat[0].shape()[0];
          for (const auto& c : flat)
            if (c.shape().empty() || c.shape()[0] != rows)
              throw ValueError("unbatch: every component needs the same first dimension");
          row = 0;
        }
        std::vector<Component> r;
        for (const auto& c : flat) r.push_back(c.row(row));
        ++row;
        return current->pack(r);
      }
      json save() const override {
        return {{"input", input->save()}, {"row", row}, {"current", current ? element_to_json(*current) : json()}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        row = s.at("row");
        if (s.at("current").is_null()) return;
        current = element_from_json(s["current"]);
        flat = current->flatten();
        rows = flat[0].shape()[0];
      }
    };
    auto it = std::make_unique<It>();
    it->input = input_.node()->make_iterator();
    return it;
  }
};

}  // namespace

Dataset Dataset::batch(std::int64_t n, BatchOptions o) const {
  return Dataset(std::make_shared<BatchNode>(*this, n, o.drop_remainder, std::nullopt,
                                             detail::parallel_calls(o.num_parallel_calls, "batch"), o.deterministic));
}
Dataset Dataset::padded_batch(std::int64_t n, PaddedBatchOptions o) const {
  const bool drop = o.drop_remainder;
  return Dataset(std::make_shared<BatchNode>(*this, n, drop, std::move(o)));
}
Dataset Dataset::unbatch() const { return Dataset(std::make_shared<UnbatchNode>(*this)); }

}  // namespace keras::data
