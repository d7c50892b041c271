#include "callbacks/summary_trace.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "keras/errors.hpp"
#include "keras/json.hpp"
#include "keras/profiler/trace_hooks.hpp"

namespace keras::summary {
namespace {

// A node name of TensorFlow's alphabet: [A-Za-z0-9_.-], others as '_'.
std::string sanitize(const std::string& s) {
  std::string out = s.empty() ? std::string("op") : s;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  return out;
}

struct TimedEvent {
  std::string name, category, detail;  // detail: the op, or the kernel's implementation
  int thread = 0;
  std::int64_t begin_ns = 0, end_ns = 0;
};

// The one recorder behind trace_on: a profiler::Tracer of static lifetime (a hook may still hold it after
// trace_off), every method under its mutex, inactive between traces.
class Recorder final : public profiler::Tracer {
 public:
  bool start(TraceOptions options) {
    std::lock_guard lock(mutex_);
    if (active_) return false;
    clear();
    options_ = options;
    active_ = true;
    start_ns_ = profiler::now_ns();
    main_thread_ = std::this_thread::get_id();
    start_wall_ = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    profiler::set_tracer(this);
    return true;
  }
  void stop() {
    profiler::set_tracer(nullptr);
    std::lock_guard lock(mutex_);
    active_ = false;
    clear();
  }
  bool active() {
    std::lock_guard lock(mutex_);
    return active_;
  }
  TraceOptions options() {
    std::lock_guard lock(mutex_);
    return options_;
  }
  std::vector<GraphNode> graph() {
    std::lock_guard lock(mutex_);
    return nodes_;
  }
  std::vector<NodeStats> node_stats() {
    std::lock_guard lock(mutex_);
    std::vector<NodeStats> out;
    for (const auto& e : events_)
      if (e.category == "op" || e.category == "gradient")
        out.push_back({e.name, e.detail, wall_micros(e.begin_ns), (e.end_ns - e.begin_ns) / 1000, e.thread});
    return out;
  }
  std::string chrome_trace() {
    std::lock_guard lock(mutex_);
    json events = json::array();
    events.push_back({{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", "/host:CPU"}}}});
    for (const auto& [id, t] : threads_)
      events.push_back({{"ph", "M"}, {"pid", 1}, {"tid", t.index}, {"name", "thread_name"},
                        {"args", {{"name", "kerascpp thread " + std::to_string(t.index)}}}});
    for (const auto& e : events_) {
      json args = json::object();
      if (e.category == "op" || e.category == "gradient") args["op"] = e.detail;
      if (e.category == "kernel") args["implementation"] = e.detail;
      events.push_back({{"ph", "X"}, {"pid", 1}, {"tid", e.thread}, {"name", e.name}, {"cat", e.category},
                        {"ts", static_cast<double>(e.begin_ns - start_ns_) / 1000.0},
                        {"dur", static_cast<double>(e.end_ns - e.begin_ns) / 1000.0}, {"args", args}});
    }
    return json{{"displayTimeUnit", "ns"}, {"metadata", {{"highres-ticks", true}}}, {"traceEvents", events}}.dump();
  }

  void op(const char* op, const Tensor& output, const std::vector<Tensor>& inputs) override {
    const std::int64_t end = profiler::now_ns();
    std::lock_guard lock(mutex_);
    if (!active_) return;
    Thread& t = thread();
    const std::string scope = t.scopes.empty() ? t.root : t.scopes.back().path;
    const std::string name = unique(t, scope, sanitize(op));
    std::vector<std::string> input_names;
    for (const auto& in : inputs)
      if (in.defined()) input_names.push_back(input_node(t, in));
    add_node({name, op ? op : "op", input_names, output.dtype(), output.shape()});
    produced(output, name);
    std::int64_t begin = std::max(t.last_end, t.scopes.empty() ? start_ns_ : t.scopes.back().begin_ns);
    event(name, "op", op, t.index, std::min(begin, end), end);
    t.last_end = end;
  }

  void gradient(const char* op, const Tensor& forward_output, const Tensor& grad_output,
                const std::vector<Tensor>& grads, std::int64_t begin_ns) override {
    const std::int64_t end = profiler::now_ns();
    std::lock_guard lock(mutex_);
    if (!active_) return;
    Thread& t = thread();
    auto forward = producers_.find(forward_output.id());
    const std::string base = "gradient_tape/" + (forward != producers_.end() ? forward->second.name : sanitize(op));
    const std::string name = unique(t, t.root, base);
    std::vector<std::string> inputs;
    if (forward != producers_.end()) inputs.push_back(forward->second.name);
    if (auto g = producers_.find(grad_output.id()); grad_output.defined() && g != producers_.end())
      inputs.push_back(g->second.name);
    const Tensor& first = grads.empty() || !grads[0].defined() ? grad_output : grads[0];
    add_node({name, std::string(op ? op : "op") + "_grad", inputs, first.dtype(), first.shape()});
    for (const auto& g : grads)
      if (g.defined()) produced(g, name);
    event(name, "gradient", std::string(op ? op : "op") + "_grad", t.index, begin_ns, end);
    t.last_end = end;
  }

  void kernel(const char* kind, const char* impl, std::int64_t begin_ns, std::int64_t end_ns) override {
    std::lock_guard lock(mutex_);
    if (!active_ || !options_.profiler) return;
    event(kind ? kind : "kernel", "kernel", impl ? impl : "", thread().index, begin_ns, end_ns);
  }

  void scope_begin(const std::string& name) override {
    const std::int64_t now = profiler::now_ns();
    std::lock_guard lock(mutex_);
    if (!active_) return;
    Thread& t = thread();
    if (t.scopes.empty()) {  // an outermost call (the model's): a new step, named afresh
      t.counters.clear();
      producers_.clear();
      variables_.clear();
    }
    const std::string parent = t.scopes.empty() ? t.root : t.scopes.back().path;
    t.scopes.push_back({unique(t, parent, sanitize(name) + "/") , now});
    t.scopes.back().path.pop_back();  // the '/' kept scope and op counters apart
  }

  void scope_end() override {
    const std::int64_t now = profiler::now_ns();
    std::lock_guard lock(mutex_);
    if (!active_) return;
    Thread& t = thread();
    if (t.scopes.empty()) return;  // opened before this trace began
    event(t.scopes.back().path, "layer", "", t.index, t.scopes.back().begin_ns, now);
    t.scopes.pop_back();
  }

  void variable(const Tensor& value, const std::string& name) override {
    std::lock_guard lock(mutex_);
    if (!active_ || !value.defined()) return;
    Thread& t = thread();
    std::string short_name = name.substr(0, name.find(':'));
    short_name = short_name.substr(short_name.rfind('/') + 1);
    const std::string scope = t.scopes.empty() ? t.root : t.scopes.back().path;
    variables_[value.id()] = {(scope.empty() ? "" : scope + "/") + sanitize(short_name), value};
  }

 private:
  struct Scope {
    std::string path;
    std::int64_t begin_ns;
  };
  struct Thread {
    int index = 0;
    std::string root{};  // "" on the thread that began the trace, "thread_<index>" on others (data pipelines)
    std::vector<Scope> scopes{};
    std::unordered_map<std::string, int> counters{};  // "<scope>/<base>" -> uses in this step
    std::int64_t last_end = 0;
  };
  struct Named {
    std::string name;
    Tensor tensor;  // kept alive so that its address names nothing else during the step
  };

  void clear() {
    nodes_.clear();
    node_index_.clear();
    producers_.clear();
    variables_.clear();
    threads_.clear();
    events_.clear();
  }
  Thread& thread() {
    auto [it, inserted] = threads_.try_emplace(std::this_thread::get_id());
    if (inserted) {
      it->second.index = static_cast<int>(threads_.size());
      if (it->first != main_thread_) it->second.root = "thread_" + std::to_string(it->second.index);
    }
    return it->second;
  }
  // "<scope>/<base>", then "<scope>/<base>_1", ... within a step.
  std::string unique(Thread& t, const std::string& scope, const std::string& base) {
    const int n = t.counters[scope + "/" + base]++;
    std::string name = base;
    const bool slash = !name.empty() && name.back() == '/';
    if (slash) name.pop_back();
    if (n > 0) name += "_" + std::to_string(n);
    if (slash) name += '/';
    return scope.empty() ? name : scope + "/" + name;
  }
  void add_node(GraphNode node) {
    if (!options_.graph && !options_.profiler) return;
    if (node_index_.count(node.name)) return;  // the same node in a later step
    node_index_[node.name] = nodes_.size();
    nodes_.push_back(std::move(node));
  }
  void produced(const Tensor& t, const std::string& name) { producers_[t.id()] = {name, t}; }
  // The node an input comes from: an op of this step, a variable, or a new placeholder.
  std::string input_node(Thread& t, const Tensor& in) {
    if (auto p = producers_.find(in.id()); p != producers_.end()) return p->second.name;
    if (auto v = variables_.find(in.id()); v != variables_.end()) {
      add_node({v->second.name, "VarHandleOp", {}, in.dtype(), in.shape()});
      produced(in, v->second.name);
      return v->second.name;
    }
    const std::string name = unique(t, t.root, "input");
    add_node({name, "Placeholder", {}, in.dtype(), in.shape()});
    produced(in, name);
    return name;
  }
  void event(std::string name, std::string category, std::string detail, int thread, std::int64_t begin,
             std::int64_t end) {
    if (options_.profiler) events_.push_back({std::move(name), std::move(category), std::move(detail), thread, begin, end});
  }
  std::int64_t wall_micros(std::int64_t ns) const {
    return static_cast<std::int64_t>(start_wall_ * 1e6) + (ns - start_ns_) / 1000;
  }

  std::mutex mutex_;
  bool active_ = false;
  TraceOptions options_{};
  std::int64_t start_ns_ = 0;
  double start_wall_ = 0;
  std::thread::id main_thread_{};
  std::vector<GraphNode> nodes_;
  std::unordered_map<std::string, std::size_t> node_index_;
  std::unordered_map<const void*, Named> producers_, variables_;
  std::unordered_map<std::thread::id, Thread> threads_;
  std::vector<TimedEvent> events_;
};

Recorder& recorder() {
  static Recorder* r = new Recorder();  // never destroyed: a hook on another thread may still reach it
  return *r;
}

std::string write_gzip(const std::filesystem::path& path, const std::string& data) {
  gzFile f = gzopen(path.string().c_str(), "wb");
  if (!f) throw IOError("Cannot create the profile file '" + path.string() + "'");
  const int written = gzwrite(f, data.data(), static_cast<unsigned>(data.size()));
  const int closed = gzclose(f);
  if (written != static_cast<int>(data.size()) || closed != Z_OK)
    throw IOError("Cannot write the profile file '" + path.string() + "'");
  return path.string();
}

// <dir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.trace.json.gz, the run folder made unique.
std::string write_profile(const std::string& dir, const std::string& trace) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof(stamp), "%Y_%m_%d_%H_%M_%S", &tm);
  const auto profiles = std::filesystem::path(dir) / "plugins" / "profile";
  auto run = profiles / stamp;
  for (int i = 1; std::filesystem::exists(run); ++i) run = profiles / (std::string(stamp) + "_" + std::to_string(i));
  std::error_code ec;
  std::filesystem::create_directories(run, ec);
  if (ec) throw IOError("Cannot create the profile folder '" + run.string() + "': " + ec.message());
  return write_gzip(run / (host_name() + ".trace.json.gz"), trace);
}

}  // namespace

void trace_on(TraceOptions options) {
  if (!recorder().start(options)) std::cerr << "WARNING: summary::trace_on: a trace is on already\n";
}

bool tracing() { return recorder().active(); }

void trace_off() { recorder().stop(); }

std::vector<GraphNode> traced_graph() { return recorder().graph(); }

std::string write_trace(SummaryWriter* writer, const std::string& name, std::int64_t step, bool with_step_stats,
                        const std::string& profile_dir) {
  Recorder& r = recorder();
  if (writer) {
    const std::string graph = encode_graph_def(r.graph());
    const std::string run = encode_run_metadata(graph, with_step_stats ? r.node_stats() : std::vector<NodeStats>{});
    writer->tensor_summary(name, {.name = with_step_stats ? "graph_run_metadata" : "graph_run_metadata_graph", .content = "1"},
                           encode_string_tensor({run}, {}), step);
  }
  return profile_dir.empty() ? std::string() : write_profile(profile_dir, r.chrome_trace());
}

std::string trace_export(const std::string& name, std::int64_t step, const std::string& profiler_outdir) {
  Recorder& r = recorder();
  if (!r.active()) throw ValueError("summary::trace_export: no trace is on; call summary::trace_on first");
  const TraceOptions options = r.options();
  SummaryWriter* writer = default_writer();
  std::string outdir = profiler_outdir;
  if (outdir.empty() && writer) outdir = writer->logdir();
  if (options.profiler && outdir.empty())
    throw ValueError("summary::trace_export: the trace has the profiler on; give profiler_outdir or make a writer "
                     "the default (writer->as_default())");
  std::string path;
  try {
    path = write_trace(writer, name, step, options.profiler, options.profiler ? outdir : std::string());
  } catch (...) {
    r.stop();
    throw;
  }
  r.stop();
  return path;
}

}  // namespace keras::summary
