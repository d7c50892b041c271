// Dataset::take_while: elements while a predicate holds; the first that fails ends the dataset.
#include "data/dataset.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class TakeWhileNode : public DatasetNode {
 public:
  TakeWhileNode(Dataset input, PredicateFn p) : input_(std::move(input)), p_(std::move(p)) {
    if (!p_) throw ValueError("take_while needs a predicate");
  }
  std::vector<const DatasetNode*> inputs() const override { return {input_.node().get()}; }
  ElementSpec element_spec() const override { return input_.element_spec(); }
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
    auto it = std::make_unique<It>();
    it->n = this;
    it->input = input_.node()->make_iterator();
    return it;
  }

 private:
  Dataset input_;
  PredicateFn p_;
};

}  // namespace

Dataset Dataset::take_while(PredicateFn predicate) const { return Dataset(std::make_shared<TakeWhileNode>(*this, std::move(predicate))); }

}  // namespace keras::data
