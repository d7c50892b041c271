// predict from several threads on one trained model at once, and save while another thread predicts.
#include <atomic>
#include <thread>

#include <catch2/catch.hpp>

#include "keras/keras.hpp"
#include "temp_dir.hpp"

using namespace keras;

TEST_CASE("predict may run from several threads at once on one model and gives each the same answer") {
  backend::clear_session();
  utils::set_random_seed(9);
  Sequential model({layers::Input({6, 6, 1}), layers::Conv2D(3, {3, 3}, {.activation = "relu"}),
                    layers::MaxPooling2D({2, 2}), layers::Flatten(), layers::Dense(4, {.activation = "softmax"})});
  Tensor x = Tensor::empty({20, 6, 6, 1});
  for (std::int64_t i = 0; i < x.size(); ++i) x.data<float>()[i] = float((i * 13) % 11) / 11.f;
  const auto want = model.predict(x).to_vector<float>();

  keras_test::TempDir dir("concurrency");
  std::atomic<int> mismatches{0}, errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int i = 0; i < 25; ++i) {
          if (model.predict(x, {.batch_size = 4 + t}).to_vector<float>() != want) ++mismatches;
          if (t == 0 && i % 5 == 0) model.save(dir / "m.h5");
        }
      } catch (...) {
        ++errors;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(errors == 0);
  CHECK(mismatches == 0);
  CHECK(models::load_model(dir / "m.h5")->predict(x).to_vector<float>() == want);
}
