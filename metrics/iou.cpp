#include "metrics/iou.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "metrics/confusion_matrix.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {
namespace {

std::vector<int> all_classes(int num_classes) {
  std::vector<int> ids(static_cast<std::size_t>(std::max(num_classes, 0)));
  std::iota(ids.begin(), ids.end(), 0);
  return ids;
}

int required_classes(const json& config, const char* class_name) {
  if (!config.contains("num_classes") || !config["num_classes"].is_number_integer())
    throw ValueError(std::string(class_name) + " needs the number of classes: give {\"num_classes\": N} in the config");
  return config["num_classes"].get<int>();
}

std::vector<int> required_targets(const json& config, const char* class_name) {
  if (!config.contains("target_class_ids") || !config["target_class_ids"].is_array())
    throw ValueError(std::string(class_name) +
                     " needs the classes to report: give {\"target_class_ids\": [0, ...]} in the config");
  return config["target_class_ids"].get<std::vector<int>>();
}

}  // namespace

IoU::IoU(int num_classes, std::vector<int> target_class_ids, IoUOptions options)
    : Metric(options.name), num_classes_(num_classes), target_class_ids_(std::move(target_class_ids)),
      options_(std::move(options)) {
  if (num_classes_ <= 0)
    throw ValueError("IoU '" + name() + "': num_classes must be a positive integer, got " + std::to_string(num_classes_));
  if (target_class_ids_.empty()) throw ValueError("IoU '" + name() + "': target_class_ids is empty");
  for (int id : target_class_ids_)
    if (id < 0 || id >= num_classes_)
      throw ValueError("IoU '" + name() + "': target class id " + std::to_string(id) + " is out of range, which is [0, " +
                       std::to_string(num_classes_) + ")");
  cm_.assign(static_cast<std::size_t>(num_classes_) * static_cast<std::size_t>(num_classes_), 0.0);
}

void IoU::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  const Tensor t = options_.sparse_y_true ? y_true : ops::argmax(y_true, options_.axis);
  const Tensor p = predicted_ids(options_.sparse_y_pred ? y_pred : ops::argmax(y_pred, options_.axis));
  if (t.size() != p.size())
    throw ValueError(class_name() + " '" + name() + "': y_true of shape " + shape_str(y_true.shape()) +
                     " and y_pred of shape " + shape_str(y_pred.shape()) + " hold " + std::to_string(t.size()) +
                     " and " + std::to_string(p.size()) + " class ids; give one predicted id per target");
  const std::vector<float> tv = detail::float_values(t), pv = detail::float_values(p);
  const std::vector<float> w = detail::broadcast_weights(sample_weight, t.shape(), class_name() + " '" + name() + "'");
  const auto n = static_cast<std::int64_t>(num_classes_);
  for (std::size_t i = 0; i < tv.size(); ++i) {
    if (options_.ignore_class && tv[i] == static_cast<float>(*options_.ignore_class)) continue;
    const auto a = static_cast<std::int64_t>(tv[i]), b = static_cast<std::int64_t>(pv[i]);  // truncation, as tf.cast
    if (a < 0 || a >= n || b < 0 || b >= n || !std::isfinite(tv[i]) || !std::isfinite(pv[i]))
      throw ValueError(class_name() + " '" + name() + "': class ids must be in [0, " + std::to_string(n) + "), got target " +
                       std::to_string(tv[i]) + " and prediction " + std::to_string(pv[i]) +
                       ". Set num_classes to the number of classes" +
                       (options_.sparse_y_pred ? std::string(", or sparse_y_pred = false for score vectors") : std::string()));
    cm_[static_cast<std::size_t>(a * n + b)] += w[i];
  }
}

double IoU::result() const {
  const auto n = static_cast<std::size_t>(num_classes_);
  double sum = 0, valid = 0;
  for (int id : target_class_ids_) {
    const auto c = static_cast<std::size_t>(id);
    double row = 0, col = 0;
    for (std::size_t k = 0; k < n; ++k) {
      row += cm_[c * n + k];
      col += cm_[k * n + c];
    }
    const double tp = cm_[c * n + c];
    const double denominator = row + col - tp;
    if (denominator != 0) valid += 1;
    sum += divide_no_nan(tp, denominator);
  }
  return divide_no_nan(sum, valid);
}

void IoU::reset_state() { std::fill(cm_.begin(), cm_.end(), 0.0); }

KERAS_FIELDS(IoUOptions, ignore_class, sparse_y_true, sparse_y_pred, axis)
KERAS_FIELDS(MeanIoUOptions, ignore_class, sparse_y_true, sparse_y_pred, axis)
KERAS_FIELDS(BinaryIoUOptions, target_class_ids, threshold)
KERAS_FIELDS(OneHotIoUOptions, ignore_class, sparse_y_pred, axis)
KERAS_FIELDS(OneHotMeanIoUOptions, ignore_class, sparse_y_pred, axis)

// The subclasses write IoU's config less the keys their constructors fix.
json IoU::get_config() const {
  json config = metric_config(*this, options_);
  config["num_classes"] = num_classes_;
  config["target_class_ids"] = target_class_ids_;
  return config;
}

std::shared_ptr<Metric> IoU::from_config(const json& config) {
  const int num_classes = required_classes(config, "IoU");
  return metric_from_config<IoU, IoUOptions>(config, num_classes, required_targets(config, "IoU"));
}

MeanIoU::MeanIoU(int num_classes, MeanIoUOptions options)
    : IoU(num_classes, all_classes(num_classes),
          IoUOptions{.name = options.name,
                     .ignore_class = options.ignore_class,
                     .sparse_y_true = options.sparse_y_true,
                     .sparse_y_pred = options.sparse_y_pred,
                     .axis = options.axis}) {}

json MeanIoU::get_config() const {
  json config = IoU::get_config();
  config.erase("target_class_ids");
  return config;
}

std::shared_ptr<Metric> MeanIoU::from_config(const json& config) {
  return metric_from_config<MeanIoU, MeanIoUOptions>(config, required_classes(config, "MeanIoU"));
}

BinaryIoU::BinaryIoU(BinaryIoUOptions options)
    : IoU(2, options.target_class_ids, IoUOptions{.name = options.name}), threshold_(options.threshold) {}

Tensor BinaryIoU::predicted_ids(const Tensor& y_pred) const {
  std::vector<float> v = detail::float_values(y_pred);
  const auto threshold = static_cast<float>(threshold_);
  for (float& x : v) x = x >= threshold ? 1.f : 0.f;
  return Tensor::from_vector<float>(v, y_pred.shape());
}

json BinaryIoU::get_config() const {
  return metric_config(*this, BinaryIoUOptions{.target_class_ids = target_class_ids_, .threshold = threshold_});
}

std::shared_ptr<Metric> BinaryIoU::from_config(const json& config) {
  return metric_from_config<BinaryIoU, BinaryIoUOptions>(config);
}

OneHotIoU::OneHotIoU(int num_classes, std::vector<int> target_class_ids, OneHotIoUOptions options)
    : IoU(num_classes, std::move(target_class_ids),
          IoUOptions{.name = options.name,
                     .ignore_class = options.ignore_class,
                     .sparse_y_true = false,
                     .sparse_y_pred = options.sparse_y_pred,
                     .axis = options.axis}) {}

json OneHotIoU::get_config() const {
  json config = IoU::get_config();
  config.erase("sparse_y_true");
  return config;
}

std::shared_ptr<Metric> OneHotIoU::from_config(const json& config) {
  const int num_classes = required_classes(config, "OneHotIoU");
  return metric_from_config<OneHotIoU, OneHotIoUOptions>(config, num_classes, required_targets(config, "OneHotIoU"));
}

OneHotMeanIoU::OneHotMeanIoU(int num_classes, OneHotMeanIoUOptions options)
    : IoU(num_classes, all_classes(num_classes),
          IoUOptions{.name = options.name,
                     .ignore_class = options.ignore_class,
                     .sparse_y_true = false,
                     .sparse_y_pred = options.sparse_y_pred,
                     .axis = options.axis}) {}

json OneHotMeanIoU::get_config() const {
  json config = IoU::get_config();
  config.erase("sparse_y_true");
  config.erase("target_class_ids");
  return config;
}

std::shared_ptr<Metric> OneHotMeanIoU::from_config(const json& config) {
  return metric_from_config<OneHotMeanIoU, OneHotMeanIoUOptions>(config, required_classes(config, "OneHotMeanIoU"));
}

void IoU::set_state(const std::vector<double>& state) { detail::split_state(state, {&cm_}, name()); }

namespace {
const bool registered_iou = register_class<Metric, IoU>("IoU", {"io_u"});
const bool registered_mean = register_class<Metric, MeanIoU>("MeanIoU", {"mean_io_u"});
const bool registered_binary = register_class<Metric, BinaryIoU>("BinaryIoU", {"binary_io_u"});
const bool registered_one_hot = register_class<Metric, OneHotIoU>("OneHotIoU", {"one_hot_io_u"});
const bool registered_one_hot_mean = register_class<Metric, OneHotMeanIoU>("OneHotMeanIoU", {"one_hot_mean_io_u"});
}  // namespace

}  // namespace keras::metrics
