#include "metrics/metric.hpp"

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/json.hpp"
#include "metrics/metric_config.hpp"
#include "metrics/metric_utils.hpp"

namespace keras::metrics {

json Metric::get_config() const { return {{"name", name_}, {"dtype", "float32"}}; }

void Metric::set_state(const std::vector<double>& state) {
  if (!state.empty())
    throw ValueError("metric '" + name_ + "' (" + class_name() + ") has no state() to restore: override state() and "
                     "set_state() together");
}

void Mean::set_state(const std::vector<double>& state) {
  std::vector<double> both{0, 0};
  detail::split_state(state, {&both}, name());
  total_ = both[0];
  count_ = both[1];
}

std::shared_ptr<Metric> Metric::get(const std::string& identifier) {
  return Registry<Metric>::instance().create(identifier, json::object(), "metric");
}

std::shared_ptr<Metric> Metric::deserialize(const json& config) {
  if (config.is_string()) return get(config.get<std::string>());
  if (!config.is_object() || !config.contains("class_name"))
    throw ValueError("Cannot read a metric from " + config.dump() + ": expected {\"class_name\", \"config\"}");
  return Registry<Metric>::instance().create(config["class_name"].get<std::string>(),
                                            config.value("config", json::object()), "metric");
}

void Mean::update(const Tensor& values, const Tensor& sample_weight) {
  Tensor v = values.astype(DType::float32);
  const float* pv = v.data<float>();
  const auto n = v.size();
  if (!sample_weight.defined()) {
    double s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += pv[i];
    total_ += s;
    count_ += static_cast<double>(n);
    return;
  }
  Tensor w = sample_weight.astype(DType::float32);
  if (n == 0) return;
  if (w.size() == 0 || n % w.size() != 0)
    throw ValueError("Mean metric '" + name() + "': sample_weight of shape " + shape_str(w.shape()) +
                     " does not match values of shape " + shape_str(v.shape()));
  const float* pw = w.data<float>();
  const auto per_weight = n / w.size();  // a weight per sample applies to all of its values
  for (std::int64_t i = 0; i < n; ++i) {
    total_ += double(pv[i]) * pw[i / per_weight];
    count_ += pw[i / per_weight];
  }
}

KERAS_FIELDS(MeanOptions)

std::shared_ptr<Metric> Mean::from_config(const json& config) {
  return metric_from_config<Mean, MeanOptions>(config);
}

MeanMetricWrapper::MeanMetricWrapper(std::shared_ptr<losses::Loss> loss, std::string name)
    : MeanMetricWrapper(
          [loss](const Tensor& y_true, const Tensor& y_pred) {
            if (!loss) throw ValueError("MeanMetricWrapper: the loss is null");
            return loss->call(y_true, y_pred);
          },
          name.empty() && loss ? loss->name() : name) {
  if (loss) fn_name_ = loss->name();
}

void MeanMetricWrapper::update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& sample_weight) {
  autodiff::NoGradScope no_grad;
  mean_.update(fn_(detail::match_rank(y_true, y_pred), y_pred), sample_weight);
}

json MeanMetricWrapper::get_config() const {
  json config = Metric::get_config();
  if (class_name_ == "MeanMetricWrapper" && !fn_name_.empty()) config["fn"] = fn_name_;
  return config;
}

std::shared_ptr<Metric> MeanMetricWrapper::from_config(const json& config) {
  const std::string name = config.value("name", "mean_metric_wrapper");
  if (!config.contains("fn") || !config["fn"].is_string())
    throw ValueError("MeanMetricWrapper config " + config.dump() +
                     " has no \"fn\": give the name of a metric or loss function, such as \"mae\"");
  const std::string fn = config["fn"].get<std::string>();
  std::shared_ptr<MeanMetricWrapper> out;
  if (Registry<Metric>::instance().contains(fn)) {
    if (auto wrapped = std::dynamic_pointer_cast<MeanMetricWrapper>(Metric::get(fn)))
      out = std::make_shared<MeanMetricWrapper>(wrapped->fn(), name);
  }
  if (!out) {
    if (!Registry<losses::Loss>::instance().contains(fn))
      throw ValueError("MeanMetricWrapper: unknown function '" + fn +
                       "'; \"fn\" must name a per-sample metric (\"mae\", \"binary_accuracy\") or a loss");
    out = std::make_shared<MeanMetricWrapper>(losses::Loss::get(fn), name);
  }
  out->set_fn_name(fn);
  return out;
}

json serialize(const Metric& metric) { return serialize_object(metric.class_name(), metric.get_config()); }

namespace {
const bool registered = register_class<Metric, Mean>("Mean", {"mean"});
const bool registered_wrapper = register_class<Metric, MeanMetricWrapper>("MeanMetricWrapper", {"mean_metric_wrapper"});
}

}  // namespace keras::metrics
