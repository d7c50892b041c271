// Dataset::scan: a running state threaded through the elements; each step yields an output.
#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

// As tf, the new state keeps the initial state's structure and dtypes (shapes may change).
void check_state(const Element& initial, const Element& state) {
  const ElementSpec a = spec_of(initial), b = spec_of(state);
  bool same = a.same_structure(b);
  if (same) {
    const auto fa = a.flatten(), fb = b.flatten();
    for (std::size_t i = 0; i < fa.size(); ++i) same = same && fa[i].dtype == fb[i].dtype;
  }
  if (!same)
    throw ValueError("scan: scan_func returned a state " + spec_str(b) + " whose structure or dtypes differ from initial_state " +
                     spec_str(a) + "; return a state of the same kind");
}

class ScanNode : public UnaryNode<ScanNode> {
 public:
  ScanNode(Dataset input, Element initial, ScanFn fn) : UnaryNode(std::move(input)), initial_(std::move(initial)), fn_(std::move(fn)) {
    if (!fn_) throw ValueError("scan needs a scan_func");
  }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  // tf traces scan_func; here it runs once on the first element.
  ElementSpec element_spec() const override {
    auto it = input_.node()->make_iterator();
    auto e = it->next();
    if (!e) throw ValueError("scan: element_spec of a scan over an empty dataset is unknown");
    return spec_of(fn_(initial_, *e).second);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const ScanNode* n;
      IteratorPtr input;
      Element state;
      std::optional<Element> next() override {
        auto e = input->next();
        if (!e) return std::nullopt;
        auto [s, out] = n->fn_(state, *e);
        check_state(n->initial_, s);
        state = std::move(s);
        return std::move(out);
      }
      json save() const override { return {{"state", element_to_json(state)}, {"input", input->save()}}; }
      void restore(const json& s) override {
        state = element_from_json(s.at("state"));
        input->restore(s.at("input"));
      }
    };
    auto it = fresh_iterator<It>();
    it->state = initial_;
    return it;
  }

 private:
  Element initial_;
  ScanFn fn_;
};

}  // namespace

Dataset Dataset::scan(const Element& initial_state, ScanFn scan_func) const {
  return Dataset(std::make_shared<ScanNode>(*this, initial_state, std::move(scan_func)));
}

}  // namespace keras::data
