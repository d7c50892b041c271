// Dataset::unique: each distinct element once, at its first occurrence.
#include <unordered_set>

#include "data/unary_node.hpp"
#include "data/elements_dataset.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class UniqueNode : public UnaryNode<UniqueNode> {
 public:
  explicit UniqueNode(Dataset input) : UnaryNode(std::move(input)) {
    const ElementSpec s = input_.element_spec();
    if (!s.is_leaf() || (s.leaf().dtype != "int32" && s.leaf().dtype != "int64" && s.leaf().dtype != "string"))
      throw ValueError("unique: only datasets of one int32, int64 or string component are supported, got " + spec_str(s) +
                       "; map the elements to such a key first");
  }
  std::int64_t cardinality() const override {
    return input_.cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      IteratorPtr input;
      std::unordered_set<std::string> seen;
      std::optional<Element> next() override {
        for (;;) {
          auto e = input->next();
          if (!e || seen.insert(detail::element_key(*e)).second) return e;
        }
      }
      json save() const override {
        json keys = json::array();
        for (const auto& k : seen) keys.push_back(json::binary(std::vector<std::uint8_t>(k.begin(), k.end())));
        return {{"input", input->save()}, {"seen", keys}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        seen.clear();
        for (const auto& k : s.at("seen")) {
          const auto& b = k.get_binary();
          seen.emplace(b.begin(), b.end());
        }
      }
    };
    auto it = std::make_unique<It>();
    it->input = input_.node()->make_iterator();
    return it;
  }
};

}  // namespace

Dataset Dataset::unique() const { return Dataset(std::make_shared<UniqueNode>(*this)); }

}  // namespace keras::data
