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
  // kerascpp's promise: the same model, inputs and batch size give bit-identical results, from any thread.
  // Different batch sizes may round differently (oneDNN's AVX2 kernels do), so each thread compares with
  // the answer for its own batch size.
  std::vector<std::vector<float>> want_at;
  for (int t = 0; t < 4; ++t) {
    want_at.push_back(model.predict(x, {.batch_size = 4 + t}).to_vector<float>());
    REQUIRE(want_at.back().size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(want_at.back()[i] == Approx(want[i]).margin(1e-6));
  }

  keras_test::TempDir dir("concurrency");
  std::atomic<int> mismatches{0}, errors{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        for (int i = 0; i < 25; ++i) {
          if (model.predict(x, {.batch_size = 4 + t}).to_vector<float>() != want_at[t]) ++mismatches;
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

TEST_CASE("a Sequential whose input shape was inferred may meet new sequence lengths from several threads at once") {
  // The first call infers (None, 5, 3); other lengths relax the time dimension and rebuild the graph, which
  // threads calling at the same moment must not see half-made.
  backend::clear_session();
  utils::set_random_seed(4);
  for (int round = 0; round < 10; ++round) {
    Sequential model({layers::Dense(4), layers::GlobalAveragePooling1D(), layers::Dense(2)});
    auto input = [](std::int64_t steps) {
      Tensor x = Tensor::empty({3, steps, 3});
      for (std::int64_t i = 0; i < x.size(); ++i) x.data<float>()[i] = float((i * 7) % 5) / 5.f;
      return x;
    };
    (void)model.predict(input(5));
    std::vector<std::vector<float>> want;
    {
      Sequential twin({layers::Dense(4), layers::GlobalAveragePooling1D(), layers::Dense(2)});
      twin.build({-1, -1, 3});
      twin.set_weights(model.get_weights());
      for (int t = 0; t < 4; ++t) want.push_back(twin.predict(input(6 + t)).to_vector<float>());
    }
    std::atomic<int> mismatches{0}, errors{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        try {
          for (int i = 0; i < 5; ++i)
            if (model.predict(input(6 + t)).to_vector<float>() != want[t]) ++mismatches;
        } catch (...) {
          ++errors;
        }
      });
    for (auto& th : threads) th.join();
    CHECK(errors == 0);
    CHECK(mismatches == 0);
  }
}
