#include "callbacks/event_file.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "callbacks/proto_wire.hpp"
#include "keras/errors.hpp"

namespace keras::summary {
namespace {

using namespace wire;

std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;  // reflected Castagnoli polynomial
    table[i] = c;
  }
  return table;
}

std::string event_header(double wall_time, std::int64_t step) {
  std::string e;
  put_double(e, 1, wall_time);
  if (step != 0) {
    put_key(e, 2, 0);
    put_varint(e, static_cast<std::uint64_t>(step));
  }
  return e;
}

std::string summary_event(double wall_time, std::int64_t step, const std::string& value) {
  std::string summary;
  put_bytes(summary, 1, value);
  std::string e = event_header(wall_time, step);
  put_bytes(e, 5, summary);
  return e;
}

}  // namespace

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0 || !buf[0]) return "localhost";
  return buf;
}

std::uint32_t crc32c(std::string_view data) {
  static const auto table = make_crc_table();
  std::uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : data) c = table[(c ^ b) & 0xFF] ^ (c >> 8);
  return ~c;
}

std::uint32_t masked_crc32c(std::string_view data) {
  const std::uint32_t c = crc32c(data);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

Histogram make_histogram(const std::vector<double>& values, int bucket_count) {
  Histogram h;
  if (values.empty()) return h;
  h.min = *std::min_element(values.begin(), values.end());
  h.max = *std::max_element(values.begin(), values.end());
  h.num = static_cast<double>(values.size());
  for (double v : values) {
    h.sum += v;
    h.sum_squares += v * v;
  }
  const int n = h.max > h.min ? std::max(bucket_count, 1) : 1;
  const double width = (h.max - h.min) / n;
  h.bucket.assign(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i < n; ++i) h.bucket_limit.push_back(i + 1 == n ? h.max : h.min + width * (i + 1));
  // As TensorBoard reads a HistogramProto: bucket i counts the values in (bucket_limit[i-1], bucket_limit[i]].
  for (double v : values) {
    const int i = width > 0 ? static_cast<int>(std::ceil((v - h.min) / width)) - 1 : 0;
    h.bucket[static_cast<std::size_t>(std::clamp(i, 0, n - 1))] += 1;
  }
  return h;
}

std::string encode_file_version_event(double wall_time) {
  std::string e = event_header(wall_time, 0);
  put_bytes(e, 3, "brain.Event:2");
  return e;
}

std::string encode_scalar_event(double wall_time, std::int64_t step, const std::string& tag, float value) {
  std::string v;
  put_bytes(v, 1, tag);
  put_key(v, 2, 5);
  put_fixed(v, value);
  return summary_event(wall_time, step, v);
}

std::string encode_histogram_event(double wall_time, std::int64_t step, const std::string& tag, const Histogram& h) {
  std::string histo;
  put_double(histo, 1, h.min);
  put_double(histo, 2, h.max);
  put_double(histo, 3, h.num);
  put_double(histo, 4, h.sum);
  put_double(histo, 5, h.sum_squares);
  put_packed_doubles(histo, 6, h.bucket_limit);
  put_packed_doubles(histo, 7, h.bucket);
  std::string v;
  put_bytes(v, 1, tag);
  put_bytes(v, 5, histo);
  return summary_event(wall_time, step, v);
}

std::string encode_string_tensor(const std::vector<std::string>& values, const std::vector<std::int64_t>& shape) {
  std::string shape_proto;
  for (auto d : shape) {
    std::string dim;
    put_int(dim, 1, d);
    put_bytes(shape_proto, 2, dim);
  }
  std::string t;
  put_int(t, 1, 7);  // DT_STRING
  put_bytes(t, 2, shape_proto);
  for (const auto& v : values) put_bytes(t, 8, v);
  return t;
}

std::string encode_tensor_summary_event(double wall_time, std::int64_t step, const std::string& tag,
                                        const PluginData& plugin, const std::string& tensor) {
  std::string plugin_data;
  put_bytes(plugin_data, 1, plugin.name);
  if (!plugin.content.empty()) put_bytes(plugin_data, 2, plugin.content);
  std::string metadata;
  put_bytes(metadata, 1, plugin_data);
  if (plugin.data_class != 0) put_int(metadata, 4, plugin.data_class);
  std::string v;
  put_bytes(v, 1, tag);
  put_bytes(v, 9, metadata);
  put_bytes(v, 8, tensor);
  return summary_event(wall_time, step, v);
}

std::string encode_graph_event(double wall_time, std::int64_t step, const std::string& graph_def) {
  std::string e = event_header(wall_time, step);
  put_bytes(e, 4, graph_def);
  return e;
}

double wall_time_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

EventFile::EventFile(const std::string& dir) {
  static std::atomic<int> counter{0};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IOError("Cannot create the log directory '" + dir + "': " + ec.message());
  const double now = wall_time_now();
  path_ = (std::filesystem::path(dir) / fmt::format("events.out.tfevents.{:010d}.{}.{}.{}.v2", static_cast<long long>(now),
                                                    host_name(), static_cast<long>(getpid()), counter++))
              .string();
  std::FILE* f = std::fopen(path_.c_str(), "wb");
  if (!f) throw IOError("Cannot create the event file '" + path_ + "': " + std::strerror(errno));
  file_.reset(f, [](std::FILE* p) { std::fclose(p); });
  write_record(encode_file_version_event(now));
  flush();
}

void EventFile::write_record(const std::string& data) {
  std::string frame;
  put_fixed(frame, static_cast<std::uint64_t>(data.size()));
  const std::string length(frame);
  put_fixed(frame, masked_crc32c(length));
  frame += data;
  put_fixed(frame, masked_crc32c(data));
  if (std::fwrite(frame.data(), 1, frame.size(), file_.get()) != frame.size())
    throw IOError("Cannot write to the event file '" + path_ + "': " + std::strerror(errno));
}

void EventFile::flush() {
  if (std::fflush(file_.get()) != 0) throw IOError("Cannot write to the event file '" + path_ + "': " + std::strerror(errno));
}

}  // namespace keras::summary
