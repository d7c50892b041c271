// The premade-Estimator walk-through of TensorFlow's guide, in C++: classify Iris flowers with a
// DNNClassifier on feature columns, train, evaluate, predict; then train again in the same model_dir,
// which resumes from its latest checkpoint. The Iris data are synthetic (keras::estimator::make_iris_like:
// per-class normal draws with Fisher's Iris means and standard deviations), as the real set is not shipped.
//   premade_estimator [model_dir]     (default: premade_estimator_model/ in the current folder)
// Exits with 1 when the test accuracy is below 0.8 or the second Estimator does not resume at step 600.
#include <cstdio>
#include <filesystem>
#include <string>

#include <keras/estimator/estimator.hpp>
#include <keras/keras.hpp>
namespace k = keras;
namespace est = keras::estimator;

namespace {

k::data::Element features_of(const std::map<std::string, k::Tensor>& features) {
  std::vector<std::pair<std::string, k::data::Element>> items;
  for (const auto& [name, t] : features) items.emplace_back(name, k::data::Element(t));
  return k::data::named(std::move(items));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string model_dir = argc > 1 ? argv[1] : "premade_estimator_model";
  if (argc <= 1) std::filesystem::remove_all(model_dir);  // the default folder is the example's own
  if (std::filesystem::exists(std::filesystem::path(model_dir) / "checkpoint")) {
    std::fprintf(stderr, "%s already holds checkpoints: give a new folder\n", model_dir.c_str());
    return 2;
  }
  const auto train = est::make_iris_like(120, 2018);
  const auto test = est::make_iris_like(30, 2019);
  const std::vector<std::string> species{"Setosa", "Versicolor", "Virginica"};

  // README: begin premade-estimator
  // 1. Input functions: a Dataset of (features by name, label) batches.
  auto train_input_fn = [&] {
    return k::data::Dataset::from_tensor_slices(k::data::tuple({features_of(train.features), train.labels}))
        .shuffle(1000, {.seed = 1}).repeat().batch(32);
  };
  auto eval_input_fn = [&] {
    return k::data::Dataset::from_tensor_slices(k::data::tuple({features_of(test.features), test.labels})).batch(32);
  };
  // 2. Feature columns: the four measurements as numbers.
  std::vector<est::Column> columns;
  for (const auto& key : est::IrisLike::feature_names()) columns.push_back(est::numeric_column(key));
  // 3. A premade Estimator: two hidden layers of 30 and 10 units, three classes.
  est::DNNClassifier classifier({.hidden_units = {30, 10}, .feature_columns = columns, .model_dir = model_dir,
                                 .n_classes = 3, .config = {.tf_random_seed = 42, .save_checkpoints_steps = 200}});
  // 4. Train, evaluate, predict.
  classifier.train(train_input_fn, {.steps = 600});
  const auto metrics = classifier.evaluate(eval_input_fn);
  std::printf("Test set accuracy: %.3f (loss %.4f, global_step %.0f)\n", metrics.at("accuracy"), metrics.at("loss"),
              metrics.at("global_step"));
  // README: end premade-estimator

  const std::map<std::string, k::Tensor> predict_x{
      {"SepalLength", k::Tensor::from_vector<float>({5.1f, 5.9f, 6.9f})},
      {"SepalWidth", k::Tensor::from_vector<float>({3.3f, 3.0f, 3.1f})},
      {"PetalLength", k::Tensor::from_vector<float>({1.7f, 4.2f, 5.4f})},
      {"PetalWidth", k::Tensor::from_vector<float>({0.5f, 1.5f, 2.1f})}};
  const auto predictions = classifier.predict([&] { return k::data::Dataset::from_tensor_slices(features_of(predict_x)).batch(3); });
  const auto class_ids = predictions.at("class_ids").to_vector<std::int64_t>();
  const auto probabilities = predictions.at("probabilities").to_vector<float>();
  for (std::size_t i = 0; i < class_ids.size(); ++i)
    std::printf("Prediction is \"%s\" (%.1f%%), expected \"%s\"\n", species[class_ids[i]].c_str(),
                100.0 * probabilities[3 * i + class_ids[i]], species[i].c_str());

  // A second Estimator on the same model_dir carries on from the latest checkpoint (global_step 600).
  est::DNNClassifier resumed({.hidden_units = {30, 10}, .feature_columns = columns, .model_dir = model_dir, .n_classes = 3});
  const std::int64_t resumed_at = resumed.global_step();
  std::printf("Resuming at global_step %lld\n", static_cast<long long>(resumed_at));
  resumed.train(train_input_fn, {.steps = 200});
  const auto again = resumed.evaluate(eval_input_fn);
  std::printf("After %.0f steps: accuracy %.3f; TensorBoard: tensorboard --logdir %s\n", again.at("global_step"),
              again.at("accuracy"), model_dir.c_str());
  return metrics.at("accuracy") >= 0.8 && resumed_at == 600 && again.at("global_step") == 800 ? 0 : 1;
}
