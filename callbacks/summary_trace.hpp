#pragma once
// Tracing (tf.summary.trace_on / trace_export / trace_off): while a trace is on, the ops of keras::ops, the
// gradients of GradientTape, the oneDNN kernels and the layer calls are recorded (keras/profiler's hooks) as a graph
// and, with the profiler, as timed events.
//   summary::trace_on({.graph = true, .profiler = true});
//   model.train_on_batch(x, y);
//   { auto scope = writer->as_default(); summary::trace_export("model_trace", 0, log_dir); }
// trace_export writes the graph to the default writer as tf.summary.trace_export does (a RunMetadata summary under
// the graph_run_metadata_graph plugin, or graph_run_metadata with step stats when profiling), and the profile as a
// Chrome trace at <profiler_outdir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.trace.json.gz (TensorBoard's
// Profile tab, trace viewer): one event per layer call, op, gradient and kernel.
//
// Node names are the layer scopes and the op ("sequential/dense/dense", "_1" when repeated in a scope); the gradient
// of a node is "gradient_tape/<node>". The graph of a repeated step is recorded once: a new call of an outermost
// layer (the model) starts the naming afresh, and a node whose name exists is not added again.
#include <cstdint>
#include <string>
#include <vector>

#include "callbacks/summary_graph.hpp"
#include "callbacks/summary_writer.hpp"

namespace keras::summary {

struct TraceOptions {
  bool graph = true;      // record the graph of the ops that run
  bool profiler = false;  // also time them (and the kernels) for a profile
};

/// Starts a trace of every thread; a warning and nothing else when one is on already.
void trace_on(TraceOptions options = {});
/// True while a trace is on.
bool tracing();
/// Stops the trace and writes it: the graph summary `name` at `step` to the default writer (if any), the profile
/// (when the trace has the profiler) under `profiler_outdir`, by default the default writer's logdir. Returns the
/// profile's path, or "". Throws ValueError when no trace is on, or a profile has nowhere to go.
std::string trace_export(const std::string& name, std::int64_t step, const std::string& profiler_outdir = "");
/// Stops the trace and discards it.
void trace_off();

/// What the trace on now has recorded (for the TensorBoard callback, which writes the graph without stopping).
std::vector<GraphNode> traced_graph();
/// Writes the trace on now without stopping it: the run-metadata summary to `writer` (if not null; with step stats
/// when `with_step_stats`) and, when `profile_dir` is not empty, the profile there. Returns the profile's path or "".
std::string write_trace(SummaryWriter* writer, const std::string& name, std::int64_t step, bool with_step_stats,
                        const std::string& profile_dir);

}  // namespace keras::summary
