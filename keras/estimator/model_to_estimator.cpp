// model_to_estimator: an Estimator over a compiled Keras model (see model_to_estimator.hpp).
#include "keras/estimator/model_to_estimator.hpp"

#include <algorithm>

#include "keras/errors.hpp"

namespace keras::estimator {
namespace {

class KerasModelEstimator : public Estimator {
 public:
  KerasModelEstimator(std::shared_ptr<Model> model, ModelToEstimatorOptions options)
      : Estimator(nullptr, {.model_dir = options.model_dir, .config = options.config}), model_(std::move(model)) {
    save_initial_checkpoint(model_);
  }

 protected:
  Graph build_graph(ModeKeys mode, const data::ElementSpec& features, const std::optional<data::TensorSpec>&) override {
    std::vector<std::string> names = model_->input_names();
    std::vector<std::string> given = features.keys();
    std::sort(names.begin(), names.end());
    if (names != given) {
      std::string want, got;
      for (const auto& n : names) want += (want.empty() ? "" : ", ") + n;
      for (const auto& n : given) got += (got.empty() ? "" : ", ") + n;
      throw ValueError("model_to_estimator: input_fn's features must be keyed by the model's input names (" + want +
                       "); got " + got);
    }
    Graph graph{.model = model_};
    if (mode == ModeKeys::PREDICT) graph.output_keys = model_->output_names();
    return graph;
  }
  std::string single_feature_key() const override {
    const auto names = model_->input_names();
    return names.size() == 1 ? names[0] : Estimator::single_feature_key();
  }

 private:
  std::shared_ptr<Model> model_;
};

}  // namespace

std::unique_ptr<Estimator> model_to_estimator(std::shared_ptr<Model> keras_model, ModelToEstimatorOptions options) {
  if (!keras_model) throw ValueError("model_to_estimator: keras_model is null");
  if (!keras_model->compiled())
    throw ValueError("model_to_estimator: the model '" + keras_model->name() + "' must be compiled (call compile() first)");
  if (!keras_model->built())
    throw ValueError("model_to_estimator: the model '" + keras_model->name() + "' must be built (give it an Input)");
  return std::make_unique<KerasModelEstimator>(std::move(keras_model), std::move(options));
}

}  // namespace keras::estimator
