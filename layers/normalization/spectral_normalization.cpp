#include "layers/normalization/spectral_normalization.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "keras/autodiff/gradient_tape.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/initializers/random.hpp"

namespace keras::layers {

KERAS_FIELDS(SpectralNormalizationOptions, power_iterations)

SpectralNormalization::SpectralNormalization(const LayerRef& layer, SpectralNormalizationOptions options)
    : Layer(options, "spectral_normalization"), layer_(layer.ptr()), options_(std::move(options)) {
  if (!layer_) throw ValueError("SpectralNormalization received a null layer");
  if (options_.power_iterations <= 0)
    throw ValueError(fmt::format("`power_iterations` should be greater than zero. Received: `power_iterations={}`",
                                 options_.power_iterations));
}

void SpectralNormalization::build(const Shape& input_shape) {
  layer_->ensure_built(input_shape);
  // Keras looks for the layer's `kernel`, then `embeddings` (Keras 3's depthwise convolutions call theirs kernel).
  for (const char* wanted : {"kernel", "embeddings", "depthwise_kernel"}) {
    for (const auto& w : layer_->weights())
      if (w->name() == wanted) {
        kernel_ = w;
        break;
      }
    if (kernel_) break;
  }
  if (!kernel_)
    throw ValueError(fmt::format("Layer \"{}\" (SpectralNormalization): {} object has no attribute 'kernel' nor "
                                 "'embeddings'", name(), layer_->class_name()));
  vector_u_ = add_weight("vector_u", {1, kernel_->shape().back()},
                         std::make_shared<initializers::TruncatedNormal>(
                             initializers::TruncatedNormalOptions{.stddev = 0.02}),
                         false);
}

void SpectralNormalization::normalize_weights() {
  autodiff::NoGradScope no_grad;
  const Tensor k = kernel_->value();
  const float* w = k.data<float>();
  const std::int64_t n = k.shape().back(), m = k.size() / n;  // the kernel as [m, n]
  if (std::all_of(w, w + k.size(), [](float v) { return v == 0.f; })) return;
  std::vector<double> u(vector_u_->value().data<float>(), vector_u_->value().data<float>() + n), v(m);
  // Keras's normalize: x / max(||x||, 1e-7).
  auto normalize = [](std::vector<double>& x) {
    double s = 0;
    for (double e : x) s += e * e;
    const double norm = std::max(std::sqrt(s), 1e-7);
    for (double& e : x) e /= norm;
  };
  for (std::int64_t it = 0; it < options_.power_iterations; ++it) {
    for (std::int64_t i = 0; i < m; ++i) {  // v = u Wᵀ
      double s = 0;
      for (std::int64_t j = 0; j < n; ++j) s += u[j] * w[i * n + j];
      v[i] = s;
    }
    normalize(v);
    std::fill(u.begin(), u.end(), 0.0);  // u = v W
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) u[j] += v[i] * w[i * n + j];
    normalize(u);
  }
  double sigma = 0;  // v W uᵀ
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) sigma += v[i] * w[i * n + j] * u[j];
  Tensor new_kernel = Tensor::empty(k.shape()), new_u = Tensor::empty({1, n});
  for (std::int64_t i = 0; i < k.size(); ++i) new_kernel.data<float>()[i] = static_cast<float>(w[i] / sigma);
  for (std::int64_t j = 0; j < n; ++j) new_u.data<float>()[j] = static_cast<float>(u[j]);
  vector_u_->assign(new_u);
  kernel_->assign(new_kernel);
}

Tensor SpectralNormalization::call(const Tensor& inputs, bool training) {
  if (training) normalize_weights();
  return (*layer_)(inputs, training);
}

Shape SpectralNormalization::compute_output_shape(const Shape& input_shape) const {
  return layer_->compute_output_shape(input_shape);
}

json SpectralNormalization::get_config() const {
  json c = layer_config(*this, options_);
  c["layer"] = serialize_object(layer_->class_name(), layer_->get_config());
  return c;
}

std::shared_ptr<Layer> SpectralNormalization::from_config(const json& c) {
  return make_from_config<SpectralNormalization, SpectralNormalizationOptions>(c, Layer::deserialize(c.at("layer")));
}

KERAS_REGISTER_LAYER(SpectralNormalization)

}  // namespace keras::layers
