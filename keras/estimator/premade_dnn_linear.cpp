// DNNLinearCombinedClassifier (see premade_dnn_linear.hpp).
#include "keras/estimator/premade_dnn_linear.hpp"

#include "keras/errors.hpp"
#include "keras/estimator/head.hpp"
#include "keras/estimator/premade_dnn.hpp"
#include "keras/estimator/premade_linear.hpp"
#include "layers/merging/elementwise.hpp"

namespace keras::estimator {
namespace {
DNNLinearCombinedOptions checked(DNNLinearCombinedOptions o) {
  if (o.linear_feature_columns.empty() && o.dnn_feature_columns.empty())
    throw ValueError("DNNLinearCombinedClassifier: give linear_feature_columns, dnn_feature_columns or both");
  if (!o.dnn_feature_columns.empty() && o.dnn_hidden_units.empty())
    throw ValueError("DNNLinearCombinedClassifier: dnn_hidden_units must be given with dnn_feature_columns");
  return o;
}
}  // namespace

DNNLinearCombinedClassifier::DNNLinearCombinedClassifier(DNNLinearCombinedOptions options)
    : Estimator(
          [o = checked(options)](const Features& f, const KerasTensor&, ModeKeys mode, const json&) {
            const std::int64_t units = logits_dimension(o.n_classes);
            std::vector<KerasTensor> parts;
            if (!o.linear_feature_columns.empty()) parts.push_back(linear_logits(f, o.linear_feature_columns, units, "linear_"));
            if (!o.dnn_feature_columns.empty()) {
              DNNOptions dnn{.hidden_units = o.dnn_hidden_units, .feature_columns = o.dnn_feature_columns,
                             .activation_fn = o.dnn_activation_fn, .dropout = o.dnn_dropout};
              parts.push_back(dnn_logits(f, dnn, units, "dnn_"));
            }
            const KerasTensor logits = parts.size() == 1 ? parts[0] : layers::Add({.name = "combined_logits"})(parts);
            return classification_head(mode, logits, o.n_classes, o.dnn_optimizer.value_or(default_dnn_optimizer()));
          },
          {.model_dir = options.model_dir, .config = options.config}) {}

}  // namespace keras::estimator
