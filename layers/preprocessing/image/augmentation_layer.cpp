#include "layers/preprocessing/image/augmentation_layer.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "keras/json.hpp"
#include "keras/utils/random.hpp"

namespace keras::layers {

json encode(const Factor& f) { return f.is_pair() ? json(f.values) : json(f.values[0]); }

void decode(const json& j, Factor& f) {
  if (j.is_number()) {
    f = Factor(j.get<double>());
    return;
  }
  const auto v = j.get<std::vector<double>>();
  if (v.size() != 2) throw ValueError("a factor is one number or a pair (lower, upper), got " + j.dump());
  f = Factor(v[0], v[1]);
}

Tensor AugmentationLayer::call(const Tensor& inputs, bool training) {
  const auto batch = preprocessing::ImageBatch::of(inputs, class_name());
  if (!training) return batch.restore(batch.images);
  return batch.restore(augment(batch.images));
}

std::mt19937_64& AugmentationLayer::engine() { return utils::engine(generator_); }

float AugmentationLayer::uniform(double lower, double upper) {
  if (lower == upper) return static_cast<float>(lower);
  return static_cast<float>(std::uniform_real_distribution<double>(lower, upper)(engine()));
}

void AugmentationLayer::check_factor(const Factor& factor, const char* argument, double lo, double hi) const {
  for (double v : factor.values)
    if (!(v >= lo && v <= hi))
      throw ValueError(fmt::format("{}: `{}` must have values in [{}, {}], received {}", class_name(), argument, lo, hi,
                                   fmt::join(factor.values, ", ")));
  if (factor.is_pair() && factor.values[0] > factor.values[1])
    throw ValueError(fmt::format("{}: `{}` = ({}) must be (lower, upper) with lower <= upper", class_name(), argument,
                                 fmt::join(factor.values, ", ")));
}

}  // namespace keras::layers
