#pragma once
// A Chrome trace (chrome://tracing, Perfetto) of one rank's training: spans of compute (forward,
// backward, optimizer) and communication (each gradient bucket's allreduce, from launch to completion),
// as Horovod's timeline shows. Each rank writes its own file: "<path>" on the chief, "<path>.rank<R>"
// on the others.
#include <chrono>
#include <string>
#include <vector>

namespace keras::distribute {

class Timeline {
 public:
  /// Records nothing when `path` is empty.
  Timeline(std::string path, int rank);
  ~Timeline();
  bool enabled() const { return !path_.empty(); }
  /// Microseconds since the timeline started.
  double now() const;
  /// A span on a track ("compute" or "communication").
  void span(std::string name, const char* track, double begin_us, double end_us);
  /// Writes the file (also done when the timeline is destroyed).
  void write() const;

 private:
  struct Span {
    std::string name;
    const char* track;
    double begin, end;
  };
  std::string path_;
  int rank_;
  std::chrono::steady_clock::time_point start_;
  std::vector<Span> spans_;
};

}  // namespace keras::distribute
