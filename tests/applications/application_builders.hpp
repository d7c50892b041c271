#pragma once
// The nine applications by their Keras names, for the tests that run over all of them.
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "keras/applications/applications.hpp"
#include "keras/keras.hpp"

namespace keras::testing {

using Builder = std::function<std::shared_ptr<Model>(const applications::ApplicationOptions&)>;

inline const std::vector<std::pair<std::string, Builder>>& application_builders() {
  namespace A = applications;
  static const std::vector<std::pair<std::string, Builder>> all = {
      {"VGG16", [](const A::ApplicationOptions& o) { return A::VGG16(o); }},
      {"ResNet50", [](const A::ApplicationOptions& o) { return A::ResNet50(o); }},
      {"ResNet50V2", [](const A::ApplicationOptions& o) { return A::ResNet50V2(o); }},
      {"MobileNet", [](const A::ApplicationOptions& o) {
         return A::MobileNet({.include_top = o.include_top, .weights = o.weights, .input_tensor = o.input_tensor,
                              .input_shape = o.input_shape, .pooling = o.pooling, .classes = o.classes,
                              .classifier_activation = o.classifier_activation, .name = o.name});
       }},
      {"MobileNetV2", [](const A::ApplicationOptions& o) {
         return A::MobileNetV2({.include_top = o.include_top, .weights = o.weights, .input_tensor = o.input_tensor,
                                .input_shape = o.input_shape, .pooling = o.pooling, .classes = o.classes,
                                .classifier_activation = o.classifier_activation, .name = o.name});
       }},
      {"InceptionV3", [](const A::ApplicationOptions& o) { return A::InceptionV3(o); }},
      {"Xception", [](const A::ApplicationOptions& o) { return A::Xception(o); }},
      {"DenseNet121", [](const A::ApplicationOptions& o) { return A::DenseNet121(o); }},
      {"EfficientNetB0", [](const A::ApplicationOptions& o) { return A::EfficientNetB0(o); }},
  };
  return all;
}

inline Builder builder(const std::string& name) {
  for (const auto& [n, build] : application_builders())
    if (n == name) return build;
  throw std::out_of_range("no application " + name);
}

inline std::shared_ptr<Model> build_application(const std::string& name, const applications::ApplicationOptions& o) {
  return builder(name)(o);
}

inline std::int64_t count(const std::vector<std::shared_ptr<Variable>>& weights) {
  std::int64_t n = 0;
  for (const auto& w : weights) n += shape_size(w->shape());
  return n;
}

/// `n` RGB images of size x size with pixel values in [0, 255), the same for the same seed.
inline Tensor images(std::int64_t n, std::int64_t size, unsigned seed) {
  std::vector<float> v(static_cast<std::size_t>(n * size * size * 3));
  unsigned s = seed;
  for (auto& x : v) x = static_cast<float>((s = s * 1664525u + 1013904223u) >> 8) / 16777216.f * 255.f;
  return Tensor::from_vector(v, {n, size, size, 3});
}

}  // namespace keras::testing
