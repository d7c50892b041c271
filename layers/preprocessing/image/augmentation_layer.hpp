#pragma once
// AugmentationLayer: the shared part of the random image layers (RandomFlip, RandomRotation, ...): they
// change their input only when called with training = true, draw from their own generator when given a
// `seed` (else the process-wide one, keras::utils::set_random_seed), and take images [batch, h, w, c] or
// [h, w, c]. Factor is Keras's `factor` argument: one number f for the range [-f, f] (or a layer's own
// reading of it), or an explicit (lower, upper); it is written back in the form it was given.
#include <optional>
#include <random>
#include <vector>

#include "keras/json_fwd.hpp"
#include "keras/layer.hpp"
#include "keras/utils/seed_generator.hpp"
#include "layers/preprocessing/image/image_batch.hpp"

namespace keras::layers {

struct Factor {
  Factor(double f = 0.0) : values{f} {}  // NOLINT: a plain number is Keras's usual form
  Factor(double lower, double upper) : values{lower, upper} {}
  /// [-f, f] for one number f, else (lower, upper).
  double lower() const { return values.size() == 1 ? -values[0] : values[0]; }
  double upper() const { return values.size() == 1 ? values[0] : values[1]; }
  bool is_pair() const { return values.size() == 2; }
  std::vector<double> values;
};
json encode(const Factor& factor);
void decode(const json& j, Factor& factor);

class AugmentationLayer : public Layer {
 public:
  /// Returns the input (as float32) unless `training`; in training, augment() on the batch.
  Tensor call(const Tensor& inputs, bool training) override;

 protected:
  template <class Options>
  AugmentationLayer(const Options& options, const std::string& prefix)
      : Layer(options, prefix), generator_(options.seed) {}
  /// The random change of a [n, h, w, c] float32 batch.
  virtual Tensor augment(const Tensor& images) = 0;
  /// The generator to draw from.
  std::mt19937_64& engine();
  /// A uniform draw from [lower, upper).
  float uniform(double lower, double upper);
  /// Throws a ValueError naming this layer unless every value of `factor` is within [lo, hi].
  void check_factor(const Factor& factor, const char* argument, double lo, double hi) const;

 private:
  utils::SeedGenerator generator_;
};

}  // namespace keras::layers
