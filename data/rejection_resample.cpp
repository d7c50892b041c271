// Dataset::rejection_resample: resamples a dataset to a target class distribution, as tf.data does:
// with probability m (the smallest target/initial ratio) an element passes unconditionally; otherwise
// elements are drawn until one of class i is accepted with probability (r_i - m) / (max r - m), where
// r_i = target_i / initial_i. The mixture has the target distribution. Without initial_dist, it is
// estimated from the classes seen so far (each count starting at 1). Yields (class, element) tuples.
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::data {
namespace {

void check_dist(const std::vector<double>& d, const char* name) {
  double total = 0;
  for (double x : d) {
    if (!(x >= 0) || !std::isfinite(x))
      throw ValueError(fmt::format("rejection_resample: {} must hold finite non-negative probabilities, got {}", name, x));
    total += x;
  }
  if (std::abs(total - 1.0) > 1e-6)
    throw ValueError(fmt::format("rejection_resample: {} must sum to 1, got {}", name, total));
}

class RejectionResampleNode : public UnaryNode<RejectionResampleNode> {
 public:
  RejectionResampleNode(Dataset input, KeyFn class_func, std::vector<double> target, RejectionResampleOptions o)
      : UnaryNode(std::move(input)), class_(std::move(class_func)), target_(std::move(target)), initial_(o.initial_dist) {
    if (!class_) throw ValueError("rejection_resample needs a class_func");
    if (target_.empty()) throw ValueError("rejection_resample: target_dist must not be empty");
    check_dist(target_, "target_dist");
    if (initial_) {
      if (initial_->size() != target_.size())
        throw ValueError(fmt::format("rejection_resample: initial_dist has {} classes, target_dist {}; they must agree",
                                     initial_->size(), target_.size()));
      check_dist(*initial_, "initial_dist");
      for (std::size_t i = 0; i < target_.size(); ++i)
        if ((*initial_)[i] == 0 && target_[i] > 0)
          throw ValueError(fmt::format("rejection_resample: class {} has target probability {} but initial probability 0; "
                                       "it can never be drawn",
                                       i, target_[i]));
    }
    seed_ = o.seed ? *o.seed : utils::random_generator()();
  }
  std::int64_t cardinality() const override {
    return input_.cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  ElementSpec element_spec() const override {
    return ElementSpec::tuple({ElementSpec(TensorSpec{{}, "int64"}), input_.element_spec()});
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const RejectionResampleNode* n;
      IteratorPtr input;
      std::mt19937_64 rng;
      std::vector<double> counts;  // classes seen (from 1 each), when initial_dist is estimated

      std::optional<std::pair<std::int64_t, Element>> draw() {
        auto e = input->next();
        if (!e) return std::nullopt;
        const std::int64_t c = n->class_(*e);
        if (c < 0 || c >= static_cast<std::int64_t>(n->target_.size()))
          throw ValueError(fmt::format("rejection_resample: class_func returned {}, outside [0, {}) (one class per "
                                       "target_dist entry)",
                                       c, n->target_.size()));
        if (!n->initial_) counts[static_cast<std::size_t>(c)] += 1;
        return std::pair{c, std::move(*e)};
      }
      // (the probability m of passing unconditionally, the acceptance probability of each class)
      std::pair<double, std::vector<double>> acceptance() const {
        std::vector<double> initial;
        if (n->initial_) initial = *n->initial_;
        else {
          double total = 0;
          for (double x : counts) total += x;
          for (double x : counts) initial.push_back(x / total);
        }
        std::vector<double> r;
        for (std::size_t i = 0; i < initial.size(); ++i) r.push_back(initial[i] > 0 ? n->target_[i] / initial[i] : 0.0);
        const double mx = *std::max_element(r.begin(), r.end());
        double mn = mx;
        for (std::size_t i = 0; i < r.size(); ++i)
          if (initial[i] > 0) mn = std::min(mn, r[i]);
        std::vector<double> a(r.size(), 1.0);
        if (mx > mn)
          for (std::size_t i = 0; i < r.size(); ++i) a[i] = std::max(0.0, (r[i] - mn) / (mx - mn));
        return {mx > mn ? mn : 1.0, a};
      }
      json save() const override {
        std::ostringstream r;
        r << rng;
        return {{"input", input->save()}, {"rng", r.str()}, {"counts", counts}};
      }
      void restore(const json& s) override {
        input->restore(s.at("input"));
        std::istringstream r(s.at("rng").get<std::string>());
        r >> rng;
        counts = s.at("counts").get<std::vector<double>>();
      }
      std::optional<Element> next() override {
        std::uniform_real_distribution<double> u(0.0, 1.0);
        const bool pass_through = u(rng) < acceptance().first;
        for (;;) {
          auto d = draw();
          if (!d) return std::nullopt;
          const double accept = pass_through ? 1.0 : acceptance().second[static_cast<std::size_t>(d->first)];
          if (pass_through || u(rng) < accept)
            return Element::tuple({Element(Tensor::full({}, static_cast<double>(d->first), DType::int64)), std::move(d->second)});
        }
      }
    };
    auto it = fresh_iterator<It>();
    it->rng.seed(seed_);
    it->counts.assign(target_.size(), 1.0);
    return it;
  }

 private:
  KeyFn class_;
  std::vector<double> target_;
  std::optional<std::vector<double>> initial_;
  std::uint64_t seed_;
};

}  // namespace

Dataset Dataset::rejection_resample(KeyFn class_func, std::vector<double> target_dist, RejectionResampleOptions options) const {
  return Dataset(std::make_shared<RejectionResampleNode>(*this, std::move(class_func), std::move(target_dist), std::move(options)));
}

}  // namespace keras::data
