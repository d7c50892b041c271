#include "keras/distribute/timeline.hpp"

#include <cstring>
#include <fstream>

#include "keras/errors.hpp"
#include "keras/json.hpp"

namespace keras::distribute {

Timeline::Timeline(std::string path, int rank)
    : path_(rank == 0 || path.empty() ? std::move(path) : path + ".rank" + std::to_string(rank)),
      rank_(rank),
      start_(std::chrono::steady_clock::now()) {}

Timeline::~Timeline() {
  try {
    write();
  } catch (...) {  // a destructor does not throw; write() is also called explicitly where errors matter
  }
}

double Timeline::now() const {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
}

void Timeline::span(std::string name, const char* track, double begin_us, double end_us) {
  if (enabled()) spans_.push_back({std::move(name), track, begin_us, end_us});
}

void Timeline::write() const {
  if (!enabled()) return;
  json events = json::array();
  for (const char* track : {"compute", "communication"})
    events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", rank_}, {"tid", std::strcmp(track, "compute") ? 1 : 0},
                      {"args", {{"name", track}}}});
  events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", rank_}, {"args", {{"name", "rank " + std::to_string(rank_)}}}});
  for (const auto& s : spans_)
    events.push_back({{"ph", "X"}, {"name", s.name}, {"cat", s.track}, {"pid", rank_},
                      {"tid", std::strcmp(s.track, "compute") ? 1 : 0}, {"ts", s.begin}, {"dur", s.end - s.begin}});
  std::ofstream out(path_);
  if (!out) throw IOError("Cannot write the timeline '" + path_ + "'");
  out << json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump() << "\n";
}

}  // namespace keras::distribute
