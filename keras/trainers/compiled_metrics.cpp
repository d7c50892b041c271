#include "keras/trainers/compiled_metrics.hpp"
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
  for (auto& m : metrics_) m->update_state(y, y_pred, sample_weight);
}

void CompiledMetrics::reset_state() {
  for (auto& m : metrics_) m->reset_state();
}

void CompiledMetrics::write(Logs& logs) const {
  for (const auto& m : metrics_) logs[prefix_ + m->name()] = m->result();
}

std::vector<std::string> CompiledMetrics::names() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < specs_.size(); ++i)
    out.push_back(prefix_ + (i < metrics_.size() ? metrics_[i]->name()
                                                 : (specs_[i].ptr() ? specs_[i].ptr()->name() : specs_[i].identifier())));
  return out;
}

}  // namespace keras
