#pragma once
// Shared by the metric tests: the vector result of the metrics that have one, and the seed's KS metric
// written as a Metric subclass (registered as "KS" / "ks").
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "keras/json.hpp"
#include "metrics/metrics.hpp"

namespace keras::testing {

/// result_tensor() of the metrics whose Keras result may be a tensor; nullopt for the others.
inline std::optional<Tensor> result_tensor_of(const metrics::Metric& m) {
  if (auto* p = dynamic_cast<const metrics::ConfusionCount*>(&m)) return p->result_tensor();
  if (auto* p = dynamic_cast<const metrics::PrecisionRecallBase*>(&m)) return p->result_tensor();
  if (auto* p = dynamic_cast<const metrics::FBetaScore*>(&m)) return p->result_tensor();
  if (auto* p = dynamic_cast<const metrics::R2Score*>(&m)) return p->result_tensor();
  if (auto* p = dynamic_cast<const metrics::MeanTensor*>(&m)) return p->result_tensor();
  return std::nullopt;
}

/// The Kolmogorov-Smirnov statistic between the scores of positives and negatives, from the seed: each
/// prediction goes to one of 101 buckets int(100 * p); the result is the largest gap between the
/// cumulative shares of positives and of negatives, accumulated over batches.
class KS : public metrics::Metric {
 public:
  explicit KS(std::string name = "ks") : Metric(std::move(name)) {}

  void update_state(const Tensor& y_true, const Tensor& y_pred, const Tensor& /*sample_weight*/ = Tensor()) override {
    const auto t = y_true.astype(DType::float32).to_vector<float>();
    const auto p = y_pred.astype(DType::float32).to_vector<float>();
    if (t.size() != p.size())
      throw ValueError("KS: y_true of shape " + shape_str(y_true.shape()) + " and y_pred of shape " +
                       shape_str(y_pred.shape()) + " differ in size");
    for (std::size_t i = 0; i < p.size(); ++i) {
      const int bucket = std::clamp(static_cast<int>(100.f * p[i]), 0, 100);
      (t[i] != 0 ? positives_ : negatives_)[static_cast<std::size_t>(bucket)] += 1.0;
    }
  }

  double result() const override {
    double pos_total = 0, neg_total = 0;
    for (std::size_t b = 0; b < positives_.size(); ++b) {
      pos_total += positives_[b];
      neg_total += negatives_[b];
    }
    if (pos_total == 0 || neg_total == 0) return 0.0;
    double pos = 0, neg = 0, ks = 0;
    for (std::size_t b = 0; b < positives_.size(); ++b) {
      pos += positives_[b];
      neg += negatives_[b];
      ks = std::max(ks, std::abs(pos / pos_total - neg / neg_total));
    }
    return ks;
  }

  void reset_state() override {
    positives_.fill(0);
    negatives_.fill(0);
  }
  std::string class_name() const override { return "KS"; }
  static std::shared_ptr<metrics::Metric> from_config(const json& config) {
    return std::make_shared<KS>(config.value("name", "ks"));
  }

 private:
  std::array<double, 101> positives_{}, negatives_{};
};

inline const bool ks_registered = register_class<metrics::Metric, KS>("KS", {"ks"});

}  // namespace keras::testing
