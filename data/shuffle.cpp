// Dataset::shuffle with tf.data's buffer algorithm: fill a buffer of buffer_size elements, yield a
// uniformly chosen slot and refill that slot with the next input element; drain randomly at the end.
#include <atomic>
#include <random>
#include <sstream>

#include "data/unary_node.hpp"
#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::data {
namespace {

class ShuffleIterator : public IteratorBase {
 public:
  ShuffleIterator(IteratorPtr input, std::int64_t buffer_size, std::uint64_t seed, std::uint64_t pass,
                  std::atomic<std::uint64_t>* passes)
      : input_(std::move(input)), buffer_size_(buffer_size), rng_(seed), pass_(pass), passes_(passes) {}
  std::optional<Element> next() override {
    while (!input_ended_ && static_cast<std::int64_t>(buffer_.size()) < buffer_size_) {
      auto e = input_->next();
      if (!e) input_ended_ = true;
      else buffer_.push_back(std::move(*e));
    }
    if (buffer_.empty()) return std::nullopt;
    std::uniform_int_distribution<std::size_t> pick(0, buffer_.size() - 1);
    const std::size_t i = pick(rng_);
    Element out = std::move(buffer_[i]);
    std::optional<Element> refill = input_ended_ ? std::nullopt : input_->next();
    if (refill) {
      buffer_[i] = std::move(*refill);
    } else {
      input_ended_ = true;
      buffer_[i] = std::move(buffer_.back());
      buffer_.pop_back();
    }
    return out;
  }
  json save() const override {
    std::ostringstream rng;
    rng << rng_;
    json buf = json::array();
    for (const auto& e : buffer_) buf.push_back(element_to_json(e));
    return {{"input", input_->save()}, {"rng", rng.str()}, {"buffer", buf}, {"ended", input_ended_}, {"pass", pass_}};
  }
  void restore(const json& s) override {
    input_->restore(s.at("input"));
    std::istringstream rng(s.at("rng").get<std::string>());
    rng >> rng_;
    buffer_.clear();
    for (const auto& e : s.at("buffer")) buffer_.push_back(element_from_json(e));
    input_ended_ = s.at("ended");
    // The passes after a resumed one draw the orders they would have drawn.
    pass_ = s.at("pass");
    if (passes_) *passes_ = pass_ + 1;
  }

 private:
  IteratorPtr input_;
  std::int64_t buffer_size_;
  std::mt19937_64 rng_;
  std::vector<Element> buffer_;
  bool input_ended_ = false;
  std::uint64_t pass_;
  std::atomic<std::uint64_t>* passes_;  // the node's pass counter (null without reshuffling)
};

class ShuffleNode : public UnaryNode<ShuffleNode> {
 public:
  ShuffleNode(Dataset input, std::int64_t buffer_size, ShuffleOptions o)
      : UnaryNode(std::move(input)), buffer_size_(buffer_size), reshuffle_(o.reshuffle_each_iteration) {
    if (buffer_size <= 0) throw ValueError("shuffle: buffer_size must be positive, got " + std::to_string(buffer_size));
    seed_ = o.seed ? *o.seed : utils::random_generator()();
  }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  IteratorPtr make_iterator() const override {
    // A fixed seed still gives a new order each pass with reshuffle_each_iteration, deterministically.
    const std::uint64_t pass = reshuffle_ ? passes_++ : 0;
    std::seed_seq seq{static_cast<std::uint32_t>(seed_), static_cast<std::uint32_t>(seed_ >> 32), static_cast<std::uint32_t>(pass)};
    std::mt19937_64 mix(seq);
    return std::make_unique<ShuffleIterator>(input_.node()->make_iterator(), buffer_size_, mix(), pass,
                                             reshuffle_ ? &passes_ : nullptr);
  }

 private:
  std::int64_t buffer_size_;
  bool reshuffle_;
  std::uint64_t seed_;
  mutable std::atomic<std::uint64_t> passes_{0};
};

}  // namespace

Dataset Dataset::shuffle(std::int64_t buffer_size, ShuffleOptions options) const {
  return Dataset(std::make_shared<ShuffleNode>(*this, buffer_size, options));
}

}  // namespace keras::data
