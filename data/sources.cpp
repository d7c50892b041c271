// Dataset sources: from_tensor_slices, from_tensors, from_generator, range, zip, list_files.
#include <glob.h>

#include <algorithm>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include "data/auto_shard.hpp"
#include "data/dataset.hpp"
#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::data {

Dataset::Dataset(std::shared_ptr<const DatasetNode> node) : node_(std::move(node)) {
  if (!node_) throw ValueError("Dataset needs a node");
}

namespace {

class SlicesNode : public DatasetNode {
 public:
  explicit SlicesNode(Element e) : e_(std::move(e)), flat_(e_.flatten()) {
    if (flat_.empty()) throw ValueError("from_tensor_slices needs at least one component");
    for (std::size_t i = 0; i < flat_.size(); ++i) {
      const Shape s = flat_[i].shape();
      if (s.empty()) throw ValueError(fmt::format("from_tensor_slices: component {} is a scalar; it needs a first axis to slice", i));
      if (s[0] != flat_[0].shape()[0])
        throw ValueError(fmt::format("from_tensor_slices: all components must have the same size in the first dimension; "
                                     "component 0 has {} and component {} has {}", flat_[0].shape()[0], i, s[0]));
    }
  }
  std::int64_t cardinality() const override { return flat_[0].shape()[0]; }
  ElementSpec element_spec() const override { return unbatched_spec(spec_of(e_)); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const SlicesNode* n;
      std::int64_t i = 0;
      explicit It(const SlicesNode* n) : n(n) {}
      std::optional<Element> next() override {
        if (i >= n->cardinality()) return std::nullopt;
        std::vector<Component> row;
        row.reserve(n->flat_.size());
        for (const auto& c : n->flat_) row.push_back(c.row(i));
        ++i;
        return n->e_.pack(row);
      }
      json save() const override { return {{"i", i}}; }
      void restore(const json& s) override { i = s.at("i"); }
    };
    return std::make_unique<It>(this);
  }

 private:
  Element e_;
  std::vector<Component> flat_;
};

class TensorsNode : public DatasetNode {
 public:
  explicit TensorsNode(Element e) : e_(std::move(e)) {}
  std::int64_t cardinality() const override { return 1; }
  ElementSpec element_spec() const override { return spec_of(e_); }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      const Element* e;
      bool done = false;
      explicit It(const Element* e) : e(e) {}
      std::optional<Element> next() override {
        if (done) return std::nullopt;
        done = true;
        return *e;
      }
      json save() const override { return {{"done", done}}; }
      void restore(const json& s) override { done = s.at("done"); }
    };
    return std::make_unique<It>(&e_);
  }

 private:
  Element e_;
};

class GeneratorNode : public DatasetNode {
 public:
  GeneratorNode(std::function<Generator()> make, std::optional<ElementSpec> sig) : make_(std::move(make)), sig_(std::move(sig)) {}
  ElementSpec element_spec() const override {
    if (sig_) return *sig_;
    auto first = make_()();
    if (!first) throw ValueError("from_generator: the generator yields nothing, so element_spec is unknown; give output_signature");
    return spec_of(*first);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      Generator g;
      const char* kind() const override { return "from_generator"; }
      std::optional<Element> next() override { return g ? g() : std::nullopt; }
    };
    auto it = std::make_unique<It>();
    it->g = make_();
    return it;
  }

 private:
  std::function<Generator()> make_;
  std::optional<ElementSpec> sig_;
};

class RangeNode : public DatasetNode {
 public:
  RangeNode(std::int64_t start, std::int64_t stop, std::int64_t step) : start_(start), stop_(stop), step_(step) {
    if (step == 0) throw ValueError("range: step must not be 0");
  }
  std::int64_t cardinality() const override {
    const std::int64_t n = step_ > 0 ? (stop_ - start_ + step_ - 1) / step_ : (start_ - stop_ - step_ - 1) / -step_;
    return std::max<std::int64_t>(n, 0);
  }
  ElementSpec element_spec() const override { return TensorSpec{{}, "int64"}; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::int64_t v, stop, step;
      std::optional<Element> next() override {
        if (step > 0 ? v >= stop : v <= stop) return std::nullopt;
        Tensor t = Tensor::empty({}, DType::int64);
        *t.data<std::int64_t>() = v;
        v += step;
        return Element(t);
      }
      json save() const override { return {{"v", v}}; }
      void restore(const json& s) override { v = s.at("v"); }
    };
    auto it = std::make_unique<It>();
    it->v = start_, it->stop = stop_, it->step = step_;
    return it;
  }

 private:
  std::int64_t start_, stop_, step_;
};

class ZipNode : public DatasetNode {
 public:
  explicit ZipNode(std::vector<Dataset> ds) : ds_(std::move(ds)) {
    if (ds_.empty()) throw ValueError("zip needs at least one dataset");
  }
  std::vector<const DatasetNode*> inputs() const override {
    std::vector<const DatasetNode*> v;
    for (const auto& d : ds_) v.push_back(d.node().get());
    return v;
  }
  std::int64_t cardinality() const override {
    std::int64_t n = INFINITE_CARDINALITY;
    bool unknown = false;
    for (const auto& d : ds_) {
      const auto c = d.cardinality();
      if (c == UNKNOWN_CARDINALITY) unknown = true;
      else if (c >= 0) n = n < 0 ? c : std::min(n, c);
    }
    return n >= 0 ? n : (unknown ? UNKNOWN_CARDINALITY : INFINITE_CARDINALITY);
  }
  ElementSpec element_spec() const override {
    std::vector<ElementSpec> s;
    for (const auto& d : ds_) s.push_back(d.element_spec());
    return ElementSpec::tuple(s);
  }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::vector<IteratorPtr> its;
      std::optional<Element> next() override {
        std::vector<Element> items;
        for (auto& i : its) {
          auto e = i->next();
          if (!e) return std::nullopt;
          items.push_back(std::move(*e));
        }
        return Element::tuple(std::move(items));
      }
      json save() const override {
        json j = json::array();
        for (const auto& i : its) j.push_back(i->save());
        return j;
      }
      void restore(const json& s) override {
        for (std::size_t k = 0; k < its.size(); ++k) its[k]->restore(s.at(k));
      }
    };
    auto it = std::make_unique<It>();
    for (const auto& d : ds_) it->its.push_back(d.node()->make_iterator());
    return it;
  }

 private:
  std::vector<Dataset> ds_;
};

}  // namespace

Dataset Dataset::from_tensor_slices(const Element& c) { return Dataset(std::make_shared<SlicesNode>(c)); }
Dataset Dataset::from_tensors(const Element& c) { return Dataset(std::make_shared<TensorsNode>(c)); }
Dataset Dataset::from_generator(std::function<Generator()> make, std::optional<ElementSpec> sig) {
  return Dataset(std::make_shared<GeneratorNode>(std::move(make), std::move(sig)));
}
Dataset Dataset::range(std::int64_t stop) { return range(0, stop, 1); }
Dataset Dataset::range(std::int64_t start, std::int64_t stop, std::int64_t step) {
  return Dataset(std::make_shared<RangeNode>(start, stop, step));
}
Dataset Dataset::zip(const std::vector<Dataset>& datasets) { return Dataset(std::make_shared<ZipNode>(datasets)); }

Dataset Dataset::list_files(const std::string& pattern, bool shuffle, std::optional<std::uint64_t> seed) {
  glob_t g{};
  const int rc = ::glob(pattern.c_str(), 0, nullptr, &g);
  std::vector<std::string> files;
  for (std::size_t i = 0; rc == 0 && i < g.gl_pathc; ++i) files.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  if (files.empty()) throw IOError("list_files: no files match the pattern '" + pattern + "'");
  std::sort(files.begin(), files.end());
  const auto n = static_cast<std::int64_t>(files.size());
  Dataset ds = from_tensor_slices(Component::strings(files, {n}));
  return shardable_file_names(shuffle ? ds.shuffle(n, {.seed = seed}) : ds, files.size(), "list_files");
}

}  // namespace keras::data
