// An op with its own gradient: log(1 + exp(x)) computed stably, with the gradient sigmoid(x), written
// with keras::ops::custom_gradient. Its values and gradients are checked against the closed forms in
// double precision, then it is the loss of a logistic regression trained in a GradientTape loop on
// unnormalized features, where the same formula built from ops alone overflows into NaN.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include <keras/keras.hpp>
namespace k = keras;

// README: begin custom-gradient
// log(1 + exp(x)) for any x, with its gradient sigmoid(x). Written with ops alone, the gradient
// exp(x) / (1 + exp(x)) would be inf / inf = NaN once exp(x) overflows (x > 88 in float32).
k::Tensor log1pexp(const k::Tensor& x) {
  return k::ops::custom_gradient(
      "log1pexp", x,
      [](const k::Tensor& x) {  // the forward pass: any C++ code, here a plain loop
        k::Tensor y = k::Tensor::empty(x.shape());
        const float* in = x.data<float>();
        float* out = y.data<float>();
        for (std::int64_t i = 0; i < x.size(); ++i)
          out[i] = std::max(in[i], 0.f) + std::log1p(std::exp(-std::abs(in[i])));
        return y;
      },
      [](const k::Tensor& x, const k::Tensor& /*y*/, const k::Tensor& upstream) {  // d loss / dx from d loss / dy
        return upstream * k::ops::sigmoid(x);
      });
}
// README: end custom-gradient

k::Tensor naive_log1pexp(const k::Tensor& x) { return k::ops::log(1.f + k::ops::exp(x)); }

// Values and gradients at points from -100 to 100 against log1p(exp(x)) and 1 / (1 + exp(-x)) in double.
bool check_against_closed_forms() {
  const std::vector<float> points{-100, -20, -1, 0, 0.5f, 1, 20, 100};
  k::Tensor x = k::Tensor::from_vector<float>(points, {std::int64_t(points.size())});
  k::GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  k::Tensor y = log1pexp(x), naive = naive_log1pexp(x);
  const auto values = y.to_vector<float>(), naive_values = naive.to_vector<float>();
  const auto grads = tape.gradient(k::ops::sum(y), x).to_vector<float>();
  const auto naive_grads = tape.gradient(k::ops::sum(naive), x).to_vector<float>();
  bool ok = true;
  std::printf("%6s | %12s %12s | %12s %12s | %12s %12s\n", "x", "log1pexp", "exact", "its gradient", "sigmoid(x)",
              "ops alone", "its gradient");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double v = points[i];
    const double value = v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
    const double gradient = 1.0 / (1.0 + std::exp(-v));
    std::printf("%6g | %12.6g %12.6g | %12.6g %12.6g | %12.6g %12.6g\n", v, values[i], value, grads[i], gradient,
                naive_values[i], naive_grads[i]);
    ok = ok && std::abs(values[i] - value) <= 1e-6 * value + 1e-30 &&
         std::abs(grads[i] - gradient) <= 1e-6 * gradient + 1e-30;
  }
  return ok;
}

int main() try {
  k::utils::set_random_seed(1);
  if (!check_against_closed_forms()) {
    std::fprintf(stderr, "FAILED: log1pexp or its gradient differs from the closed form\n");
    return 1;
  }

  // Points in [-100, 100]², labelled +1 above the line x0 + 2 x1 = 10 and -1 below, left unnormalized so
  // that the logits reach the hundreds.
  const std::int64_t n = 400;
  k::Tensor x = k::Tensor::empty({n, 2}), y = k::Tensor::empty({n, 1});
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> uniform(-100.f, 100.f);
  for (std::int64_t i = 0; i < n; ++i) {
    float* p = x.data<float>() + 2 * i;
    p[0] = uniform(gen), p[1] = uniform(gen);
    y.data<float>()[i] = p[0] + 2 * p[1] > 10 ? 1.f : -1.f;
  }
  k::Sequential model({k::layers::Input({2}), k::layers::Dense(1)});
  k::optimizers::Adam optimizer({.learning_rate = 0.05});

  // README: begin custom-gradient-use
  auto train_step = [&](const k::Tensor& x, const k::Tensor& y) {  // labels y are ±1
    k::GradientTape tape;
    k::Tensor loss = k::ops::mean(log1pexp(-y * model(x, /*training=*/true)));  // the logistic loss
    optimizer.apply_gradients(tape.gradient(loss, model.trainable_weights()), model.trainable_weights());
    return loss;
  };
  // README: end custom-gradient-use
  for (int step = 0; step < 200; ++step) {
    k::Tensor loss = train_step(x, y);
    const double value = loss.item();
    if (!std::isfinite(value)) {
      std::fprintf(stderr, "FAILED: the loss is %g at step %d\n", value, step);
      return 1;
    }
    if (step % 50 == 0 || step == 199) std::printf("step %3d: logistic loss %.4f\n", step, value);
  }

  const auto margins = (y * model.predict(x)).to_vector<float>();
  const auto correct = std::count_if(margins.begin(), margins.end(), [](float m) { return m > 0; });
  const double accuracy = double(correct) / double(n);
  std::printf("training accuracy: %.4f\n", accuracy);
  {
    k::GradientTape tape;  // what the same loss built from ops alone gives on the untrained scale
    k::Sequential fresh({k::layers::Input({2}), k::layers::Dense(1)});
    auto naive = tape.gradient(k::ops::mean(naive_log1pexp(-y * fresh(x, true))), fresh.trainable_weights());
    std::printf("the same step with log(1 + exp(x)) from ops alone: kernel gradient %g, %g\n",
                naive[0].to_vector<float>()[0], naive[0].to_vector<float>()[1]);
  }
  if (accuracy < 0.95) {
    std::fprintf(stderr, "FAILED: the logistic regression did not learn\n");
    return 1;
  }
  std::printf("custom_gradient_op: ok\n");
} catch (const std::exception& e) {
  std::fprintf(stderr, "custom_gradient_op: %s\n", e.what());
  return 1;
}
