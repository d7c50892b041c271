// Dataset::ignore_errors: an element whose computation throws is dropped and the pass goes on.
#include <cstdio>

#include "data/unary_node.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class IgnoreErrorsNode : public UnaryNode<IgnoreErrorsNode> {
 public:
  IgnoreErrorsNode(Dataset input, bool log) : UnaryNode(std::move(input)), log_(log) {}
  std::int64_t cardinality() const override {
    return input_.cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const IgnoreErrorsNode* n;
      IteratorPtr input;
      std::optional<Element> next() override {
        for (;;) {
          try {
            return input->next();
          } catch (const std::exception& e) {
            if (n->log_) std::fprintf(stderr, "WARNING: ignore_errors: dropping an element: %s\n", e.what());
          }
        }
      }
      json save() const override { return input->save(); }
      void restore(const json& s) override { input->restore(s); }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  bool log_;
};

}  // namespace

Dataset Dataset::ignore_errors(bool log_warning) const { return Dataset(std::make_shared<IgnoreErrorsNode>(*this, log_warning)); }

}  // namespace keras::data
