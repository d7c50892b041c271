// TFOpLambda, SlicingOpLambda and Keras 3 keras.ops nodes: configs in the forms real files hold them load and
// predict NumPy's values (tests/golden/make_tf_op_lambda_golden.py), survive a save → load round trip node for
// node, and KerasTensor arithmetic in C++ records the same nodes (.h5 round trip).
#include <filesystem>
#include <limits>

#include <catch2/catch.hpp>

#include "golden.hpp"
#include "gradient_check.hpp"
#include "keras/hdf5/file.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"
#include "keras/saving/zip_archive.hpp"

using namespace keras;
using keras::testing::check_close;
using keras::testing::golden_tensors;
using keras::testing::random_tensor;

namespace {

const json& golden_cases() {
  static const json cases = keras::testing::load_golden("tf_op_lambda.json")["cases"];
  return cases;
}

const json& golden_case(const std::string& name) {
  for (const auto& c : golden_cases())
    if (c["name"] == name) return c;
  FAIL("no golden case " << name);
  throw std::logic_error("unreachable");
}

const json* entry_named(const json& model_config, const std::string& name) {
  for (const auto& l : model_config["config"]["layers"])
    if (l["name"] == name) return &l;
  return nullptr;
}

bool is_op_entry(const json& l) {
  const std::string cls = l["class_name"];
  return cls == "TFOpLambda" || cls == "SlicingOpLambda" ||
         l.value("module", std::string()).rfind("keras.src.ops", 0) == 0;
}

void check_outputs(Model& model, const json& c) {
  const auto outputs = model.predict_outputs(golden_tensors(c["inputs"]));
  REQUIRE(outputs.size() == c["outputs"].size());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    INFO("output " << i);
    check_close(outputs[i], c["outputs"][i]);
  }
}

}  // namespace

TEST_CASE("op-node configs in real files' forms load and predict NumPy's values", "[tf_op_lambda]") {
  for (const auto& c : golden_cases()) {
    INFO("case " << c["name"].get<std::string>());
    auto model = models::model_from_json(c["model"].dump());
    check_outputs(*model, c);
  }
}

TEST_CASE("a load → save round trip keeps every op node's config and inbound node exactly", "[tf_op_lambda]") {
  for (const auto& c : golden_cases()) {
    INFO("case " << c["name"].get<std::string>());
    auto model = models::model_from_json(c["model"].dump());
    const json saved = json::parse(model->to_json());
    int ops = 0;
    for (const auto& original : c["model"]["config"]["layers"]) {
      if (!is_op_entry(original)) continue;
      ++ops;
      INFO("layer " << original["name"].get<std::string>());
      const json* written = entry_named(saved, original["name"]);
      REQUIRE(written != nullptr);
      CHECK((*written)["class_name"] == original["class_name"]);
      CHECK((*written)["config"] == original["config"]);
      CHECK((*written)["inbound_nodes"] == original["inbound_nodes"]);
      if (original.contains("module")) CHECK((*written)["module"] == original["module"]);
    }
    CHECK(ops >= 5);
    auto again = models::model_from_json(saved.dump());
    check_outputs(*again, c);
  }
}

TEST_CASE("a Keras 3 Add op and an Add layer in one config stay apart", "[tf_op_lambda]") {
  auto model = models::model_from_json(golden_case("keras3_ops")["model"].dump());
  const json saved = json::parse(model->to_json());
  CHECK((*entry_named(saved, "add"))["module"] == "keras.src.ops.numpy");
  CHECK(dynamic_cast<layers::Operation*>(model->get_layer("add").get()) != nullptr);
  CHECK(dynamic_cast<layers::Add*>(model->get_layer("add_layer").get()) != nullptr);
  CHECK(model->get_layer("add")->class_name() == "Add");
}

TEST_CASE("output shapes of op nodes follow the unknown batch dimension", "[tf_op_lambda]") {
  auto model = models::model_from_json(golden_case("shapes")["model"].dump());
  CHECK(model->get_layer("tf.reshape")->output_shape() == Shape{-1, 12});
  CHECK(model->outputs()[0].shape() == Shape{-1, 2, 2, 3});  // tf.stack of two inputs
  CHECK(model->get_layer("tf.math.reduce_sum")->output_shape() == Shape{-1});
  auto slicing = models::model_from_json(golden_case("slicing")["model"].dump());
  CHECK(slicing->get_layer("tf.__operators__.getitem_2")->output_shape() == Shape{-1, 1, 5});
}

TEST_CASE("unknown functions and ops fail with the layer, the function and the supported list", "[tf_op_lambda]") {
  json m = golden_case("arithmetic")["model"];
  for (auto& l : m["config"]["layers"])
    if (l["name"] == "tf.math.multiply") l["config"]["function"] = "math.bessel_i0";
  try {
    models::model_from_json(m.dump());
    FAIL("an unknown TFOpLambda function loaded");
  } catch (const ValueError& e) {
    const std::string what = e.what();
    CHECK_THAT(what, Catch::Contains("'tf.math.multiply' (TFOpLambda)") && Catch::Contains("tf.math.bessel_i0") &&
                         Catch::Contains("Supported functions:") && Catch::Contains("math.reduce_mean") &&
                         Catch::Contains("__operators__.getitem"));
  }
  json k3 = golden_case("keras3_ops")["model"];
  for (auto& l : k3["config"]["layers"])
    if (l["name"] == "mean") l["class_name"] = "Einsum";
  CHECK_THROWS_WITH(models::model_from_json(k3.dump()),
                    Catch::Contains("keras.src.ops.numpy.Einsum") && Catch::Contains("Supported operations:") &&
                        Catch::Contains("GetItem"));
  // An index kind kerascpp does not run (a tensor-valued slice bound) names the layer.
  json s = golden_case("slicing")["model"];
  s["config"]["layers"][1]["inbound_nodes"][0][3]["slice_spec"] = json::array({{{"start", json::array({"input_1", 0, 0})}, {"stop", nullptr}, {"step", nullptr}}});
  CHECK_THROWS_WITH(models::model_from_json(s.dump()), Catch::Contains("tf.__operators__.getitem") &&
                                                           Catch::Contains("tensor-valued"));
}

TEST_CASE("KerasTensor arithmetic and getitem record TFOpLambda nodes that save to .h5 and load back",
          "[tf_op_lambda]") {
  backend::clear_session();
  auto a = Input({4}), b = Input({4});
  auto h = layers::Dense(4)(a);
  auto y = (h + b) * 2.f;
  auto z = 1.f - y / b;
  auto s = getitem(-z, {Slice{}, Slice{.start = 1, .step = 2}});
  auto t = getitem(z, {ellipsis, newaxis});
  Model model({a, b}, {s, t, z - 0.5f, 3.f * a, h / 2.f});

  const json config = json::parse(model.to_json());
  const json* mul = entry_named(config, "tf.math.multiply");
  REQUIRE(mul != nullptr);
  CHECK((*mul)["class_name"] == "TFOpLambda");
  CHECK((*mul)["config"] == json{{"name", "tf.math.multiply"}, {"trainable", true}, {"dtype", "float32"},
                                 {"function", "math.multiply"}});
  CHECK((*mul)["inbound_nodes"] == json::parse(R"([["tf.__operators__.add", 0, 0, {"y": 2.0, "name": null}]])"));
  CHECK((*entry_named(config, "tf.__operators__.add"))["inbound_nodes"] ==
        json::parse(R"([["dense", 0, 0, {"y": ["input_2", 0, 0], "name": null}]])"));
  CHECK((*entry_named(config, "tf.math.subtract"))["inbound_nodes"] ==
        json::parse(R"([["_CONSTANT_VALUE", -1, 1.0, {"y": ["tf.math.truediv", 0, 0], "name": null}]])"));
  const json* slice = entry_named(config, "tf.__operators__.getitem");
  REQUIRE(slice != nullptr);
  CHECK((*slice)["class_name"] == "SlicingOpLambda");
  CHECK((*slice)["inbound_nodes"] == json::parse(R"([["tf.math.negative", 0, 0, {"slice_spec":
        [{"start": null, "stop": null, "step": null}, {"start": 1, "stop": null, "step": 2}]}]])"));
  CHECK((*entry_named(config, "tf.__operators__.getitem_1"))["inbound_nodes"][0][3]["slice_spec"] ==
        json::parse(R"([{"class_name": "__ellipsis__"}, null])"));

  const Tensor xa = random_tensor({3, 4}, -1.f, 1.f, 1), xb = random_tensor({3, 4}, 0.5f, 1.5f, 2);
  const auto got = model.predict_outputs({xa, xb});
  // The same arithmetic on concrete tensors.
  const Tensor hv = model.get_layer("dense")->call_all({xa})[0];
  const Tensor zv = 1.f - ((hv + xb) * 2.f) / xb;
  const auto zd = zv.to_vector<float>();
  std::vector<float> want_s;
  for (int r = 0; r < 3; ++r)
    for (int c = 1; c < 4; c += 2) want_s.push_back(-zd[r * 4 + c]);
  CHECK(got[0].shape() == Shape{3, 2});
  CHECK(got[0].to_vector<float>() == want_s);
  CHECK(got[1].shape() == Shape{3, 4, 1});
  CHECK(got[1].to_vector<float>() == zd);
  CHECK(got[2].to_vector<float>() == (zv - 0.5f).to_vector<float>());
  CHECK(got[3].to_vector<float>() == (3.f * xa).to_vector<float>());
  CHECK(got[4].to_vector<float>() == (hv / 2.f).to_vector<float>());

  const auto path = (std::filesystem::temp_directory_path() / "kerascpp_tf_op_lambda.h5").string();
  model.save(path);
  auto loaded = models::load_model(path);
  const auto again = loaded->predict_outputs({xa, xb});
  REQUIRE(again.size() == got.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(again[i].to_vector<float>() == got[i].to_vector<float>());
  {
    hdf5::File f = hdf5::File::open(path);
    const json file_config = json::parse(f.root().string_attr("model_config"));
    CHECK((*entry_named(file_config, "tf.math.multiply"))["inbound_nodes"] == (*mul)["inbound_nodes"]);
  }
  CHECK(json::parse(loaded->to_json())["config"]["layers"] == config["config"]["layers"]);
  std::filesystem::remove(path);

  // A .keras archive holds the keras.ops nodes Keras 3 records for the same arithmetic (Keras 3 has no
  // TFOpLambda), and loads back to the same predictions.
  const auto archive = (std::filesystem::temp_directory_path() / "kerascpp_tf_op_lambda.keras").string();
  model.save(archive);
  saving::ZipReader zip(archive);
  const json k3 = json::parse(zip.read("config.json"));
  const json* k3_mul = entry_named(k3, "tf.math.multiply");
  REQUIRE(k3_mul != nullptr);
  CHECK((*k3_mul)["module"] == "keras.src.ops.numpy");
  CHECK((*k3_mul)["class_name"] == "Multiply");
  CHECK((*k3_mul)["inbound_nodes"][0]["args"][0]["config"]["keras_history"] == json::parse(R"(["tf.__operators__.add", 0, 0])"));
  CHECK((*k3_mul)["inbound_nodes"][0]["args"][1] == 2.0);
  CHECK((*entry_named(k3, "tf.math.subtract"))["inbound_nodes"][0]["args"][0] == 1.0);
  CHECK((*entry_named(k3, "tf.math.truediv"))["class_name"] == "TrueDivide");
  CHECK((*entry_named(k3, "tf.math.negative"))["class_name"] == "Negative");
  const json* k3_slice = entry_named(k3, "tf.__operators__.getitem");
  CHECK((*k3_slice)["class_name"] == "GetItem");
  CHECK((*k3_slice)["inbound_nodes"][0]["args"][1] == json::parse(R"([
      {"class_name": "__slice__", "config": {"start": null, "stop": null, "step": null}},
      {"class_name": "__slice__", "config": {"start": 1, "stop": null, "step": 2}}])"));
  CHECK((*entry_named(k3, "tf.__operators__.getitem_1"))["inbound_nodes"][0]["args"][1] ==
        json::parse(R"([{"class_name": "__ellipsis__", "config": {}}, null])"));
  auto from_archive = models::load_model(archive);
  CHECK(dynamic_cast<layers::Operation*>(from_archive->get_layer("tf.math.multiply").get()) != nullptr);
  const auto third = from_archive->predict_outputs({xa, xb});
  REQUIRE(third.size() == got.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(third[i].to_vector<float>() == got[i].to_vector<float>());
  std::filesystem::remove(archive);
}

TEST_CASE("op nodes differentiate: a functional model of KerasTensor arithmetic trains", "[tf_op_lambda]") {
  auto x = Input({3});
  auto h = layers::Dense(3)(x);
  auto y = getitem(h * h + 1.f, {Slice{}, Slice{.stop = 2}});
  Model model(x, y);
  model.compile({.optimizer = "sgd", .loss = "mse"});
  const Tensor xs = random_tensor({16, 3}, -1.f, 1.f, 3), ys = random_tensor({16, 2}, 0.f, 1.f, 4);
  const double before = model.evaluate(xs, ys).at("loss");
  model.fit(xs, ys, {.epochs = 5, .verbose = 0});
  CHECK(model.evaluate(xs, ys).at("loss") < before);
}

TEST_CASE("ops::getitem follows NumPy's basic indexing and differentiates", "[tf_op_lambda]") {
  const Tensor x = Tensor::from_vector<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 4});
  CHECK(ops::getitem(x, {1}).to_vector<float>() == std::vector<float>{4, 5, 6, 7});
  CHECK(ops::getitem(x, {-1, Slice{.step = -2}}).to_vector<float>() == std::vector<float>{11, 9});
  CHECK(ops::getitem(x, {Slice{.start = 5}}).shape() == Shape{0, 4});
  CHECK(ops::getitem(x, {Slice{.step = std::numeric_limits<std::int64_t>::min()}, 0}).to_vector<float>() ==
        std::vector<float>{8});
  CHECK(ops::getitem(x, {newaxis, ellipsis, 2}).shape() == Shape{1, 3});
  CHECK_THROWS_WITH(ops::getitem(x, {3}), Catch::Contains("out of bounds for axis 0 with size 3"));
  CHECK_THROWS_WITH(ops::getitem(x, {0, 0, 0}), Catch::Contains("too many indices"));
  CHECK_THROWS_WITH(ops::getitem(x, {ellipsis, ellipsis}), Catch::Contains("single ellipsis"));
  keras::testing::check_gradients(
      [](const std::vector<Tensor>& in) { return ops::getitem(in[0], {Slice{.start = 1}, Slice{.step = 2}, newaxis}); },
      {random_tensor({3, 5})});
}

TEST_CASE("a Lambda holding a Python lambda names the layer and the fix, and runs a function registered under its name",
          "[tf_op_lambda][lambda]") {
  // tf.keras 2.x's form (marshalled bytecode, base64) and Keras 3's {"class_name": "__lambda__"}.
  const json keras2 = {{"class_name", "Lambda"},
                       {"config",
                        {{"name", "scale_by_two"}, {"trainable", true}, {"dtype", "float32"},
                         {"function", json::array({"4wEAAAAAAAAAAAAAAAEAAAACAAAAQwAAAHMIAAAAfABkARQAUwCpAk7pAgAAAKkAqQHaAXhyAwAAAHID", nullptr, nullptr})},
                         {"function_type", "lambda"}, {"module", "__main__"}, {"output_shape", nullptr},
                         {"output_shape_type", "raw"}, {"output_shape_module", nullptr}, {"arguments", json::object()}}}};
  json keras3 = keras2;
  keras3["config"].erase("function_type");
  keras3["config"]["function"] = {{"class_name", "__lambda__"}, {"config", {{"code", "4wEAAAAA"}, {"defaults", nullptr}, {"closure", nullptr}}}};
  for (const json& config : {keras2, keras3}) {
    CHECK_THROWS_WITH(Layer::deserialize(config),
                      Catch::Contains("'scale_by_two' holds a Python lambda") &&
                          Catch::Contains("register_lambda_function(\"scale_by_two\", fn)") &&
                          Catch::Contains("custom_objects"));
  }
  CustomObjects custom;
  custom.lambdas["scale_by_two"] = [](const Tensor& x) { return x * 2.f; };
  {
    CustomObjectScope scope(custom);
    for (const json& config : {keras2, keras3}) {
      auto layer = Layer::deserialize(config);
      CHECK((*layer)(Tensor::ones({1, 2})).to_vector<float>() == std::vector<float>{2.f, 2.f});
      const json written = layer->get_config();
      CHECK(written["function"] == config["config"]["function"]);  // the bytecode is written back
      CHECK(written.value("function_type", json()) == config["config"].value("function_type", json()));
    }
  }
}
