// Dataset::group_by_window: elements are grouped by an int64 key into windows; each full window (and
// at the end each partial one, in ascending key order) is reduced to a dataset whose elements come out.
#include <map>

#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "data/elements_dataset.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

class GroupByWindowNode : public UnaryNode<GroupByWindowNode> {
 public:
  GroupByWindowNode(Dataset input, KeyFn key, WindowReduceFn reduce, std::function<std::int64_t(std::int64_t)> size)
      : UnaryNode(std::move(input)), key_(std::move(key)), reduce_(std::move(reduce)), size_(std::move(size)) {
    if (!key_ || !reduce_ || !size_)
      throw ValueError("group_by_window needs key_func, reduce_func and a window_size (or window_size_func)");
  }
  std::int64_t cardinality() const override {
    return input_.cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  // tf traces reduce_func on a window of the input's spec; here it is called on an empty window.
  ElementSpec element_spec() const override {
    return reduce_(0, detail::elements_dataset(std::make_shared<std::vector<Element>>(), input_.element_spec())).element_spec();
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const GroupByWindowNode* n;
      IteratorPtr input;
      std::map<std::int64_t, std::vector<Element>> groups;
      std::optional<Dataset> current;  // the reduced window being read
      IteratorPtr current_it;
      std::int64_t current_key = 0;
      std::shared_ptr<const std::vector<Element>> current_window;  // to remake `current` on restore
      bool input_ended = false;

      void open(std::int64_t key, std::vector<Element> window) {
        current_key = key;
        current_window = std::make_shared<const std::vector<Element>>(std::move(window));
        auto ds = n->reduce_(key, detail::elements_dataset(current_window, n->input_.element_spec()));
        current_it = ds.node()->make_iterator();
        current = std::move(ds);
      }
      json save() const override {
        json g = json::array();
        for (const auto& [key, v] : groups) g.push_back({{"key", key}, {"elements", State::elements(v)}});
        json cur;
        if (current_it) cur = {{"key", current_key}, {"window", State::elements(*current_window)}, {"state", current_it->save()}};
        return {{"input", input->save()}, {"groups", g}, {"current", cur}, {"input_ended", input_ended}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        groups.clear();
        for (const auto& g : s.at("groups")) groups[g.at("key").get<std::int64_t>()] = State::elements(g.at("elements"));
        current_it.reset();
        current.reset();
        current_window.reset();
        if (!s.at("current").is_null()) {
          const auto& c = s["current"];
          open(c.at("key").get<std::int64_t>(), State::elements(c.at("window")));
          current_it->restore(c.at("state"));
        }
        input_ended = s.at("input_ended");
      }
      std::optional<Element> next() override {
        for (;;) {
          if (current_it) {
            if (auto e = current_it->next()) return e;
            current_it.reset();
            current.reset();
            current_window.reset();
          }
          if (!input_ended) {
            auto e = input->next();
            if (!e) {
              input_ended = true;
              continue;
            }
            const std::int64_t key = n->key_(*e);
            const std::int64_t size = n->size_(key);
            if (size <= 0)
              throw ValueError(fmt::format("group_by_window: the window size of key {} must be positive, got {}", key, size));
            auto& g = groups[key];
            g.push_back(std::move(*e));
            if (static_cast<std::int64_t>(g.size()) >= size) {
              auto window = std::move(g);
              groups.erase(key);
              open(key, std::move(window));
            }
            continue;
          }
          if (groups.empty()) return std::nullopt;
          auto first = groups.begin();
          const std::int64_t key = first->first;
          auto window = std::move(first->second);
          groups.erase(first);
          open(key, std::move(window));
        }
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

  // The partial windows by key, and the window being read (its elements, key and the reduced dataset's position).
  struct State {
    static json elements(const std::vector<Element>& v) {
      json a = json::array();
      for (const auto& e : v) a.push_back(element_to_json(e));
      return a;
    }
    static std::vector<Element> elements(const json& a) {
      std::vector<Element> v;
      for (const auto& e : a) v.push_back(element_from_json(e));
      return v;
    }
  };

 private:
  KeyFn key_;
  WindowReduceFn reduce_;
  std::function<std::int64_t(std::int64_t)> size_;
};

}  // namespace

Dataset Dataset::group_by_window(KeyFn key_func, WindowReduceFn reduce_func, std::int64_t window_size) const {
  if (window_size <= 0)
    throw ValueError("group_by_window: window_size must be positive, got " + std::to_string(window_size));
  return Dataset(std::make_shared<GroupByWindowNode>(*this, std::move(key_func), std::move(reduce_func),
                                                     [window_size](std::int64_t) { return window_size; }));
}

Dataset Dataset::group_by_window(KeyFn key_func, WindowReduceFn reduce_func,
                                 std::function<std::int64_t(std::int64_t key)> window_size_func) const {
  return Dataset(std::make_shared<GroupByWindowNode>(*this, std::move(key_func), std::move(reduce_func), std::move(window_size_func)));
}

}  // namespace keras::data
