#include "metrics/accuracy_resolution.hpp"

#include "losses/binary_crossentropy.hpp"
#include "losses/categorical_crossentropy.hpp"
#include "losses/sparse_categorical_crossentropy.hpp"
#include "metrics/binary_accuracy.hpp"
#include "metrics/categorical_accuracy.hpp"
#include "metrics/sparse_categorical_accuracy.hpp"

namespace keras::metrics {
namespace {

enum class Kind { binary, sparse, categorical };

Kind target_kind(const Shape& y_true, const Shape& y_pred, const std::string& loss_class_name) {
  const auto last = [](const Shape& s) { return s.empty() ? std::int64_t{1} : s.back(); };
  const bool binary_loss = loss_class_name == "BinaryCrossentropy" || loss_class_name == "binary_crossentropy";
  if (last(y_pred) == 1 || binary_loss) return Kind::binary;
  if (y_true.size() < y_pred.size() || (last(y_true) == 1 && last(y_pred) > 1)) return Kind::sparse;
  return Kind::categorical;
}

}  // namespace

std::shared_ptr<Metric> resolve_metric(const std::string& identifier, const Shape& y_true_shape,
                                       const Shape& y_pred_shape, const std::string& loss_class_name) {
  const Kind kind = target_kind(y_true_shape, y_pred_shape, loss_class_name);
  std::shared_ptr<Metric> metric;
  if (identifier == "accuracy" || identifier == "acc") {
    switch (kind) {
      case Kind::binary: metric = std::make_shared<BinaryAccuracy>(); break;
      case Kind::sparse: metric = std::make_shared<SparseCategoricalAccuracy>(); break;
      case Kind::categorical: metric = std::make_shared<CategoricalAccuracy>(); break;
    }
  } else if (identifier == "crossentropy" || identifier == "ce") {
    MeanMetricWrapper::Fn fn;
    switch (kind) {
      case Kind::binary: fn = [](const Tensor& t, const Tensor& p) { return losses::binary_crossentropy(t, p); }; break;
      case Kind::sparse:
        fn = [](const Tensor& t, const Tensor& p) { return losses::sparse_categorical_crossentropy(t, p); };
        break;
      case Kind::categorical:
        fn = [](const Tensor& t, const Tensor& p) { return losses::categorical_crossentropy(t, p); };
        break;
    }
    metric = std::make_shared<MeanMetricWrapper>(fn, identifier);
  } else {
    metric = Metric::get(identifier);
  }
  if (metric->class_name() != identifier) metric->set_name(identifier);
  return metric;
}

}  // namespace keras::metrics
