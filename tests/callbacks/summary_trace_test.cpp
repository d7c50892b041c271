// summary::trace_on / trace_export and TensorBoard(write_graph, profile_batch): the graphs read back from the event
// files by the independent reader (event_reader.hpp), the profiles gunzipped (zlib) and parsed as JSON.
#include <zlib.h>

#include <map>
#include <regex>
#include <set>

#include <catch2/catch.hpp>

#include "callback_helpers.hpp"
#include "event_reader.hpp"
#include "keras/json.hpp"
#include "keras/profiler/trace_hooks.hpp"

using namespace keras;
namespace fs = std::filesystem;

namespace {
std::string gunzip(const fs::path& path) {
  gzFile f = gzopen(path.string().c_str(), "rb");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[65536];
  for (int n; (n = gzread(f, buf, sizeof(buf))) > 0;) out.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return out;
}

std::vector<fs::path> profiles(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::exists(dir / "plugins" / "profile")) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir / "plugins" / "profile"))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

std::map<std::string, evreader::Node> by_name(const std::vector<evreader::Node>& nodes) {
  std::map<std::string, evreader::Node> out;
  for (const auto& n : nodes) {
    CHECK(out.count(n.name) == 0);  // names are unique
    out[n.name] = n;
  }
  for (const auto& n : nodes)
    for (const auto& in : n.inputs) CHECK(out.count(in) == 1);  // every edge comes from a node of the graph
  return out;
}

Sequential small_model() {
  Sequential m({layers::Input({2}), layers::Dense(3, {.activation = "relu"}), layers::Dense(1)});
  m.compile({.optimizer = "sgd", .loss = "mse"});
  return m;
}

// The graph of one training step of small_model: its dense ops, their weights and input, their gradients.
void check_step_graph(const std::map<std::string, evreader::Node>& g, const Sequential& m, std::int64_t batch) {
  const std::string scope = m.name() + "/";
  const std::string d1 = scope + m.layers()[0]->name(), d2 = scope + m.layers()[1]->name();
  REQUIRE(g.count(d1 + "/dense"));
  REQUIRE(g.count(d2 + "/dense"));
  const auto& first = g.at(d1 + "/dense");
  CHECK(first.op == "dense");
  CHECK(first.device == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(first.type == 1);  // DT_FLOAT
  CHECK(first.shape == std::vector<std::int64_t>{batch, 3});
  REQUIRE(first.inputs.size() == 3);
  const auto& x = g.at(first.inputs[0]);
  CHECK(x.op == "Placeholder");
  CHECK(x.shape == std::vector<std::int64_t>{batch, 2});
  CHECK(first.inputs[1] == d1 + "/kernel");
  CHECK(first.inputs[2] == d1 + "/bias");
  CHECK(g.at(d1 + "/kernel").op == "VarHandleOp");
  CHECK(g.at(d1 + "/kernel").shape == std::vector<std::int64_t>{2, 3});
  const auto& second = g.at(d2 + "/dense");
  REQUIRE(second.inputs.size() == 3);
  CHECK(second.inputs[0].rfind(d1 + "/", 0) == 0);  // fed by the first layer (its fused dense + relu, or its relu)
  CHECK(second.inputs[1] == d2 + "/kernel");
  for (const auto& d : {d1, d2}) {
    REQUIRE(g.count("gradient_tape/" + d + "/dense"));
    const auto& grad = g.at("gradient_tape/" + d + "/dense");
    CHECK(grad.op == "dense_grad");
    CHECK(grad.inputs.at(0) == d + "/dense");
  }
}
}  // namespace

TEST_CASE("trace_on with the profiler and trace_export write the step's graph, its step stats and a Chrome trace", "[tensorboard][summary_trace]") {
  summary::trace_off();  // in case an earlier test failed while tracing
  const auto dir = cbtest::temp_dir("trace");
  auto m = small_model();
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2});
  summary::trace_on({.graph = true, .profiler = true});
  CHECK(summary::tracing());
  {
    GradientTape tape;
    const Tensor loss = ops::mean(ops::square(m(x, true)));
    tape.gradient(loss, m.trainable_weights());
  }
  auto writer = summary::create_file_writer((dir / "logs").string());
  std::string path;
  {
    auto scope = writer->as_default();
    path = summary::trace_export("model_trace", 3, dir.string());
  }
  CHECK_FALSE(summary::tracing());
  CHECK(profiler::tracer() == nullptr);

  // The run metadata summary, as tf.summary.trace_export writes it with the profiler on.
  std::optional<evreader::Value> value;
  std::int64_t step = -1;
  for (const auto& e : evreader::read_events(writer->path()))
    for (const auto& v : e.values)
      if (v.tag == "model_trace") value = v, step = e.step;
  REQUIRE(value);
  CHECK(step == 3);
  CHECK(value->plugin_name == "graph_run_metadata");
  CHECK(value->plugin_content == "1");
  REQUIRE(value->tensor);
  CHECK(value->tensor->shape.empty());
  const auto run = evreader::decode_run_metadata(value->tensor->strings.at(0));
  REQUIRE(run.graphs.size() == 1);
  const auto g = by_name(evreader::decode_graph_def(run.graphs[0]));
  check_step_graph(g, m, 4);
  CHECK(run.device == "/job:localhost/replica:0/task:0/device:CPU:0");
  std::set<std::string> timed;
  for (const auto& s : run.stats) {
    CHECK(g.count(s.node_name));
    CHECK(s.all_start_micros > 1'600'000'000'000'000);  // microseconds since 1970
    timed.insert(s.node_name);
  }
  for (const auto& [name, n] : g)
    if (n.op != "Placeholder" && n.op != "VarHandleOp") CHECK(timed.count(name));

  // The Chrome trace: where TensorBoard's profile plugin looks, one event per op, gradient, layer call and kernel.
  const auto files = profiles(dir);
  REQUIRE(files.size() == 1);
  CHECK(files[0].string() == path);
  CHECK(std::regex_match(files[0].parent_path().filename().string(), std::regex(R"(\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d)")));
  CHECK(files[0].filename().string() == summary::host_name() + ".trace.json.gz");
  const json trace = json::parse(gunzip(files[0]));
  std::map<std::string, json> events;
  int kernels = 0;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    CHECK(e.at("ts").get<double>() >= 0);
    CHECK(e.at("dur").get<double>() >= 0);
    CHECK(e.at("pid") == 1);
    if (e.at("cat") == "kernel") ++kernels;
    else events[e.at("name").get<std::string>()] = e;
  }
  CHECK(kernels >= 4);  // two dense forward products, and their backward ones at least
  for (const auto& [name, n] : g) {
    if (n.op == "Placeholder" || n.op == "VarHandleOp") continue;
    REQUIRE(events.count(name));
    CHECK(events.at(name).at("args").at("op") == n.op);
  }
  // Each op of a layer lies within that layer's call.
  const std::string d1 = m.name() + "/" + m.layers()[0]->name();
  REQUIRE(events.count(d1));
  REQUIRE(events.count(m.name()));
  const auto& layer = events.at(d1);
  const auto& op = events.at(d1 + "/dense");
  CHECK(op.at("ts").get<double>() >= layer.at("ts").get<double>());
  CHECK(op.at("ts").get<double>() + op.at("dur").get<double>() <=
        layer.at("ts").get<double>() + layer.at("dur").get<double>() + 1e-3);
  fs::remove_all(dir);
}

TEST_CASE("trace_on for the graph only writes the graph_run_metadata_graph summary and no profile", "[tensorboard][summary_trace]") {
  summary::trace_off();
  const auto dir = cbtest::temp_dir("trace_graph");
  auto writer = summary::create_file_writer(dir.string());
  summary::trace_on();
  const Tensor a = Tensor::from_vector<float>({1, 2}, {2});
  const Tensor y = ops::add(ops::multiply(a, a), a);  // outside any tape: the trace records it all the same
  std::string path = "unset";
  {
    auto scope = writer->as_default();
    path = summary::trace_export("ops", 0);
  }
  CHECK(path.empty());
  CHECK(profiles(dir).empty());
  const auto events = evreader::read_events(writer->path());
  REQUIRE(events.size() == 2);
  const auto& v = events[1].values.at(0);
  CHECK(v.plugin_name == "graph_run_metadata_graph");
  const auto run = evreader::decode_run_metadata(v.tensor->strings.at(0));
  CHECK(run.stats.empty());
  const auto g = by_name(evreader::decode_graph_def(run.graphs.at(0)));
  REQUIRE(g.size() == 3);  // input, multiply, add
  CHECK(g.at("input").op == "Placeholder");
  CHECK(g.at("multiply").inputs == std::vector<std::string>{"input", "input"});
  CHECK(g.at("add").inputs == std::vector<std::string>{"multiply", "input"});

  CHECK_THROWS_WITH(summary::trace_export("again", 0), Catch::Contains("trace_on"));
  summary::trace_on({.profiler = true});
  CHECK_THROWS_WITH(summary::trace_export("nowhere", 0), Catch::Contains("profiler_outdir"));
  summary::trace_off();
  CHECK_FALSE(summary::tracing());
  fs::remove_all(dir);
}

TEST_CASE("TensorBoard write_graph writes the Keras config and the first batch's graph and profile_batch a profile", "[tensorboard][summary_trace]") {
  summary::trace_off();
  const auto dir = cbtest::temp_dir("tb_graph");
  auto m = small_model();
  const Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {8, 2});
  const Tensor y = Tensor::from_vector<float>({1, 0, 1, 0, 1, 0, 1, 0}, {8, 1});
  m.fit(x, y, {.batch_size = 2, .epochs = 1, .verbose = 0,
               .callbacks = {callbacks::TensorBoard(dir.string(), {.profile_batch = {2, 3}})}});
  CHECK_FALSE(summary::tracing());
  int graphs = 0;
  std::optional<evreader::Value> keras_config, batch3;
  std::int64_t batch3_step = -1;
  for (const auto& e : evreader::read_events(cbtest::only_file(dir / "train").string())) {
    if (!e.graph_def.empty()) {
      ++graphs;
      CHECK(e.step == 0);
      check_step_graph(by_name(evreader::decode_graph_def(e.graph_def)), m, 2);
    }
    for (const auto& v : e.values) {
      if (v.tag == "keras") keras_config = v;
      if (v.tag == "batch_3") batch3 = v, batch3_step = e.step;
    }
  }
  CHECK(graphs == 1);
  REQUIRE(keras_config);
  CHECK(keras_config->plugin_name == "graph_keras_model");
  CHECK(keras_config->plugin_content == "1");
  CHECK(keras_config->tensor->dtype == 7);
  CHECK(keras_config->tensor->shape.empty());
  CHECK(json::parse(keras_config->tensor->strings.at(0)) == json::parse(m.to_json()));
  REQUIRE(batch3);  // as Keras's _stop_trace: the graph of the profiled batches, named after the last one
  CHECK(batch3_step == 3);
  CHECK(batch3->plugin_name == "graph_run_metadata_graph");

  // The profile holds batches 2 and 3 of the four: two calls of the model, each with its layers' ops.
  const auto files = profiles(dir);
  REQUIRE(files.size() == 1);
  const json trace = json::parse(gunzip(files[0]));
  std::map<std::string, int> count;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "X") ++count[e.at("name").get<std::string>()];
  CHECK(count[m.name()] == 2);
  CHECK(count[m.name() + "/" + m.layers()[0]->name() + "/dense"] == 2);
  CHECK(count["gradient_tape/" + m.name() + "/" + m.layers()[1]->name() + "/dense"] == 2);

  // write_graph off and no profile: nothing but scalars
  const auto dir2 = cbtest::temp_dir("tb_nograph");
  m.fit(x, y, {.batch_size = 4, .epochs = 1, .verbose = 0,
               .callbacks = {callbacks::TensorBoard(dir2.string(), {.write_graph = false})}});
  for (const auto& e : evreader::read_events(cbtest::only_file(dir2 / "train").string())) {
    CHECK(e.graph_def.empty());
    for (const auto& v : e.values) CHECK(v.plugin_name.empty());
  }
  CHECK(profiles(dir2).empty());
  CHECK_THROWS_WITH(callbacks::TensorBoard(dir.string(), {.profile_batch = {3, 2}}), Catch::Contains("profile_batch"));
  CHECK_THROWS_AS(callbacks::TensorBoard(dir.string(), {.profile_batch = -1}), ValueError);
  fs::remove_all(dir);
  fs::remove_all(dir2);
}
