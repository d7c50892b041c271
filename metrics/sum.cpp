#include "metrics/sum.hpp"

#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

void Sum::update(const Tensor& values, const Tensor& sample_weight) {
  const std::vector<float> v = detail::float_values(values);
  const std::vector<float> w = detail::broadcast_weights(sample_weight, values.shape(), "Sum metric '" + name() + "'");
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i) s += double(v[i]) * w[i];
  total_ += s;
}

KERAS_FIELDS(SumOptions)

std::shared_ptr<Metric> Sum::from_config(const json& config) {
  return metric_from_config<Sum, SumOptions>(config);
}

void Sum::set_state(const std::vector<double>& state) {
  std::vector<double> total{0};
  detail::split_state(state, {&total}, name());
  total_ = total[0];
}

namespace {
const bool registered = register_class<Metric, Sum>("Sum", {"sum"});
}

}  // namespace keras::metrics
