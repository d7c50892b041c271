// Transformations that open a dataset per element or group elements: flat_map, interleave, window.
#include <deque>

#include "data/unary_node.hpp"
#include "data/elements_dataset.hpp"
#include "data/worker_threads.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

// An inner dataset and its open pass (the Dataset handle keeps its graph alive).
struct OpenDataset {
  Dataset ds;
  IteratorPtr it;
  Element source;  // the input element ds was made from (to remake it when a saved position is restored)
};

class InterleaveNode : public UnaryNode<InterleaveNode> {
 public:
  InterleaveNode(Dataset input, DatasetFn fn, std::int64_t cycle, std::int64_t block, std::int64_t threads = 0)
      : UnaryNode(std::move(input)), fn_(std::move(fn)), cycle_(cycle), block_(block), read_ahead_(threads > 1) {
    if (!fn_) throw ValueError("flat_map/interleave needs a function");
    if (cycle_ == AUTOTUNE) cycle_ = detail::autotune_threads();
    if (cycle_ <= 0 || block_ <= 0) throw ValueError("interleave: cycle_length and block_length must be positive");
  }
  ElementSpec element_spec() const override {
    auto it = input_.node()->make_iterator();
    auto e = it->next();
    if (!e) throw ValueError("flat_map/interleave: element_spec of an empty input is unknown");
    return fn_(*e).element_spec();
  }
  std::int64_t cardinality() const override {
    return input_.cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  IteratorPtr make_iterator() const override {
    // Visits the slots in turn, block_length elements from each; an exhausted slot moves the turn on
    // and is refilled from the input when its turn comes again (tf.data's order).
    struct It : IteratorBase {
      const InterleaveNode* n;
      IteratorPtr input;
      std::vector<std::optional<OpenDataset>> slots;
      std::size_t cur = 0;
      std::int64_t in_block = 0;
      bool input_ended = false;
      const char* kind() const override { return "flat_map/interleave"; }
      OpenDataset open(Element e) const {
        Dataset d = n->fn_(e);
        if (n->read_ahead_) d = d.prefetch(n->block_);
        IteratorPtr it = d.node()->make_iterator();
        return OpenDataset{std::move(d), std::move(it), std::move(e)};
      }
      json save() const override {
        json open_slots = json::array();
        for (const auto& s : slots)
          open_slots.push_back(s ? json{{"element", element_to_json(s->source)}, {"state", s->it->save()}} : json());
        return {{"input", input->save()}, {"slots", open_slots}, {"cur", cur}, {"in_block", in_block}, {"input_ended", input_ended}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        const auto& saved = s.at("slots");
        if (saved.size() != slots.size())
          throw ValueError("interleave: the saved state has " + std::to_string(saved.size()) + " slots, this iterator " +
                           std::to_string(slots.size()) + "; restore into an iterator of the same dataset");
        for (std::size_t i = 0; i < slots.size(); ++i) {
          slots[i].reset();
          if (saved[i].is_null()) continue;
          slots[i] = open(element_from_json(saved[i].at("element")));
          slots[i]->it->restore(saved[i].at("state"));
        }
        cur = s.at("cur");
        in_block = s.at("in_block");
        input_ended = s.at("input_ended");
      }
      void advance() {
        cur = (cur + 1) % slots.size();
        in_block = 0;
      }
      std::optional<Element> next() override {
        for (;;) {
          auto& slot = slots[cur];
          if (!slot) {
            if (!input_ended) {
              if (auto e = input->next()) {
                slot = open(std::move(*e));
              } else {
                input_ended = true;
              }
            }
            if (!slot) {
              bool any = false;
              for (const auto& s : slots) any = any || s.has_value();
              if (!any && input_ended) return std::nullopt;
              advance();
              continue;
            }
          }
          if (auto v = slot->it->next()) {
            if (++in_block >= n->block_) advance();
            return v;
          }
          slot.reset();
          advance();
        }
      }
    };
    auto it = fresh_iterator<It>();
    it->slots.resize(static_cast<std::size_t>(cycle_));
    return it;
  }

 private:
  DatasetFn fn_;
  std::int64_t cycle_, block_;
  bool read_ahead_;  // parallel: each open dataset is prefetched by its own thread
};

class WindowNode : public UnaryNode<WindowNode> {
 public:
  // gather: each window comes as a tuple of its elements (for window_datasets) instead of stacked.
  WindowNode(Dataset input, std::int64_t size, WindowOptions o, bool gather = false)
      : UnaryNode(std::move(input)), size_(size), shift_(o.shift.value_or(size)), stride_(o.stride), drop_(o.drop_remainder),
        gather_(gather) {
    if (size_ <= 0 || shift_ <= 0 || stride_ <= 0) throw ValueError("window: size, shift and stride must be positive");
  }
  ElementSpec element_spec() const override { return batched_spec(input_.element_spec(), drop_ ? size_ : -1); }
  std::int64_t cardinality() const override {
    const auto c = input_.cardinality();
    if (c < 0) return c;
    const std::int64_t span = (size_ - 1) * stride_ + 1;
    if (drop_) return c >= span ? (c - span) / shift_ + 1 : 0;
    return (c + shift_ - 1) / shift_;
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const WindowNode* n;
      IteratorPtr input;
      std::deque<Element> buf;  // elements from absolute index buf_start on
      std::int64_t buf_start = 0, window = 0;
      bool ended = false;
      std::optional<Element> next() override {
        const std::int64_t start = window * n->shift_, last = start + (n->size_ - 1) * n->stride_;
        while (!ended && buf_start + static_cast<std::int64_t>(buf.size()) <= last) {
          auto e = input->next();
          if (!e) ended = true;
          else buf.push_back(std::move(*e));
        }
        while (!buf.empty() && buf_start < start) {  // shift beyond the previous window
          buf.pop_front();
          ++buf_start;
        }
        const std::int64_t have = buf_start + static_cast<std::int64_t>(buf.size());
        if (start >= have) return std::nullopt;
        if (n->drop_ && last >= have) return std::nullopt;
        std::vector<Element> items;
        for (std::int64_t i = start; i <= last && i < have; i += n->stride_) items.push_back(buf[i - buf_start]);
        ++window;
        if (n->gather_) return Element::tuple(std::move(items));
        const std::size_t k = items[0].flatten().size();
        std::vector<std::vector<Component>> cols(k);
        for (const auto& e : items) {
          auto f = e.flatten();
          for (std::size_t c = 0; c < k; ++c) cols[c].push_back(std::move(f[c]));
        }
        std::vector<Component> out;
        for (std::size_t c = 0; c < k; ++c) out.push_back(Component::stack(cols[c], c));
        return items[0].pack(out);
      }
      json save() const override {
        json b = json::array();
        for (const auto& e : buf) b.push_back(element_to_json(e));
        return {{"input", input->save()}, {"buf", b}, {"buf_start", buf_start}, {"window", window}, {"ended", ended}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        buf.clear();
        for (const auto& e : s.at("buf")) buf.push_back(element_from_json(e));
        buf_start = s.at("buf_start");
        window = s.at("window");
        ended = s.at("ended");
      }
    };
    auto it = fresh_iterator<It>();
    return it;
  }

 private:
  std::int64_t size_, shift_, stride_;
  bool drop_, gather_;
};

}  // namespace

Dataset Dataset::flat_map(DatasetFn fn) const { return Dataset(std::make_shared<InterleaveNode>(*this, std::move(fn), 1, 1)); }
Dataset Dataset::interleave(DatasetFn fn, InterleaveOptions o) const {
  return Dataset(std::make_shared<InterleaveNode>(*this, std::move(fn), o.cycle_length, o.block_length,
                                                  detail::parallel_calls(o.num_parallel_calls, "interleave")));
}
Dataset Dataset::window(std::int64_t size, WindowOptions options) const {
  return Dataset(std::make_shared<WindowNode>(*this, size, options));
}
Dataset detail::gathered_windows(const Dataset& input, std::int64_t size, WindowOptions options) {
  return Dataset(std::make_shared<WindowNode>(input, size, options, true));
}

}  // namespace keras::data
