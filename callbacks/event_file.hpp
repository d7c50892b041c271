#pragma once
// TensorBoard event files: TFRecord frames (length, masked CRC-32C of the length, data, masked CRC-32C
// of the data) holding hand-encoded `tensorflow.Event` protocol buffers.
//
// The messages and field numbers used (tensorflow/core/util/event.proto, core/framework/summary.proto):
//   Event          { double wall_time = 1; int64 step = 2; string file_version = 3; bytes graph_def = 4;
//                    Summary summary = 5; }
//   Summary        { repeated Value value = 1; }
//   Summary.Value  { string tag = 1; float simple_value = 2; HistogramProto histo = 5; TensorProto tensor = 8;
//                    SummaryMetadata metadata = 9; }
//   SummaryMetadata { PluginData plugin_data = 1 { string plugin_name = 1; bytes content = 2; }; DataClass data_class = 4; }
//   TensorProto    { DataType dtype = 1; TensorShapeProto tensor_shape = 2 { repeated Dim dim = 2 { int64 size = 1; } };
//                    repeated bytes string_val = 8; }
//   HistogramProto { double min = 1, max = 2, num = 3, sum = 4, sum_squares = 5;
//                    repeated double bucket_limit = 6 [packed]; repeated double bucket = 7 [packed]; }
// Scalars are written as simple_value, which TensorBoard reads as it reads tf.summary.scalar's tensors.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace keras::summary {

/// CRC-32C (Castagnoli) of data, and TFRecord's masked form of it.
std::uint32_t crc32c(std::string_view data);
std::uint32_t masked_crc32c(std::string_view data);

/// A histogram in TensorBoard's HistogramProto form: `bucket[i]` values up to `bucket_limit[i]`.
struct Histogram {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit{}, bucket{};
};
/// `bucket_count` equal-width buckets from the smallest to the largest value.
Histogram make_histogram(const std::vector<double>& values, int bucket_count = 30);

/// Serialized Event messages.
std::string encode_file_version_event(double wall_time);
std::string encode_scalar_event(double wall_time, std::int64_t step, const std::string& tag, float value);
std::string encode_histogram_event(double wall_time, std::int64_t step, const std::string& tag, const Histogram& h);

/// A TensorProto of dtype DT_STRING: `values` in row-major order, of the given shape ({} for a scalar).
std::string encode_string_tensor(const std::vector<std::string>& values, const std::vector<std::int64_t>& shape);
/// The SummaryMetadata.plugin_data of a tensor summary, which tells TensorBoard which plugin reads it.
struct PluginData {
  std::string name;
  std::string content{};
  int data_class = 0;  // SummaryMetadata.DataClass: 0 unknown, 1 scalar, 2 tensor, 3 blob sequence
};
/// An Event whose summary holds one tensor value (`tensor`: a serialized TensorProto) read by `plugin`.
std::string encode_tensor_summary_event(double wall_time, std::int64_t step, const std::string& tag,
                                        const PluginData& plugin, const std::string& tensor);
/// An Event holding a serialized GraphDef in its graph_def field (TensorBoard's Graphs tab, "Default" tag).
std::string encode_graph_event(double wall_time, std::int64_t step, const std::string& graph_def);

/// This machine's host name, as event and profile file names hold it.
std::string host_name();

/// Seconds since the Unix epoch, as Event.wall_time holds it.
double wall_time_now();

/// One events.out.tfevents.<time>.<host>.<pid>.<n>.v2 file in a directory (created when missing); the first
/// record is the file_version event. Records are appended to the file as they come; flush() pushes them to disk.
class EventFile {
 public:
  explicit EventFile(const std::string& dir);
  void write_record(const std::string& data);
  void flush();
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::shared_ptr<std::FILE> file_;
};

}  // namespace keras::summary
