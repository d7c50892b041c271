// Dataset::with_options / options(): tf.data.Options attached to a pipeline, and the per-thread
// context through which its iterators (and their worker threads) see them.
#include "data/options.hpp"

#include <unordered_set>

#include "data/unary_node.hpp"

namespace keras::data {

Options Options::merged_with(const Options& later) const {
  Options o = *this;
  if (later.deterministic) o.deterministic = later.deterministic;
  if (later.threading.private_threadpool_size) o.threading.private_threadpool_size = later.threading.private_threadpool_size;
  if (later.threading.max_intra_op_parallelism) o.threading.max_intra_op_parallelism = later.threading.max_intra_op_parallelism;
  if (later.experimental_distribute.auto_shard_policy)
    o.experimental_distribute.auto_shard_policy = later.experimental_distribute.auto_shard_policy;
  return o;
}

namespace detail {
namespace {
thread_local Options current;
}
const Options& current_options() { return current; }
OptionsScope::OptionsScope(const Options& o) : saved_(current) { current = o; }
OptionsScope::~OptionsScope() { current = saved_; }
}  // namespace detail

namespace {

void check(const Options& o) {
  const auto& t = o.threading;
  if (t.private_threadpool_size && *t.private_threadpool_size < 0)
    throw ValueError("Options: threading.private_threadpool_size must be >= 0 (0: no private pool), got " +
                     std::to_string(*t.private_threadpool_size));
  if (t.max_intra_op_parallelism && *t.max_intra_op_parallelism < 1)
    throw ValueError("Options: threading.max_intra_op_parallelism must be >= 1, got " +
                     std::to_string(*t.max_intra_op_parallelism));
}

// Options that the pipeline below this node inherits, with this node's on top.
class OptionsNode : public UnaryNode<OptionsNode> {
 public:
  OptionsNode(Dataset input, Options o) : UnaryNode(std::move(input)), o_(std::move(o)) { check(o_); }
  std::int64_t cardinality() const override { return input_.cardinality(); }
  const Options* attached_options() const override { return &o_; }
  IteratorPtr make_iterator() const override {
    // Options set further downstream win over these ones.
    const Options effective = o_.merged_with(detail::current_options());
    struct It : IteratorBase {
      Options o;
      IteratorPtr input;
      std::optional<Element> next() override {
        detail::OptionsScope scope(o);
        return input->next();
      }
      json save() const override { return input->save(); }
      void restore(const json& s) override {
        detail::OptionsScope scope(o);
        input->restore(s);
      }
    };
    auto it = std::make_unique<It>();
    it->o = effective;
    detail::OptionsScope scope(effective);
    it->input = input_.node()->make_iterator();
    return it;
  }

 private:
  Options o_;
};

// Every with_options above `node`, the farthest upstream first; each node once.
void collect(const DatasetNode* node, std::unordered_set<const DatasetNode*>& seen, std::vector<const Options*>& out) {
  if (!node || !seen.insert(node).second) return;
  for (const DatasetNode* in : node->inputs()) collect(in, seen, out);
  if (const Options* o = node->attached_options()) out.push_back(o);
}

}  // namespace

Dataset Dataset::with_options(const Options& options) const { return Dataset(std::make_shared<OptionsNode>(*this, options)); }

Options Dataset::options() const {
  std::unordered_set<const DatasetNode*> seen;
  std::vector<const Options*> found;
  collect(node_.get(), seen, found);
  Options o;
  for (const Options* f : found) o = o.merged_with(*f);
  return o;
}

}  // namespace keras::data
