#include "layers/preprocessing/numeric/normalization.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "data/dataset.hpp"
#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/variable.hpp"
#include "layers/preprocessing/numeric/adapt_batches.hpp"

namespace keras::layers {

KERAS_FIELDS(NormalizationOptions, axis, mean, variance, invert)

namespace {

constexpr float kEpsilon = 1e-7f;  // Keras's backend.epsilon()

// Keras writes a statistic as a number, a list or nested lists, and an axis as a number or a list.
json flat_numbers(const json& j) {
  if (!j.is_array()) return j.is_null() ? j : json::array({j});
  json out = json::array();
  for (const auto& v : j) {
    const json inner = flat_numbers(v);
    out.insert(out.end(), inner.begin(), inner.end());
  }
  return out;
}

}  // namespace

Normalization::Normalization(NormalizationOptions options) : Layer(options, "normalization"), options_(std::move(options)) {
  if (options_.mean.has_value() != options_.variance.has_value())
    throw ValueError("Normalization: when setting values directly, both `mean` and `variance` must be set; got only " +
                     std::string(options_.mean ? "mean" : "variance"));
}

void Normalization::build(const Shape& input_shape) {
  const auto ndim = static_cast<int>(input_shape.size());
  keep_axes_.clear();
  for (int a : options_.axis.value_or(std::vector<int>{})) {
    if (a < -ndim || a >= ndim)
      throw ValueError(fmt::format("Normalization '{}': all `axis` values must be in the range [-ndim, ndim); found "
                                   "ndim {} (input shape {}), axis {}",
                                   name(), ndim, shape_str(input_shape), a));
    keep_axes_.push_back(a < 0 ? a + ndim : a);
  }
  std::sort(keep_axes_.begin(), keep_axes_.end());
  kept_shape_.clear();
  for (int a : keep_axes_) {
    if (input_shape[static_cast<std::size_t>(a)] < 0)
      throw ValueError(fmt::format("Normalization '{}': the kept axis {} of input shape {} must have a known size",
                                   name(), a, shape_str(input_shape)));
    kept_shape_.push_back(input_shape[static_cast<std::size_t>(a)]);
  }
  const std::int64_t kept = shape_size(kept_shape_);
  if (options_.mean) {
    for (const auto* v : {&*options_.mean, &*options_.variance})
      if (v->size() != 1 && static_cast<std::int64_t>(v->size()) != kept)
        throw ValueError(fmt::format("Normalization '{}': mean and variance need one value or {} (the kept shape {}); "
                                     "got {}",
                                     name(), kept, shape_str(kept_shape_), v->size()));
  } else if (!mean_) {
    mean_ = add_weight("mean", kept_shape_, "zeros", false);
    variance_ = add_weight("variance", kept_shape_, "ones", false);
    count_ = add_weight("count", {}, "zeros", false);
  }
}

std::pair<Tensor, Tensor> Normalization::statistics(std::size_t rank) const {
  Shape broadcast(rank, 1);
  for (std::size_t i = 0; i < keep_axes_.size(); ++i) broadcast[static_cast<std::size_t>(keep_axes_[i])] = kept_shape_[i];
  const std::int64_t kept = shape_size(kept_shape_);
  std::vector<float> mean(static_cast<std::size_t>(kept)), scale(static_cast<std::size_t>(kept));
  for (std::int64_t i = 0; i < kept; ++i) {
    double m, v;
    if (options_.mean) {
      m = (*options_.mean)[options_.mean->size() == 1 ? 0 : i];
      v = (*options_.variance)[options_.variance->size() == 1 ? 0 : i];
    } else {
      m = mean_->value().data<float>()[i];
      v = variance_->value().data<float>()[i];
    }
    mean[i] = static_cast<float>(m);
    scale[i] = std::max(static_cast<float>(std::sqrt(v)), kEpsilon);
  }
  return {Tensor::from_vector(mean, broadcast), Tensor::from_vector(scale, broadcast)};
}

Tensor Normalization::call(const Tensor& inputs, bool /*training*/) {
  const Tensor x = inputs.dtype() == DType::float32 ? inputs : ops::cast(inputs, DType::float32);
  const auto [mean, scale] = statistics(x.shape().size());
  return options_.invert ? ops::add(mean, ops::multiply(x, scale)) : ops::divide(ops::subtract(x, mean), scale);
}

void Normalization::accumulate(const Tensor& batch, std::vector<double>& sum, std::vector<double>& sum_sq, double& count) {
  ensure_built(batch.shape());
  if (!mean_)
    throw ValueError(fmt::format("Normalization '{}': adapt() learns mean and variance; this layer was given them", name()));
  const Shape& s = batch.shape();
  if (s.size() != built_input_shape()->size())
    throw ValueError(fmt::format("Normalization '{}': adapt() data of shape {} does not match the layer's input shape {}",
                                 name(), shape_str(s), shape_str(*built_input_shape())));
  // Each axis's stride in the kept statistics (0 for a reduced axis).
  std::vector<std::int64_t> stride(s.size(), 0);
  std::int64_t step = 1;
  for (auto k = keep_axes_.size(); k-- > 0;) {
    const auto a = static_cast<std::size_t>(keep_axes_[k]);
    if (s[a] != kept_shape_[k])
      throw ValueError(fmt::format("Normalization '{}': adapt() data of shape {} has {} on axis {}, the layer {}", name(),
                                   shape_str(s), s[a], a, kept_shape_[k]));
    stride[a] = step;
    step *= s[a];
  }
  const Tensor x = batch.astype(DType::float32);
  const float* p = x.data<float>();
  std::vector<std::int64_t> index(s.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < x.size(); ++i) {
    sum[static_cast<std::size_t>(at)] += p[i];
    sum_sq[static_cast<std::size_t>(at)] += double(p[i]) * p[i];
    for (auto d = s.size(); d-- > 0;) {  // the next index, carrying
      at += stride[d];
      if (++index[d] < s[d]) break;
      at -= stride[d] * s[d];
      index[d] = 0;
    }
  }
  count += double(x.size()) / double(std::max<std::int64_t>(1, shape_size(kept_shape_)));
}

void Normalization::set_statistics(const std::vector<double>& sum, const std::vector<double>& sum_sq, double count) {
  if (count == 0) throw ValueError(fmt::format("Normalization '{}': adapt() received no data", name()));
  std::vector<float> mean(sum.size()), variance(sum.size());
  for (std::size_t i = 0; i < sum.size(); ++i) {
    const double m = sum[i] / count;
    mean[i] = static_cast<float>(m);
    variance[i] = static_cast<float>(std::max(0.0, sum_sq[i] / count - m * m));
  }
  mean_->assign(Tensor::from_vector(mean, kept_shape_));
  variance_->assign(Tensor::from_vector(variance, kept_shape_));
  count_->assign(Tensor::full({}, count));
}

void Normalization::adapt(const Tensor& data) {
  ensure_built(data.shape());
  const auto n = static_cast<std::size_t>(shape_size(kept_shape_));
  std::vector<double> sum(n, 0.0), sum_sq(n, 0.0);
  double count = 0;
  accumulate(data, sum, sum_sq, count);
  set_statistics(sum, sum_sq, count);
}

void Normalization::adapt(const data::Dataset& dataset) {
  std::vector<double> sum, sum_sq;
  double count = 0;
  preprocessing::for_each_adapt_batch(dataset, "Normalization", [&](const Tensor& batch) {
    ensure_built(batch.shape());
    sum.resize(static_cast<std::size_t>(shape_size(kept_shape_)), 0.0);
    sum_sq.resize(sum.size(), 0.0);
    accumulate(batch, sum, sum_sq, count);
  });
  set_statistics(sum, sum_sq, count);
}

json Normalization::get_config() const { return layer_config(*this, options_); }

std::shared_ptr<Layer> Normalization::from_config(const json& c) {
  json config = c;
  for (const char* key : {"mean", "variance", "axis"})
    if (config.contains(key)) config[key] = flat_numbers(config[key]);
  return make_from_config<Normalization, NormalizationOptions>(config);
}

KERAS_REGISTER_LAYER(Normalization)

}  // namespace keras::layers
