#include <sstream>

#include <catch2/catch.hpp>

#include "keras/functional_graph.hpp"
#include "keras/storage.hpp"
#include "keras/json.hpp"
#include "keras/keras.hpp"

using namespace keras;

TEST_CASE("a functional model runs, trains and matches the same Sequential stack") {
  backend::clear_session();
  utils::set_random_seed(5);
  KerasTensor in = Input({4});
  KerasTensor h = layers::Dense(8, {.activation = "relu"})(in);
  KerasTensor out = layers::Dense(3)(h);
  CHECK(out.shape() == Shape{-1, 3});
  Model model(in, out);
  CHECK(model.class_name() == "Functional");
  CHECK(model.name() == "model");
  REQUIRE(model.layers().size() == 3);
  CHECK(model.layers()[0]->class_name() == "InputLayer");
  CHECK(model.count_params() == 4 * 8 + 8 + 8 * 3 + 3);
  Tensor x = Tensor::ones({2, 4});
  Tensor y = model.predict(x);
  Tensor manual = (*model.layers()[2])((*model.layers()[1])(x));
  CHECK(y.to_vector<float>() == manual.to_vector<float>());
  model.compile({.optimizer = "adam", .loss = "mse"});
  auto h1 = model.fit(x, Tensor::zeros({2, 3}), {.epochs = 3, .verbose = 0});
  CHECK(h1.history["loss"].back() < h1.history["loss"].front());
  CHECK_THROWS_WITH(model.predict(Tensor::ones({2, 5})), Catch::Contains("(2, 5)"));
}

TEST_CASE("shared layers, residual connections and nested models") {
  KerasTensor in = Input({6});
  auto shared = std::make_shared<layers::Dense>(6, layers::DenseOptions{.activation = "tanh"});
  KerasTensor a = (*shared)(in);
  KerasTensor b = (*shared)(a);  // the same weights, called twice
  auto inner_in = Input({6});
  Model inner(inner_in, layers::Dense(6)(inner_in), "inner");
  auto inner_ptr = std::make_shared<Model>(inner);
  KerasTensor c = (*inner_ptr)(b);
  Model model(in, layers::Dense(2)(c), "outer");
  CHECK(model.layers().size() == 4);  // input, shared dense, inner model, last dense
  CHECK(model.trainable_weights().size() == 2 + 2 + 2);
  Tensor x = Tensor::ones({3, 6});
  Tensor expect = (*model.layers()[3])((*inner_ptr)((*shared)((*shared)(x))));
  CHECK(model.predict(x).to_vector<float>() == expect.to_vector<float>());

  json config = model.get_config();
  CHECK(config["input_layers"][0][1] == 0);
  json dense_entry = config["layers"][1];
  CHECK(dense_entry["inbound_nodes"].size() == 2);             // called twice
  CHECK(dense_entry["inbound_nodes"][1][0][1] == 0);           // its second call reads its own first output
  auto again = std::dynamic_pointer_cast<Model>(Layer::deserialize(serialize_object("Functional", config)));
  REQUIRE(again);
  CHECK(again->get_config() == config);
  again->set_weights(model.get_weights());
  CHECK(again->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
}

TEST_CASE("functional summary has Keras's Connected to column") {
  backend::clear_session();
  KerasTensor in = Input({32});
  KerasTensor hidden = layers::Dense(64, {.activation = "relu"})(in);
  Model model(in, layers::Dense(10)(hidden));
  std::ostringstream out;
  model.summary(out);
  const std::string s = out.str();
  CHECK(s.find(" Layer (type)                   Output Shape         Param #     Connected to") != std::string::npos);
  CHECK(s.find(" input_1 (InputLayer)           [(None, 32)]         0           []") != std::string::npos);
  CHECK(s.find(" dense (Dense)                  (None, 64)           2112        ['input_1[0][0]']") != std::string::npos);
  CHECK(s.find("Total params: 2,762") != std::string::npos);
}

TEST_CASE("functional models save to HDF5 and load back") {
  KerasTensor in = Input({3});
  Model model(in, layers::Dense(2, {.activation = "sigmoid"})(layers::Dense(4)(in)), "saved_functional");
  model.compile({.optimizer = "sgd", .loss = "binary_crossentropy", .metrics = {"accuracy"}});
  const std::string path = "/tmp/kerascpp_functional_" + std::to_string(::getpid()) + ".h5";
  model.save(path);
  auto loaded = models::load_model(path);
  CHECK(loaded->class_name() == "Functional");
  Tensor x = Tensor::ones({2, 3});
  CHECK(loaded->predict(x).to_vector<float>() == model.predict(x).to_vector<float>());
  std::remove(path.c_str());
}

TEST_CASE("Keras 3 functional configs with __keras_tensor__ nodes load") {
  const std::string config = R"({"class_name": "Functional", "config": {"name": "k3", "trainable": true,
    "layers": [
      {"module": "keras.layers", "class_name": "InputLayer", "config": {"batch_shape": [null, 5], "dtype": "float32", "sparse": false, "name": "input_layer"}, "registered_name": null, "name": "input_layer", "inbound_nodes": []},
      {"module": "keras.layers", "class_name": "Dense", "config": {"name": "dense", "trainable": true, "dtype": "float32", "units": 2, "activation": "relu", "use_bias": true,
        "kernel_initializer": {"module": "keras.initializers", "class_name": "GlorotUniform", "config": {"seed": null}, "registered_name": null},
        "bias_initializer": {"module": "keras.initializers", "class_name": "Zeros", "config": {}, "registered_name": null},
        "kernel_regularizer": null, "bias_regularizer": null, "kernel_constraint": null, "bias_constraint": null},
        "registered_name": null, "build_config": {"input_shape": [null, 5]}, "name": "dense",
        "inbound_nodes": [{"args": [{"class_name": "__keras_tensor__", "config": {"shape": [null, 5], "dtype": "float32", "keras_history": ["input_layer", 0, 0]}}], "kwargs": {}}]}],
    "input_layers": [["input_layer", 0, 0]], "output_layers": [["dense", 0, 0]]}})";
  auto model = models::model_from_json(config);
  CHECK(model->name() == "k3");
  CHECK(model->predict(Tensor::ones({1, 5})).shape() == Shape{1, 2});
}

TEST_CASE("functional errors: disconnected graphs, non-shared layers, duplicate names") {
  KerasTensor a = Input({2}), b = Input({2});
  KerasTensor out = layers::Dense(1)(b);
  CHECK_THROWS_WITH(Model(a, out), Catch::Contains("disconnected"));
  layers::Dense local(3);
  CHECK_THROWS_WITH(local(a), Catch::Contains("shared_ptr"));
  KerasTensor c = layers::Dense(2, {.name = "twin"})(a);
  CHECK_THROWS_WITH(Model(a, layers::Dense(2, {.name = "twin"})(c)), Catch::Contains("twin"));
}

TEST_CASE("a functional model lists its layers in Keras's order: by decreasing depth, then in traversal order") {
  backend::clear_session();
  KerasTensor a = Input({4}, {.name = "a"});
  KerasTensor b = Input({2}, {.name = "b"});
  KerasTensor x = layers::Dense(3, {.name = "d1"})(a);
  x = layers::Dense(2, {.name = "d2"})(x);
  KerasTensor out = layers::Concatenate(-1, {.name = "cat"})({x, b});
  Model model({a, b}, out);
  // As Keras's model.layers: `b` feeds the output at the depth of d2, so it comes after d1 and d2.
  std::vector<std::string> names;
  for (const auto& l : model.layers()) names.push_back(l->name());
  CHECK(names == std::vector<std::string>{"a", "d1", "d2", "b", "cat"});
  // The inputs keep the order they were given in.
  CHECK(model.inputs()[0].node()->layer->name() == "a");
  auto again = Model::from_config(model.get_config());
  std::vector<std::string> again_names;
  for (const auto& l : std::dynamic_pointer_cast<Model>(again)->layers()) again_names.push_back(l->name());
  CHECK(again_names == names);
}

TEST_CASE("a functional config's dict or list-of-one inputs and outputs are written back in that form") {
  backend::clear_session();
  KerasTensor a = Input({4}, {.name = "a"});
  KerasTensor b = Input({2}, {.name = "b"});
  KerasTensor out = layers::Dense(1, {.name = "head"})(layers::Concatenate(-1, {.name = "cat"})({a, b}));
  json config = Model({a, b}, out).get_config();
  CHECK(config["output_layers"] == json::parse(R"([["head", 0, 0]])"));
  config["input_layers"] = json::parse(R"({"b_key": ["b", 0, 0], "a_key": ["a", 0, 0]})");
  auto model = std::dynamic_pointer_cast<Model>(Model::from_config(config));
  REQUIRE(model);
  // Keras flattens a dict by key: a_key (input "a") first.
  CHECK(model->inputs()[0].node()->layer->name() == "a");
  CHECK(model->graph()->input_form().keys == std::vector<std::string>{"a_key", "b_key"});
  CHECK(model->graph()->output_form().list);
  const json written = model->get_config();
  CHECK(written["input_layers"] == config["input_layers"]);
  CHECK(written["output_layers"] == config["output_layers"]);
}

TEST_CASE("a functional model drops each activation after its last reader, not at the end of the call") {
  // Ten 1 MiB activations in a row, plus a residual Add that keeps the first alive until the end: buffers
  // come back to the pool as they die and the next layer takes them again, so after the call the pool holds
  // a few of them, not every one.
  const KerasTensor in = layers::Input({256});
  KerasTensor x = layers::Dense(1024, {.activation = "relu"})(in);
  const KerasTensor first = x;
  for (int i = 0; i < 9; ++i) x = layers::Dense(1024, {.activation = "relu"})(x);
  Model model(in, layers::Add()({x, first}));
  const Tensor batch = random::normal({256, 256}, 0, 1, DType::float32, 1);
  const Tensor want = model(batch, false);  // builds the layers
  storage_pool_clear();
  const Tensor got = model(batch, false);
  const std::size_t activation = 256 * 1024 * sizeof(float);
  CHECK(storage_pool_bytes() <= 4 * activation);
  CHECK(got.to_vector<float>() == want.to_vector<float>());
  // One node reading the same tensor twice: it stays alive until that node has run.
  const KerasTensor in2 = layers::Input({8});
  const KerasTensor h = layers::Dense(8)(in2);
  Model twice(in2, layers::Add()({h, h}));
  const Tensor small = random::normal({4, 8}, 0, 1, DType::float32, 2);
  const Tensor hidden = (*twice.layers()[1])(small);
  CHECK(twice(small, false).to_vector<float>() == ops::add(hidden, hidden).to_vector<float>());
}
