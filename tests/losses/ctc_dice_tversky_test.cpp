// keras.losses.CTC, Dice and Tversky (Keras 3): values and gradients against PyTorch
// (tests/golden/make_ctc_dice_tversky_golden.py; CTC against torch.nn.functional.ctc_loss), reductions,
// configs and names.
#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/keras.hpp"
#include "losses/ctc.hpp"
#include "losses/dice.hpp"
#include "losses/tversky.hpp"

using namespace keras;
using keras::testing::golden_tensor;
using keras::testing::load_golden;
using Catch::Contains;

namespace {

Tensor per_sample(const json& c, const Tensor& y_true, const Tensor& y_pred) {
  const std::string name = c["loss"];
  if (name == "dice") {
    std::optional<std::vector<int>> axis;
    if (!c["args"]["axis"].is_null()) axis = c["args"]["axis"].get<std::vector<int>>();
    return losses::dice(y_true, y_pred, axis);
  }
  if (name == "tversky")
    return losses::tversky(y_true, y_pred, c["args"]["alpha"].get<float>(), c["args"]["beta"].get<float>());
  if (name == "ctc") return losses::ctc(y_true, y_pred);
  FAIL("unknown loss " << name);
  return Tensor();
}

void check_close(const Tensor& got, const json& want, double tolerance) {
  REQUIRE(got.defined());
  const auto w = want["data"].get<std::vector<double>>();
  REQUIRE(static_cast<std::size_t>(got.size()) == w.size());
  const auto g = got.to_vector<float>();
  for (std::size_t i = 0; i < w.size(); ++i) {
    INFO("element " << i);
    CHECK(g[i] == Approx(w[i]).epsilon(tolerance).margin(tolerance));
  }
}

}  // namespace

TEST_CASE("CTC, Dice and Tversky match PyTorch", "[losses][ctc]") {
  const json golden = load_golden("ctc_dice_tversky.json");
  for (const auto& c : golden["cases"]) {
    SECTION(c["loss"].get<std::string>() + " " + c["args"].dump()) {
      const Tensor y_true = golden_tensor(c["y_true"]), y_pred = golden_tensor(c["y_pred"]);
      const Tensor w = golden_tensor(c["w"]);
      GradientTape tape;
      tape.watch(y_pred);
      const Tensor loss = per_sample(c, y_true, y_pred);
      check_close(loss, c["value"], 1e-5);
      check_close(tape.gradient(ops::sum(loss * w), y_pred), c["grad"], 1e-5);
    }
  }
}

TEST_CASE("CTC's gradient matches finite differences", "[losses][ctc]") {
  const Tensor labels = Tensor::from_vector<std::int64_t>({1, 1, 2, 2, 0, 0}, {2, 3});
  const Tensor logits = keras::testing::random_tensor({2, 5, 3}, -2, 2, 4);
  keras::testing::check_gradients([&](const std::vector<Tensor>& v) { return losses::ctc(labels, v[0]); }, {logits});
}

TEST_CASE("CTC: a label the time steps cannot produce gives inf - bad shapes throw", "[losses][ctc]") {
  const Tensor labels = Tensor::from_vector<std::int64_t>({1, 1, 1}, {1, 3});  // needs 5 steps (blanks between)
  const Tensor logits = keras::testing::random_tensor({1, 4, 3}, -1, 1, 5);
  CHECK(std::isinf(losses::ctc(labels, logits).data<float>()[0]));
  CHECK_THROWS_WITH(losses::ctc(Tensor::zeros({2}), logits), Contains("[batch, max_label_length]"));
  CHECK_THROWS_WITH(losses::ctc(labels, Tensor::zeros({1, 4})), Contains("[batch, time, classes]"));
  CHECK_THROWS_WITH(losses::ctc(Tensor::from_vector<std::int64_t>({7}, {1, 1}), logits), Contains("outside [0, 3)"));
}

TEST_CASE("CTC, Dice and Tversky classes: reduction, names and configs as Keras 3", "[losses][ctc]") {
  const Tensor labels = Tensor::from_vector<std::int64_t>({1, 2, 2, 0}, {2, 2});
  const Tensor logits = keras::testing::random_tensor({2, 4, 3}, -1, 1, 6);
  const Tensor per = losses::ctc(labels, logits);
  CHECK(losses::CTC()(labels, logits).item() ==
        Approx((per.data<float>()[0] + per.data<float>()[1]) / 2.0));  // sum_over_batch_size
  CHECK(losses::CTC().name() == "ctc");
  CHECK(losses::Dice().name() == "dice");
  CHECK(losses::Tversky().name() == "tversky");

  const auto tversky = losses::Loss::deserialize(serialize(losses::Tversky({.alpha = 0.7, .beta = 0.3})));
  const json config = tversky->get_config();
  CHECK(config["alpha"] == 0.7);
  CHECK(config["beta"] == 0.3);
  const auto dice = losses::Loss::deserialize(serialize(losses::Dice({.axis = std::vector<int>{1, 2}})));
  CHECK(dice->get_config()["axis"] == json({1, 2}));
  CHECK(losses::Dice().get_config()["axis"].is_null());
  for (const char* name : {"ctc", "dice", "tversky", "CTC", "Dice", "Tversky"}) CHECK(losses::Loss::get(name));

  // Dice with alpha = beta = 0.5 is Tversky's special case.
  const Tensor t = Tensor::from_vector<float>({1, 0, 1, 1}, {2, 2}), p = Tensor::from_vector<float>({0.9f, 0.2f, 0.6f, 0.7f}, {2, 2});
  CHECK(losses::dice(t, p).item() == Approx(losses::tversky(t, p).item()));
  CHECK_THROWS_WITH(losses::dice(t, Tensor::zeros({4})), Contains("same shape"));
}
