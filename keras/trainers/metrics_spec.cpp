#include "keras/trainers/metrics_spec.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "keras/json.hpp"
#include "keras/trainers/structure_json.hpp"

namespace keras {

namespace {

// A metric object given for every output is copied (through its config) for the outputs after the first,
// so each output keeps its own state.
metrics::MetricRef copy_metric(const metrics::MetricRef& m, const std::string& model) {
  if (!m.ptr()) return m;
  try {
    return metrics::MetricRef(metrics::Metric::deserialize(metrics::serialize(*m.ptr())));
  } catch (const Error&) {
    throw ValueError(fmt::format("Model '{}': the metric object '{}' was given for every output but cannot be copied "
                                 "through its config; give one metric object per output (a list of lists or a map)",
                                 model, m.ptr()->name()));
  }
}

json serialize_metric(const metrics::MetricRef& m) {
  return m.ptr() ? metrics::serialize(*m.ptr()) : json(m.identifier());
}

metrics::MetricRef metric_from_json(const json& m) {
  if (m.is_string()) return metrics::MetricRef(m.get<std::string>());
  // tf.keras 2.13 writes string metrics as MeanMetricWrapper{name, fn}: the name is what the user wrote.
  if (m.is_object() && m.value("class_name", "") == "MeanMetricWrapper")
    return metrics::MetricRef(m["config"].value("name", m["config"].value("fn", "")));
  return metrics::MetricRef(metrics::Metric::deserialize(m));
}

MetricsSpec::List list_from_json(const json& j) {
  MetricsSpec::List out;
  if (j.is_array()) {
    for (const auto& m : j)
      if (!m.is_null()) out.push_back(metric_from_json(m));
  } else if (!j.is_null()) {
    out.push_back(metric_from_json(j));
  }
  return out;
}

}  // namespace

std::vector<MetricsSpec::List> MetricsSpec::resolve(const std::vector<std::string>& output_names,
                                                    const std::string& model) const {
  if (!per_output_.empty()) {
    std::vector<List> out;
    for (auto& l : per_output_.resolve(output_names, "metrics", model, false, false)) out.push_back(l.value_or(List{}));
    return out;
  }
  std::vector<List> out(output_names.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    for (const auto& m : all_) out[i].push_back(i == 0 ? m : copy_metric(m, model));
  return out;
}

json MetricsSpec::serialize() const {
  auto list = [](const List& l) {
    json out = json::array();
    for (const auto& m : l) out.push_back(serialize_metric(m));
    return out;
  };
  if (per_output_.empty()) return list(all_);
  return serialize_structure(per_output_, list);
}

MetricsSpec MetricsSpec::deserialize(const json& j) {
  if (j.is_object()) {
    std::map<std::string, List> by_name;
    for (const auto& [k, v] : j.items()) by_name[k] = list_from_json(v);
    return MetricsSpec(std::move(by_name));
  }
  if (j.is_array() && !j.empty() && std::all_of(j.begin(), j.end(), [](const json& e) { return e.is_array() || e.is_null(); })) {
    std::vector<List> per_output;
    for (const auto& e : j) per_output.push_back(list_from_json(e));
    return MetricsSpec(std::move(per_output));
  }
  return MetricsSpec(list_from_json(j));
}

}  // namespace keras
