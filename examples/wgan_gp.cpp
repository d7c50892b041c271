// A small WGAN-GP (Gulrajani et al. 2017, "Improved Training of Wasserstein GANs") on Fashion-MNIST.
// The critic's loss has a gradient penalty, (|d critic / d x_hat|_2 - 1)^2 at points x_hat between real
// and generated images: an inner GradientTape gives d critic / d x_hat, and the outer tape differentiates
// that gradient with respect to the critic's weights (a gradient of a gradient).
//   build/bin/wgan_gp [steps]    (default 300 generator steps, each after 2 critic steps)
// Prints the critic's and the generator's losses and the penalty; writes wgan_gp_samples.pgm, 8 x 8 images.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <vector>

#include <keras/keras.hpp>

namespace k = keras;

namespace {

k::Tensor normal(std::mt19937& gen, const k::Shape& shape) {
  std::normal_distribution<float> dist;
  k::Tensor t = k::Tensor::empty(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

k::Tensor uniform(std::mt19937& gen, const k::Shape& shape) {
  std::uniform_real_distribution<float> dist;
  k::Tensor t = k::Tensor::empty(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data<float>()[i] = dist(gen);
  return t;
}

// 64 generated images in [-1, 1] as one 8 x 8 grid of 28 x 28 grey images (binary PGM).
void write_grid(const k::Tensor& images, const char* path) {
  const int side = 8, px = 28, width = side * px;
  std::vector<unsigned char> grid(static_cast<std::size_t>(width * width));
  const float* p = images.data<float>();
  for (int n = 0; n < side * side; ++n)
    for (int r = 0; r < px; ++r)
      for (int c = 0; c < px; ++c) {
        const float v = std::clamp((p[n * px * px + r * px + c] + 1.f) * 127.5f, 0.f, 255.f);
        grid[static_cast<std::size_t>(((n / side) * px + r) * width + (n % side) * px + c)] = static_cast<unsigned char>(v);
      }
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << width << " " << width << "\n255\n";
  out.write(reinterpret_cast<const char*>(grid.data()), static_cast<std::streamsize>(grid.size()));
}

}  // namespace

int main(int argc, char** argv) try {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 300;
  const int critic_steps = 2, batch = 64, noise = 32;
  const float penalty_weight = 10.f;
  k::utils::set_random_seed(3);
  std::mt19937 gen(3);

  auto [train, test] = k::datasets::fashion_mnist::load_data();
  const k::Tensor images = k::ops::reshape(train.x / 127.5f - 1.f, {train.x.dim(0), 784});  // in [-1, 1]

  k::Sequential generator({k::layers::Input({noise}), k::layers::Dense(256, {.activation = "relu"}),
                           k::layers::Dense(784, {.activation = "tanh"})});
  k::Sequential critic({k::layers::Input({784}), k::layers::Dense(256, {.activation = "leaky_relu"}),
                        k::layers::Dense(64, {.activation = "leaky_relu"}), k::layers::Dense(1)});
  k::optimizers::Adam generator_optimizer({.learning_rate = 2e-4, .beta_1 = 0.5, .beta_2 = 0.9});
  k::optimizers::Adam critic_optimizer({.learning_rate = 2e-4, .beta_1 = 0.5, .beta_2 = 0.9});

  std::uniform_int_distribution<std::int64_t> pick(0, images.dim(0) - 1);
  auto real_batch = [&] {
    std::vector<std::int64_t> idx(batch);
    for (auto& i : idx) i = pick(gen);
    return k::ops::take_rows(images, idx);
  };

  float critic_loss = 0, penalty_value = 0, generator_loss = 0;
  for (int step = 1; step <= steps; ++step) {
    for (int c = 0; c < critic_steps; ++c) {
      const k::Tensor real = real_batch();
      k::Tensor fake;
      {
        k::autodiff::NoGradScope no_tape;  // the critic's step does not train the generator
        fake = generator(normal(gen, {batch, noise}), true);
      }
      const k::Tensor eps = uniform(gen, {batch, 1});
      const k::Tensor x_hat = eps * real + (1.f - eps) * fake;

      // README: begin wgan_gp_penalty
      k::GradientTape tape;  // watches the critic's weights; records the inner tape's backward pass
      k::Tensor slope;
      {
        k::GradientTape inner(/*persistent=*/false, /*watch_accessed_variables=*/false);
        inner.watch(x_hat);
        slope = inner.gradient(k::ops::sum(critic(x_hat, true)), x_hat);  // d critic / d x_hat, per image
      }
      const k::Tensor norm = k::ops::sqrt(k::ops::sum(k::ops::square(slope), {1}) + 1e-12f);
      const k::Tensor penalty = k::ops::mean(k::ops::square(norm - 1.f));
      const k::Tensor loss =
          k::ops::mean(critic(fake, true)) - k::ops::mean(critic(real, true)) + penalty_weight * penalty;
      critic_optimizer.apply_gradients(tape.gradient(loss, critic.trainable_weights()), critic.trainable_weights());
      // README: end wgan_gp_penalty
      critic_loss = static_cast<float>(loss.item());
      penalty_value = static_cast<float>(penalty.item());
    }
    {
      k::GradientTape tape;
      const k::Tensor loss = -k::ops::mean(critic(generator(normal(gen, {batch, noise}), true), true));
      generator_optimizer.apply_gradients(tape.gradient(loss, generator.trainable_weights()),
                                          generator.trainable_weights());
      generator_loss = static_cast<float>(loss.item());
    }
    if (step % 25 == 0 || step == 1)
      std::printf("step %4d  critic_loss %8.4f  gradient_penalty %7.4f  generator_loss %8.4f\n", step, critic_loss,
                  penalty_value, generator_loss);
  }
  write_grid(generator(normal(gen, {64, noise})), "wgan_gp_samples.pgm");
  std::printf("wrote wgan_gp_samples.pgm\n");
} catch (const std::exception& e) {
  std::fprintf(stderr, "wgan_gp: %s\n", e.what());
  return 1;
}
