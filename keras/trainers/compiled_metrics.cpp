#include "keras/trainers/compiled_metrics.hpp"

#include <algorithm>

#include "metrics/accuracy_resolution.hpp"

namespace keras {

void CompiledMetrics::update_state(const Tensor& y, const Tensor& y_pred, const Tensor& sample_weight,
                                   const std::string& loss_class) {
  if (metrics_.size() != specs_.size()) {
    metrics_.clear();
    for (const auto& spec : specs_)
      metrics_.push_back(spec.ptr() ? spec.ptr()
                                       : metrics::resolve_metric(spec.identifier(), y.shape(), y_pred.shape(), loss_class));
  }
  const Tensor weight = weighted_ ? sample_weight : Tensor();
  for (auto& m : metrics_) m->update_state(y, y_pred, weight);
}

void CompiledMetrics::reset_state() {
  for (auto& m : metrics_) m->reset_state();
}

std::string CompiledMetrics::log_name(const std::string& metric_name, const std::vector<std::string>& taken) const {
  const bool clashes = std::find(taken.begin(), taken.end(), prefix_ + metric_name) != taken.end();
  return prefix_ + (weighted_ && clashes ? "weighted_" : "") + metric_name;
}

void CompiledMetrics::collect(LoggedMetrics& out, const std::vector<std::string>& taken) const {
  for (const auto& m : metrics_) out.emplace_back(log_name(m->name(), taken), m.get());
}

std::vector<std::string> CompiledMetrics::names(const std::vector<std::string>& taken) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < specs_.size(); ++i)
    out.push_back(log_name(i < metrics_.size() ? metrics_[i]->name()
                                               : (specs_[i].ptr() ? specs_[i].ptr()->name() : specs_[i].identifier()),
                           taken));
  return out;
}

}  // namespace keras
