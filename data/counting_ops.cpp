// Transformations that count or select elements: repeat, take, skip, filter, shard, enumerate,
// concatenate; and reduce.
#include "data/unary_node.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class RepeatNode : public UnaryNode<RepeatNode> {
 public:
  RepeatNode(Dataset input, std::int64_t count) : UnaryNode(std::move(input)), count_(count) {}
  std::int64_t cardinality() const override {
    const auto c = input_.cardinality();
    if (count_ == 0 || c == 0) return 0;
    if (count_ < 0) return INFINITE_CARDINALITY;  // as tf: even when the input's count is unknown
    return c < 0 ? c : c * count_;
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const RepeatNode* n;
      IteratorPtr input;
      std::int64_t epoch = 0;
      std::optional<Element> next() override {
        while (n->count_ < 0 || epoch < n->count_) {
          if (!input) input = n->input_.node()->make_iterator();
          auto e = input->next();
          if (e) {
            fresh = false;
            return e;
          }
          if (fresh) return std::nullopt;  // an empty input would loop forever
          ++epoch;
          input.reset();
          fresh = true;
        }
        return std::nullopt;
      }
      bool fresh = true;
      json save() const override { return {{"epoch", epoch}, {"fresh", fresh}, {"input", input ? input->save() : json()}}; }
      void restore(const json& s) override {
        epoch = s.at("epoch");
        fresh = s.at("fresh");
        input.reset();
        if (!s.at("input").is_null()) {
          input = n->input_.node()->make_iterator();
          input->restore(s["input"]);
        }
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    return it;
  }

 private:
  std::int64_t count_;
};

// take (limit >= 0) and skip (skip >= 0) share one node: skip `skip` elements, then yield at most `limit`.
class TakeSkipNode : public UnaryNode<TakeSkipNode> {
 public:
  TakeSkipNode(Dataset input, std::int64_t skip, std::int64_t limit) : UnaryNode(std::move(input)), skip_(skip), limit_(limit) {}
  std::int64_t cardinality() const override {
    const auto c = input_.cardinality();
    if (c == INFINITE_CARDINALITY) return limit_ >= 0 ? limit_ : c;
    if (c < 0) return limit_ == 0 ? 0 : c;
    const auto rest = std::max<std::int64_t>(0, c - skip_);
    return limit_ >= 0 ? std::min(rest, limit_) : rest;
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const TakeSkipNode* n;
      IteratorPtr input;
      std::int64_t skipped = 0, taken = 0;
      std::optional<Element> next() override {
        if (n->limit_ >= 0 && taken >= n->limit_) return std::nullopt;
        for (; skipped < n->skip_; ++skipped)
          if (!input->next()) return std::nullopt;
        auto e = input->next();
        if (e) ++taken;
        return e;
      }
      json save() const override { return {{"skipped", skipped}, {"taken", taken}, {"input", input->save()}}; }
      void restore(const json& s) override {
        skipped = s.at("skipped");
        taken = s.at("taken");
        input->restore(s.at("input"));
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  std::int64_t skip_, limit_;
};

// filter (predicate) and shard (every num-th element from index) select elements.
class SelectNode : public UnaryNode<SelectNode> {
 public:
  SelectNode(Dataset input, PredicateFn pred, std::int64_t num, std::int64_t index)
      : UnaryNode(std::move(input)), pred_(std::move(pred)), num_(num), index_(index) {}
  std::int64_t cardinality() const override {
    const auto c = input_.cardinality();
    if (pred_ || c < 0) return c == INFINITE_CARDINALITY ? c : UNKNOWN_CARDINALITY;
    return c / num_ + (c % num_ > index_ ? 1 : 0);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const SelectNode* n;
      IteratorPtr input;
      std::int64_t pos = 0;
      std::optional<Element> next() override {
        for (;;) {
          auto e = input->next();
          if (!e) return e;
          const std::int64_t i = pos++;
          if (n->pred_ ? n->pred_(*e) : i % n->num_ == n->index_) return e;
        }
      }
      json save() const override { return {{"pos", pos}, {"input", input->save()}}; }
      void restore(const json& s) override {
        pos = s.at("pos");
        input->restore(s.at("input"));
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  PredicateFn pred_;
  std::int64_t num_, index_;
};

class ConcatenateNode : public DatasetNode {
 public:
  ConcatenateNode(Dataset a, Dataset b) : a_(std::move(a)), b_(std::move(b)) {}
  std::vector<const DatasetNode*> inputs() const override { return {a_.node().get(), b_.node().get()}; }
  std::int64_t cardinality() const override {
    const auto x = a_.cardinality(), y = b_.cardinality();
    if (x == INFINITE_CARDINALITY || y == INFINITE_CARDINALITY) return INFINITE_CARDINALITY;
    return (x < 0 || y < 0) ? UNKNOWN_CARDINALITY : x + y;
  }
  ElementSpec element_spec() const override { return merge_specs(a_.element_spec(), b_.element_spec()); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      IteratorPtr a, b;
      bool second = false;
      std::optional<Element> next() override {
        if (!second) {
          if (auto e = a->next()) return e;
          second = true;
        }
        return b->next();
      }
      json save() const override { return {{"second", second}, {"a", a->save()}, {"b", b->save()}}; }
      void restore(const json& s) override {
        second = s.at("second");
        a->restore(s.at("a"));
        b->restore(s.at("b"));
      }
    };
    auto it = std::make_unique<It>();
    it->a = a_.node()->make_iterator();
    it->b = b_.node()->make_iterator();
    return it;
  }

 private:
  Dataset a_, b_;
};

}  // namespace

Dataset Dataset::repeat(std::int64_t count) const { return Dataset(std::make_shared<RepeatNode>(*this, count)); }
Dataset Dataset::take(std::int64_t count) const { return Dataset(std::make_shared<TakeSkipNode>(*this, 0, count)); }
Dataset Dataset::skip(std::int64_t count) const {
  return Dataset(std::make_shared<TakeSkipNode>(*this, count < 0 ? INT64_MAX : count, -1));
}
Dataset Dataset::filter(PredicateFn predicate) const {
  if (!predicate) throw ValueError("filter needs a predicate");
  return Dataset(std::make_shared<SelectNode>(*this, std::move(predicate), 1, 0));
}
Dataset Dataset::shard(std::int64_t num_shards, std::int64_t index) const {
  if (num_shards <= 0 || index < 0 || index >= num_shards)
    throw ValueError("shard: need num_shards > 0 and 0 <= index < num_shards, got num_shards=" + std::to_string(num_shards) +
                     ", index=" + std::to_string(index));
  return Dataset(std::make_shared<SelectNode>(*this, nullptr, num_shards, index));
}
Dataset Dataset::concatenate(const Dataset& other) const {
  return Dataset(std::make_shared<ConcatenateNode>(*this, other));
}

Dataset Dataset::enumerate(std::int64_t start) const {
  return zip({range(start, INT64_MAX), *this});
}

Element Dataset::reduce(const Element& initial, const ReduceFn& fn) const {
  if (cardinality() == INFINITE_CARDINALITY) throw ValueError("reduce over an infinite dataset never ends; take() first");
  Element state = initial;
  for (const Element& e : *this) state = fn(state, e);
  return state;
}

}  // namespace keras::data
