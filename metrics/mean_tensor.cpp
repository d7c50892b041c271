#include "metrics/mean_tensor.hpp"

#include <algorithm>

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

MeanTensor::MeanTensor(MeanTensorOptions options) : Metric(options.name), options_(std::move(options)) {
  if (options_.shape) {
    shape_ = options_.shape;
    total_.assign(static_cast<std::size_t>(shape_size(*shape_)), 0.0);
    count_ = total_;
  }
}

void MeanTensor::update(const Tensor& values, const Tensor& sample_weight) {
  if (!shape_) {
    shape_ = values.shape();
    total_.assign(static_cast<std::size_t>(values.size()), 0.0);
    count_ = total_;
  } else if (values.shape() != *shape_) {
    throw ValueError("MeanTensor '" + name() + "': input values must always have the same shape. Expected shape "
                     "(set during the first call): " + shape_str(*shape_) + ". Got: " + shape_str(values.shape()));
  }
  const std::vector<float> v = detail::float_values(values);
  const std::vector<float> w = detail::broadcast_weights(sample_weight, values.shape(), "MeanTensor '" + name() + "'");
  for (std::size_t i = 0; i < v.size(); ++i) {
    total_[i] += double(v[i]) * w[i];
    count_[i] += w[i];
  }
}

Tensor MeanTensor::result_tensor() const {
  if (!shape_)
    throw ValueError("MeanTensor '" + name() + "' does not have any value yet. Call update() (or update_state) "
                     "before retrieving the result, or give its shape in the options");
  std::vector<float> out(total_.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = count_[i] != 0 ? static_cast<float>(total_[i] / count_[i]) : 0.f;
  return Tensor::from_vector<float>(out, *shape_);
}

double MeanTensor::result() const {
  if (!shape_ || total_.empty()) return 0.0;
  double s = 0;
  for (std::size_t i = 0; i < total_.size(); ++i) s += count_[i] != 0 ? total_[i] / count_[i] : 0.0;
  return s / static_cast<double>(total_.size());
}

void MeanTensor::reset_state() {
  std::fill(total_.begin(), total_.end(), 0.0);
  std::fill(count_.begin(), count_.end(), 0.0);
}

KERAS_FIELDS(MeanTensorOptions, shape)

json MeanTensor::get_config() const {
  json config = metric_config(*this, options_);
  if (!options_.shape) config.erase("shape");  // Keras writes no shape when none was given
  return config;
}

std::shared_ptr<Metric> MeanTensor::from_config(const json& config) {
  return metric_from_config<MeanTensor, MeanTensorOptions>(config);
}

std::vector<double> MeanTensor::state() const { return detail::concat_state({&total_, &count_}); }

void MeanTensor::set_state(const std::vector<double>& state) {
  detail::split_state(state, {&total_, &count_}, name());
}

namespace {
const bool registered = register_class<Metric, MeanTensor>("MeanTensor", {"mean_tensor"});
}

}  // namespace keras::metrics
