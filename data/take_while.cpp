// Dataset::take_while: elements while a predicate holds; the first that fails ends the dataset.
#include "data/unary_node.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class TakeWhileNode : public UnaryNode<TakeWhileNode> {
 public:
  TakeWhileNode(Dataset input, PredicateFn p) : UnaryNode(std::move(input)), p_(std::move(p)) {
    if (!p_) throw ValueError("take_while needs a predicate");
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const TakeWhileNode* n;
      IteratorPtr input;
      bool done = false;
      std::optional<Element> next() override {
        if (done) return std::nullopt;
        auto e = input->next();
        if (e && n->p_(*e)) return e;
        done = true;
        return std::nullopt;
      }
      json save() const override { return {{"input", input->save()}, {"done", done}}; }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        done = s.at("done");
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  PredicateFn p_;
};

}  // namespace

Dataset Dataset::take_while(PredicateFn predicate) const { return Dataset(std::make_shared<TakeWhileNode>(*this, std::move(predicate))); }

}  // namespace keras::data
