// Every optimizer against the trajectories of tests/golden/make_optimizer_golden.py (PyTorch where its
// update equals Keras's, a NumPy transcription of tf.keras 2.11+ or Keras 3 (Lamb, Adafactor, gradient
// accumulation) elsewhere; each case names its oracle).
#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "golden.hpp"
#include "keras/json.hpp"
#include "optimizers/optimizers.hpp"

using namespace keras;
using namespace keras::optimizers;

namespace {

using VarList = std::vector<std::shared_ptr<Variable>>;

std::vector<float> floats(const json& j) { return j.get<std::vector<float>>(); }

// The quadratic's gradient a * (x - c), from the variables' current float32 values.
std::vector<Tensor> quadratic_gradients(const json& problem, const VarList& vars) {
  std::vector<Tensor> grads;
  for (std::size_t k = 0; k < vars.size(); ++k) {
    const auto a = floats(problem["curvature"][k]), c = floats(problem["center"][k]);
    auto x = vars[k]->value().to_vector<float>();
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = a[i] * (x[i] - c[i]);
    grads.push_back(Tensor::from_vector(x, vars[k]->shape()));
  }
  return grads;
}

}  // namespace

TEST_CASE("optimizers follow the golden 20-step trajectories on a quadratic and on MLP gradients") {
  const json golden = testing::load_golden("optimizers.json");
  REQUIRE(golden["cases"].size() >= 80);
  for (const auto& c : golden["cases"]) {
    const std::string case_name = c["name"].get<std::string>();
    SECTION(case_name) {
      const std::string problem_name = c["problem"].get<std::string>();
      const json& problem = golden["problems"][problem_name];
      const auto shapes = problem["shapes"].get<std::vector<Shape>>();
      VarList vars;
      for (std::size_t k = 0; k < shapes.size(); ++k)
        vars.push_back(std::make_shared<Variable>(fmt::format("w{}", k),
                                                  Tensor::from_vector(floats(problem["initial"][k]), shapes[k])));
      auto opt = Optimizer::deserialize(c["optimizer"]);
      const auto checkpoints = c["checkpoints"].get<std::vector<int>>();
      const int steps = problem["steps"].get<int>();
      for (int step = 1; step <= steps; ++step) {
        std::vector<Tensor> grads;
        if (problem_name == "quadratic") {
          grads = quadratic_gradients(problem, vars);
        } else {
          for (std::size_t k = 0; k < shapes.size(); ++k)
            grads.push_back(Tensor::from_vector(floats(problem["gradients"][step - 1][k]), shapes[k]));
        }
        opt->apply_gradients(grads, vars);
        const auto at = std::find(checkpoints.begin(), checkpoints.end(), step);
        if (at == checkpoints.end()) continue;
        const json& expected = c["expected"][at - checkpoints.begin()];
        for (std::size_t k = 0; k < shapes.size(); ++k) {
          const auto want = expected[k].get<std::vector<double>>();
          const auto got = vars[k]->value().to_vector<float>();
          REQUIRE(got.size() == want.size());
          for (std::size_t i = 0; i < want.size(); ++i) {
            INFO(case_name << " (oracle: " << c["oracle"].get<std::string>() << ") step " << step << " variable " << k
                           << " element " << i);
            CHECK(got[i] == Approx(want[i]).epsilon(1e-5).margin(1e-6));
          }
        }
      }
      // Keras 3: `iterations` counts updates (calls / gradient_accumulation_steps); files store every call.
      CHECK(opt->iterations_variable() == steps);
      CHECK(opt->iterations() == steps / std::max<std::int64_t>(1, opt->gradient_accumulation_steps()));
    }
  }
}
