// Dataset::choose_from_datasets and sample_from_datasets: the next element comes from the dataset a
// selector picks (a dataset of indices, or a seeded random draw by weights).
#include <atomic>
#include <cmath>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::data {
namespace {

ElementSpec common_spec(const std::vector<Dataset>& datasets, const char* op) {
  ElementSpec s = datasets[0].element_spec();
  for (std::size_t i = 1; i < datasets.size(); ++i) {
    const ElementSpec o = datasets[i].element_spec();
    if (!s.same_structure(o))
      throw ValueError(fmt::format("{}: datasets[{}] has element structure {}, incompatible with datasets[0]'s {}", op, i,
                                   spec_str(o), spec_str(s)));
    const auto a = s.flatten(), b = o.flatten();
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k].dtype != b[k].dtype)
        throw ValueError(fmt::format("{}: datasets[{}] component {} is {}, datasets[0]'s is {}; cast them to one dtype", op, i,
                                     k, b[k].dtype, a[k].dtype));
    s = merge_specs(s, o);
  }
  return s;
}

// The selection: which dataset the next element comes from, or nullopt when the selector ends.
class Selector {
 public:
  virtual ~Selector() = default;
  virtual std::optional<std::int64_t> pick(const std::vector<bool>& exhausted) = 0;
  virtual json save() const = 0;
  virtual void restore(const json& s) = 0;
};

class DirectedInterleaveNode : public DatasetNode {
 public:
  using MakeSelector = std::function<std::unique_ptr<Selector>()>;
  DirectedInterleaveNode(std::vector<Dataset> ds, MakeSelector make, bool stop, std::vector<const DatasetNode*> extra_inputs,
                         const char* op)
      : ds_(std::move(ds)), make_(std::move(make)), stop_(stop), extra_(std::move(extra_inputs)), op_(op) {
    spec_ = common_spec(ds_, op_);
  }
  ElementSpec element_spec() const override { return spec_; }
  std::vector<const DatasetNode*> inputs() const override {
    std::vector<const DatasetNode*> v = extra_;
    for (const auto& d : ds_) v.push_back(d.node().get());
    return v;
  }
  std::int64_t cardinality() const override {
    bool all_infinite = true;
    for (const auto& d : ds_) all_infinite = all_infinite && d.cardinality() == INFINITE_CARDINALITY;
    return all_infinite && infinite_selector_ ? INFINITE_CARDINALITY : UNKNOWN_CARDINALITY;
  }
  bool infinite_selector_ = false;

  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const DirectedInterleaveNode* n;
      std::unique_ptr<Selector> sel;
      std::vector<IteratorPtr> its;
      std::vector<bool> exhausted;
      bool done = false;
      std::optional<Element> next() override {
        while (!done) {
          bool any = false;
          for (bool x : exhausted) any = any || !x;
          if (!any) break;
          const auto i = sel->pick(exhausted);
          if (!i) break;
          if (*i < 0 || *i >= static_cast<std::int64_t>(its.size()))
            throw ValueError(fmt::format("{}: selector index {} is out of range; there are {} datasets (indices 0 to {})",
                                         n->op_, *i, its.size(), its.size() - 1));
          const auto k = static_cast<std::size_t>(*i);
          if (!exhausted[k]) {
            if (auto e = its[k]->next()) return e;
            exhausted[k] = true;
          }
          if (n->stop_) break;
        }
        done = true;
        return std::nullopt;
      }
      json save() const override {
        json inputs = json::array();
        for (const auto& it : its) inputs.push_back(it->save());
        return {{"selector", sel->save()}, {"inputs", inputs}, {"exhausted", exhausted}, {"done", done}};
      }
      void restore(const json& s) override {
        sel->restore(s.at("selector"));
        for (std::size_t i = 0; i < its.size(); ++i) its[i]->restore(s.at("inputs")[i]);
        exhausted = s.at("exhausted").get<std::vector<bool>>();
        done = s.at("done");
      }
    };
    auto it = std::make_unique<It>();
    it->n = this;
    it->sel = make_();
    for (const auto& d : ds_) it->its.push_back(d.node()->make_iterator());
    it->exhausted.assign(ds_.size(), false);
    return it;
  }

 private:
  std::vector<Dataset> ds_;
  MakeSelector make_;
  bool stop_;
  std::vector<const DatasetNode*> extra_;
  const char* op_;
  ElementSpec spec_;
};

class ChoiceSelector : public Selector {
 public:
  explicit ChoiceSelector(IteratorPtr it) : it_(std::move(it)) {}
  std::optional<std::int64_t> pick(const std::vector<bool>&) override {
    auto e = it_->next();
    if (!e) return std::nullopt;
    const Component& c = e->leaf();
    if (c.dtype_name() != "int64" || !c.shape().empty())
      throw ValueError("choose_from_datasets: choice_dataset must yield int64 scalars, got " + c.dtype_name() + " " +
                       shape_str(c.shape()));
    return c.tensor().to_vector<std::int64_t>()[0];
  }
  json save() const override { return it_->save(); }
  void restore(const json& s) override { it_->restore(s); }

 private:
  IteratorPtr it_;
};

// Draws index i with probability weights[i], renormalized over the datasets not yet exhausted.
class WeightedSelector : public Selector {
 public:
  WeightedSelector(std::vector<double> w, std::uint64_t seed) : w_(std::move(w)), rng_(seed) {}
  std::optional<std::int64_t> pick(const std::vector<bool>& exhausted) override {
    double total = 0;
    for (std::size_t i = 0; i < w_.size(); ++i)
      if (!exhausted[i]) total += w_[i];
    if (total <= 0) return std::nullopt;  // only zero-weight datasets are left
    double u = std::uniform_real_distribution<double>(0.0, total)(rng_);
    std::size_t last = 0;
    for (std::size_t i = 0; i < w_.size(); ++i) {
      if (exhausted[i] || w_[i] <= 0) continue;
      last = i;
      if (u < w_[i]) return static_cast<std::int64_t>(i);
      u -= w_[i];
    }
    return static_cast<std::int64_t>(last);
  }
  json save() const override {
    std::ostringstream s;
    s << rng_;
    return s.str();
  }
  void restore(const json& j) override {
    std::istringstream s(j.get<std::string>());
    s >> rng_;
  }

 private:
  std::vector<double> w_;
  std::mt19937_64 rng_;
};

}  // namespace

Dataset Dataset::choose_from_datasets(const std::vector<Dataset>& datasets, const Dataset& choice_dataset,
                                      bool stop_on_empty_dataset) {
  if (datasets.empty()) throw ValueError("choose_from_datasets: datasets must be a non-empty list");
  const ElementSpec cs = choice_dataset.element_spec();
  if (!cs.is_leaf() || cs.leaf().dtype != "int64" || !cs.leaf().shape.empty())
    throw ValueError("choose_from_datasets: choice_dataset must yield int64 scalars, got " + spec_str(cs) +
                     "; e.g. Dataset::range(n) or a map to an int64 scalar");
  auto make = [choice_dataset]() -> std::unique_ptr<Selector> {
    return std::make_unique<ChoiceSelector>(choice_dataset.node()->make_iterator());
  };
  auto node = std::make_shared<DirectedInterleaveNode>(datasets, make, stop_on_empty_dataset,
                                                       std::vector<const DatasetNode*>{choice_dataset.node().get()},
                                                       "choose_from_datasets");
  node->infinite_selector_ = choice_dataset.cardinality() == INFINITE_CARDINALITY;  // `make` holds choice_dataset
  return Dataset(node);
}

Dataset Dataset::sample_from_datasets(const std::vector<Dataset>& datasets, SampleFromDatasetsOptions o) {
  if (datasets.empty()) throw ValueError("sample_from_datasets: datasets must be a non-empty list");
  std::vector<double> w = o.weights.value_or(std::vector<double>(datasets.size(), 1.0));
  if (w.size() != datasets.size())
    throw ValueError(fmt::format("sample_from_datasets: got {} weights for {} datasets; give one weight per dataset", w.size(),
                                 datasets.size()));
  double total = 0;
  for (double x : w) {
    if (!(x >= 0) || !std::isfinite(x))
      throw ValueError(fmt::format("sample_from_datasets: weights must be finite and non-negative, got {}", x));
    total += x;
  }
  if (total <= 0) throw ValueError("sample_from_datasets: the weights sum to 0; at least one must be positive");
  const std::uint64_t seed = o.seed ? *o.seed : utils::random_generator()();
  auto passes = std::make_shared<std::atomic<std::uint64_t>>(0);
  auto make = [w, seed, passes, re = o.rerandomize_each_iteration]() -> std::unique_ptr<Selector> {
    const std::uint64_t pass = re ? (*passes)++ : 0;
    std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32), static_cast<std::uint32_t>(pass)};
    std::mt19937_64 mix(seq);
    return std::make_unique<WeightedSelector>(w, mix());
  };
  auto node = std::make_shared<DirectedInterleaveNode>(datasets, make, o.stop_on_empty_dataset, std::vector<const DatasetNode*>{},
                                                       "sample_from_datasets");
  node->infinite_selector_ = true;
  return Dataset(node);
}

}  // namespace keras::data
