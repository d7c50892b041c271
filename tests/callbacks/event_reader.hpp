#pragma once
// An event-file reader written apart from the writer (callbacks/event_file.cpp) to check it: its own bitwise
// CRC-32C and its own protocol-buffer decoder. It throws on any bad CRC, truncated frame or undecodable field.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace evreader {

inline std::uint32_t crc32c_bitwise(const std::string& data) {
  std::uint32_t crc = ~0u;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline std::uint32_t masked(const std::string& data) {
  const std::uint32_t c = crc32c_bitwise(data);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

struct Histo {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit, bucket;
};

// A TensorProto's dtype, shape and string values (what tensor summaries of strings hold).
struct TensorValue {
  int dtype = 0;
  std::vector<std::int64_t> shape;
  std::vector<std::string> strings;
};

struct Value {
  std::string tag;
  std::optional<float> simple_value;
  std::optional<Histo> histo;
  std::optional<TensorValue> tensor;
  std::string plugin_name, plugin_content;  // SummaryMetadata.plugin_data
  int data_class = 0;
};

struct Event {
  double wall_time = 0;
  std::int64_t step = 0;
  std::string file_version;
  std::string graph_def;
  std::vector<Value> values;
};

// A cursor over protobuf wire data.
class Wire {
 public:
  explicit Wire(const std::string& s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= s_.size()) throw std::runtime_error("truncated varint");
      const auto b = static_cast<unsigned char>(s_[pos_++]);
      v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if (!(b & 0x80)) return v;
    }
    throw std::runtime_error("varint longer than 10 bytes");
  }
  std::string bytes(std::size_t n) {
    if (pos_ + n > s_.size()) throw std::runtime_error("truncated field");
    std::string out = s_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  double f64() {
    const std::string b = bytes(8);
    std::uint64_t u = 0;
    for (int i = 7; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
    double d;
    std::memcpy(&d, &u, 8);
    return d;
  }
  float f32() {
    const std::string b = bytes(4);
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(b[static_cast<std::size_t>(i)]);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  std::string length_delimited() { return bytes(static_cast<std::size_t>(varint())); }
  // Skips a field of an unexpected number by its wire type.
  void skip(int wire_type) {
    if (wire_type == 0) varint();
    else if (wire_type == 1) bytes(8);
    else if (wire_type == 2) length_delimited();
    else if (wire_type == 5) bytes(4);
    else throw std::runtime_error("unknown wire type " + std::to_string(wire_type));
  }

 private:
  const std::string& s_;
  std::size_t pos_ = 0;
};

inline std::vector<double> packed_doubles(const std::string& s) {
  std::vector<double> out;
  Wire w(s);
  while (!w.done()) out.push_back(w.f64());
  return out;
}

inline Histo decode_histo(const std::string& s) {
  Histo h;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field >= 1 && field <= 5 && type == 1) {
      const double v = w.f64();
      (field == 1 ? h.min : field == 2 ? h.max : field == 3 ? h.num : field == 4 ? h.sum : h.sum_squares) = v;
    } else if (field == 6 && type == 2) {
      h.bucket_limit = packed_doubles(w.length_delimited());
    } else if (field == 7 && type == 2) {
      h.bucket = packed_doubles(w.length_delimited());
    } else {
      w.skip(type);
    }
  }
  return h;
}

// Calls f(field, wire type, wire) for each field of a message.
template <class F>
void each_field(const std::string& s, F f) {
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    f(static_cast<int>(key >> 3), static_cast<int>(key & 7), w);
  }
}

inline TensorValue decode_tensor(const std::string& s) {
  TensorValue t;
  each_field(s, [&](int field, int type, Wire& w) {
    if (field == 1 && type == 0) t.dtype = static_cast<int>(w.varint());
    else if (field == 2 && type == 2)
      each_field(w.length_delimited(), [&](int f2, int t2, Wire& w2) {
        if (f2 == 2 && t2 == 2)
          each_field(w2.length_delimited(), [&](int f3, int t3, Wire& w3) {
            if (f3 == 1 && t3 == 0) t.shape.push_back(static_cast<std::int64_t>(w3.varint()));
            else w3.skip(t3);
          });
        else w2.skip(t2);
      });
    else if (field == 8 && type == 2) t.strings.push_back(w.length_delimited());
    else w.skip(type);
  });
  return t;
}

inline Value decode_value(const std::string& s) {
  Value v;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field == 1 && type == 2) v.tag = w.length_delimited();
    else if (field == 2 && type == 5) v.simple_value = w.f32();
    else if (field == 5 && type == 2) v.histo = decode_histo(w.length_delimited());
    else if (field == 8 && type == 2) v.tensor = decode_tensor(w.length_delimited());
    else if (field == 9 && type == 2)
      each_field(w.length_delimited(), [&](int f2, int t2, Wire& w2) {
        if (f2 == 1 && t2 == 2)
          each_field(w2.length_delimited(), [&](int f3, int t3, Wire& w3) {
            if (f3 == 1 && t3 == 2) v.plugin_name = w3.length_delimited();
            else if (f3 == 2 && t3 == 2) v.plugin_content = w3.length_delimited();
            else w3.skip(t3);
          });
        else if (f2 == 4 && t2 == 0) v.data_class = static_cast<int>(w2.varint());
        else w2.skip(t2);
      });
    else w.skip(type);
  }
  return v;
}

// GraphDef nodes: name, op, inputs and the names of their attrs (with "T"/"dtype" and the first output shape).
struct Node {
  std::string name, op, device;
  std::vector<std::string> inputs, attrs;
  int type = 0;
  std::vector<std::int64_t> shape;
};

inline std::vector<std::int64_t> decode_shape(const std::string& s) {
  std::vector<std::int64_t> shape;
  each_field(s, [&](int f, int t, Wire& w) {
    if (f == 2 && t == 2)
      each_field(w.length_delimited(), [&](int f2, int t2, Wire& w2) {
        if (f2 == 1 && t2 == 0) shape.push_back(static_cast<std::int64_t>(w2.varint()));
        else w2.skip(t2);
      });
    else w.skip(t);
  });
  return shape;
}

inline std::vector<Node> decode_graph_def(const std::string& s) {
  std::vector<Node> nodes;
  each_field(s, [&](int field, int type, Wire& w) {
    if (field != 1 || type != 2) return w.skip(type);
    Node n;
    each_field(w.length_delimited(), [&](int f, int t, Wire& nw) {
      if (f == 1 && t == 2) n.name = nw.length_delimited();
      else if (f == 2 && t == 2) n.op = nw.length_delimited();
      else if (f == 3 && t == 2) n.inputs.push_back(nw.length_delimited());
      else if (f == 4 && t == 2) n.device = nw.length_delimited();
      else if (f == 5 && t == 2) {
        std::string key, value;
        each_field(nw.length_delimited(), [&](int f2, int t2, Wire& ew) {
          if (f2 == 1 && t2 == 2) key = ew.length_delimited();
          else if (f2 == 2 && t2 == 2) value = ew.length_delimited();
          else ew.skip(t2);
        });
        n.attrs.push_back(key);
        each_field(value, [&](int f3, int t3, Wire& aw) {  // AttrValue: type = 6, shape = 7, list = 1 { shape = 7 }
          if (f3 == 6 && t3 == 0) n.type = static_cast<int>(aw.varint());
          else if (f3 == 1 && t3 == 2 && key == "_output_shapes")
            each_field(aw.length_delimited(), [&](int f4, int t4, Wire& lw) {
              if (f4 == 7 && t4 == 2) n.shape = decode_shape(lw.length_delimited());
              else lw.skip(t4);
            });
          else aw.skip(t3);
        });
      } else {
        nw.skip(t);
      }
    });
    nodes.push_back(n);
  });
  return nodes;
}

// RunMetadata: the pre-optimization graph of each function graph, and the step stats' node names and durations.
struct NodeStat {
  std::string node_name;
  std::int64_t all_start_micros = 0, op_end_rel_micros = 0;
};
struct RunMetadata {
  std::vector<std::string> graphs;  // serialized GraphDefs
  std::string device;
  std::vector<NodeStat> stats;
};

inline RunMetadata decode_run_metadata(const std::string& s) {
  RunMetadata r;
  each_field(s, [&](int field, int type, Wire& w) {
    if (field == 4 && type == 2)
      each_field(w.length_delimited(), [&](int f, int t, Wire& fw) {
        if (f == 2 && t == 2) r.graphs.push_back(fw.length_delimited());
        else fw.skip(t);
      });
    else if (field == 1 && type == 2)
      each_field(w.length_delimited(), [&](int f, int t, Wire& sw) {  // StepStats.dev_stats
        if (f != 1 || t != 2) return sw.skip(t);
        each_field(sw.length_delimited(), [&](int f2, int t2, Wire& dw) {
          if (f2 == 1 && t2 == 2) r.device = dw.length_delimited();
          else if (f2 == 2 && t2 == 2) {
            NodeStat n;
            each_field(dw.length_delimited(), [&](int f3, int t3, Wire& nw) {
              if (f3 == 1 && t3 == 2) n.node_name = nw.length_delimited();
              else if (f3 == 2 && t3 == 0) n.all_start_micros = static_cast<std::int64_t>(nw.varint());
              else if (f3 == 4 && t3 == 0) n.op_end_rel_micros = static_cast<std::int64_t>(nw.varint());
              else nw.skip(t3);
            });
            r.stats.push_back(n);
          } else {
            dw.skip(t2);
          }
        });
      });
    else w.skip(type);
  });
  return r;
}

inline Event decode_event(const std::string& s) {
  Event e;
  Wire w(s);
  while (!w.done()) {
    const auto key = w.varint();
    const int field = static_cast<int>(key >> 3), type = static_cast<int>(key & 7);
    if (field == 1 && type == 1) e.wall_time = w.f64();
    else if (field == 2 && type == 0) e.step = static_cast<std::int64_t>(w.varint());
    else if (field == 3 && type == 2) e.file_version = w.length_delimited();
    else if (field == 4 && type == 2) e.graph_def = w.length_delimited();
    else if (field == 5 && type == 2) {
      const std::string summary = w.length_delimited();
      Wire sw(summary);
      while (!sw.done()) {
        const auto k = sw.varint();
        if ((k >> 3) == 1 && (k & 7) == 2) e.values.push_back(decode_value(sw.length_delimited()));
        else sw.skip(static_cast<int>(k & 7));
      }
    } else {
      w.skip(type);
    }
  }
  return e;
}

/// Every event of a TFRecord file; throws on a bad frame or CRC.
inline std::vector<Event> read_events(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string file = ss.str();
  std::vector<Event> events;
  std::size_t pos = 0;
  auto le32 = [&](std::size_t at) {
    std::uint32_t u = 0;
    for (int i = 3; i >= 0; --i) u = (u << 8) | static_cast<unsigned char>(file[at + static_cast<std::size_t>(i)]);
    return u;
  };
  while (pos < file.size()) {
    if (pos + 12 > file.size()) throw std::runtime_error("truncated record header");
    const std::string len_bytes = file.substr(pos, 8);
    std::uint64_t len = 0;
    for (int i = 7; i >= 0; --i) len = (len << 8) | static_cast<unsigned char>(len_bytes[static_cast<std::size_t>(i)]);
    if (le32(pos + 8) != masked(len_bytes)) throw std::runtime_error("bad length CRC");
    if (pos + 12 + len + 4 > file.size()) throw std::runtime_error("truncated record");
    const std::string data = file.substr(pos + 12, static_cast<std::size_t>(len));
    if (le32(pos + 12 + static_cast<std::size_t>(len)) != masked(data)) throw std::runtime_error("bad data CRC");
    events.push_back(decode_event(data));
    pos += 12 + static_cast<std::size_t>(len) + 4;
  }
  return events;
}

}  // namespace evreader
