// The Keras 2.2.5 functional model of ../shared/fixtures/keras-h5/keras2.2.5_functional_lstm.h5: five inputs,
// LSTM and Bidirectional(LSTM) layers (return_sequences, return_state, initial states fed from other inputs,
// recurrent_activation relu / hard_sigmoid / linear), seventeen outputs. Oracle: tests/golden/
// make_functional_lstm_golden.py, a NumPy forward pass over the file's own config and weights.
#include <cstdio>
#include <filesystem>
#include <sstream>

#include <catch2/catch.hpp>

#include "../../golden.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "test_paths.hpp"

using namespace keras;

namespace {
const std::string kFixture = std::string(keras_test::shared_dir) + "/fixtures/keras-h5/keras2.2.5_functional_lstm.h5";
}

TEST_CASE("the Keras 2.2.5 functional LSTM file loads, its shapes follow the config and predict matches NumPy") {
  if (!std::filesystem::exists(kFixture)) {
    WARN("skipped: " << kFixture << " is absent (it is beside the project in CI)");
    return;
  }
  auto model = models::load_model(kFixture);
  CHECK(model->name() == "test_model_lstm");
  CHECK(model->input_names() == std::vector<std::string>{"input_1", "input_2", "input_3", "input_4", "input_5"});
  const auto names = model->output_names();
  REQUIRE(names.size() == 17);
  CHECK(names[1] == "lstm_3");
  CHECK(names[2] == "lstm_3_1");  // tf.keras 2.x makes one layer's several outputs unique this way
  CHECK(names[3] == "lstm_3_2");
  CHECK(names[16] == "lstm_15_2");

  const json golden = testing::load_golden("functional_lstm.json");
  const auto outputs = model->outputs();
  REQUIRE(outputs.size() == golden["outputs"].size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    INFO("output " << i);
    CHECK(outputs[i].node()->layer->name() == golden["output_refs"][i][0].get<std::string>());
    CHECK(outputs[i].index() == golden["output_refs"][i][1].get<int>());
    Shape want = golden["outputs"][i]["shape"].get<Shape>();
    want[0] = -1;
    if (i == 14) want[1] = -1;  // lstm_15 reads input_3, whose time axis is None
    CHECK(outputs[i].shape() == want);
  }
  std::ostringstream summary;
  model->summary(summary);
  CHECK_THAT(summary.str(), Catch::Contains("lstm_15 (LSTM)") && Catch::Contains("[(None, None, 12),") &&
                                Catch::Contains("['input_3[0][0]', 'input_4[0][") &&
                                Catch::Contains("bidirectional_2 (Bidirectional"));

  std::vector<Tensor> inputs;
  for (const auto& t : golden["inputs"]) inputs.push_back(testing::golden_tensor(t));
  const auto got = model->predict_outputs(inputs);
  REQUIRE(got.size() == 17);
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("output " << i << " (" << names[i] << ")");
    const auto& want = golden["outputs"][i];
    testing::check_close(got[i], want["shape"].get<Shape>(), want["data"].get<std::vector<double>>());
  }
  // by name too, and single-sample batches give the same rows
  std::map<std::string, Tensor> by_name;
  for (std::size_t i = 0; i < inputs.size(); ++i) by_name[model->input_names()[i]] = inputs[i];
  const auto again = model->predict_outputs(by_name, {.batch_size = 1});
  testing::check_close(again[14], got[14].shape(), golden["outputs"][14]["data"].get<std::vector<double>>());

  // get_config writes the tensor indices back (["lstm_3", 0, 1]) and a save -> load round trip predicts the same
  const json config = model->get_config();
  CHECK(config["output_layers"][2] == json::array({"lstm_3", 0, 1}));
  const std::string path = "functional_lstm_roundtrip.h5";
  model->save(path);
  auto loaded = models::load_model(path);
  std::remove(path.c_str());
  CHECK(loaded->get_config() == config);
  const auto round = loaded->predict_outputs(inputs);
  for (std::size_t i = 0; i < round.size(); ++i) CHECK(round[i].to_vector<float>() == got[i].to_vector<float>());
}
