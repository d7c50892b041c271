// Trainer::resolve_batch: x, y and sample_weight as the user gives them (one array, a list, a map by name)
// matched once to the model's inputs and outputs, and checked to hold the same number of samples.
#include <algorithm>

#include <fmt/format.h>

#include "keras/functional_graph.hpp"
#include "keras/model.hpp"
#include "keras/trainers/trainer.hpp"

namespace keras {
namespace {

void check_same_samples(const Tensor& x, const Tensor& y, const Tensor& sample_weight) {
  auto describe = [](const Tensor& t) { return t.defined() ? shape_str(t.shape()) : std::string("undefined"); };
  if (!x.defined() || !y.defined() || x.ndim() == 0 || y.ndim() == 0 || x.dim(0) != y.dim(0))
    throw ValueError("Data cardinality is ambiguous: x has shape " + describe(x) + " and y has shape " + describe(y) +
                     "; make sure all arrays contain the same number of samples");
  if (sample_weight.defined() && (sample_weight.ndim() == 0 || sample_weight.dim(0) != x.dim(0)))
    throw ValueError("sample_weight of shape " + describe(sample_weight) + " does not match x of shape " + describe(x) +
                     "; give one weight per sample");
}

}  // namespace

void check_same_samples(const Batch& data, const std::string& model) {
  const auto &x = data.x, &y = data.y, &sample_weight = data.sample_weight;
  if (x.size() == 1 && y.size() == 1 && sample_weight.size() <= 1 && x[0].defined() && y[0].defined())
    return check_same_samples(x[0], y[0], sample_weight.empty() ? Tensor() : sample_weight[0]);
  std::string sizes;
  std::int64_t n = -1;
  bool mismatch = false;
  auto visit = [&](const std::vector<Tensor>& ts, const char* role) {
    for (std::size_t i = 0; i < ts.size(); ++i) {
      if (!ts[i].defined()) continue;
      if (ts[i].ndim() == 0)
        throw ValueError(fmt::format("Model '{}': {}[{}] is a scalar; every array needs a batch dimension", model, role, i));
      sizes += fmt::format("{}{}[{}]: {}", sizes.empty() ? "" : ", ", role, i, shape_str(ts[i].shape()));
      if (n >= 0 && ts[i].dim(0) != n) mismatch = true;
      n = ts[i].dim(0);
    }
  };
  visit(x, "x");
  visit(y, "y");
  visit(sample_weight, "sample_weight");
  if (n < 0) throw ValueError(fmt::format("Model '{}' received no input arrays", model));
  if (mismatch)
    throw ValueError(fmt::format("Data cardinality is ambiguous for model '{}': {}. Make sure all arrays contain the same "
                                 "number of samples",
                                 model, sizes));
}


Batch Trainer::resolve_batch(Model& model, const Arrays& x, const Arrays& y, const Arrays& sample_weight) {
  Batch b;
  // A subclassed model takes whatever it is given (its call decides); a graph needs one array per input.
  if (!model.graph_ && x.kind() == Arrays::Kind::list)
    b.x = x.list();
  else
    for (auto& t : x.resolve(model.input_names(), "x", model.name(), false, true)) b.x.push_back(*t);
  if (!model.built()) {  // first, so that a subclassed model's outputs are known to name y
    std::vector<Shape> shapes;
    for (const auto& t : b.x) shapes.push_back(t.shape());
    model.ensure_built(shapes);
  }
  // A subclassed model whose outputs are still unknown takes a list as one target per output, in order.
  const bool outputs_known = model.output_count().has_value();
  if (!outputs_known && y.kind() == Arrays::Kind::list) {
    b.y = y.list();
  } else if (!y.empty()) {
    for (auto& t : y.resolve(model.output_names(), "y", model.name(), false, false)) b.y.push_back(t.value_or(Tensor()));
  }
  if (sample_weight.kind() == Arrays::Kind::one) {  // one array weighs every output, as in Keras
    const std::size_t outputs = outputs_known ? model.output_names().size() : std::max<std::size_t>(1, b.y.size());
    b.sample_weight.assign(outputs, sample_weight.one());
  } else if (!outputs_known && sample_weight.kind() == Arrays::Kind::list) {
    b.sample_weight = sample_weight.list();
  } else if (!sample_weight.empty()) {
    for (auto& t : sample_weight.resolve(model.output_names(), "sample_weight", model.name(), true, false))
      b.sample_weight.push_back(t.value_or(Tensor()));
  }
  check_same_samples(b, model.name());
  return b;
}

}  // namespace keras
