#pragma once
// compile()'s metrics argument for models with one or several outputs.
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "keras/trainers/structure.hpp"
#include "metrics/metric.hpp"

namespace keras {

/// compile()'s metrics: one list for every output (`{"accuracy"}`), one list per output
/// (`std::vector<std::vector<MetricRef>>{{"accuracy"}, {"mae"}}`), or lists by output name
/// (`{{"out_a", {"accuracy"}}, {"out_b", {"mae"}}}`).
class MetricsSpec {
 public:
  using List = std::vector<metrics::MetricRef>;
  MetricsSpec() = default;
  MetricsSpec(std::initializer_list<metrics::MetricRef> all) : all_(all) {}
  MetricsSpec(List all) : all_(std::move(all)) {}  // NOLINT
  MetricsSpec(std::vector<List> per_output) : per_output_(std::move(per_output)) {}  // NOLINT
  MetricsSpec(std::initializer_list<std::pair<const std::string, List>> by_name) : per_output_(std::map<std::string, List>(by_name)) {}
  MetricsSpec(std::map<std::string, List> by_name) : per_output_(std::move(by_name)) {}  // NOLINT

  /// True when no metric was given (Keras writes null for such an argument).
  bool empty() const { return all_.empty() && per_output_.empty(); }
  /// The metric list of each output (copies of metric objects for every output after the first).
  std::vector<List> resolve(const std::vector<std::string>& output_names, const std::string& model) const;
  /// As Keras writes the compile argument into training_config: a list, a list of lists, or a map.
  json serialize() const;
  /// The reverse of serialize(), for training_config written by Keras or by us.
  static MetricsSpec deserialize(const json& j);

 private:
  List all_;
  Structure<List> per_output_;
};

}  // namespace keras
