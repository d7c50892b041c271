// Dataset::save / load (tf.data.Dataset.save/load) and Dataset::snapshot: elements persisted in a
// directory: dataset_spec.json (format, element_spec, compression, shards, count) and shard files of
// TFRecord frames (CRC-32C checked), each record one element as CBOR, optionally GZIP/ZLIB-compressed.
// The format is kerascpp's own (TensorFlow's is protobuf-based snapshot files); load refuses others.
#include <filesystem>
#include <fstream>
#include <mutex>

#include <fmt/format.h>

#include "data/unary_node.hpp"
#include "data/tfrecord_dataset.hpp"
#include "keras/json.hpp"

namespace keras::data {
namespace {

namespace fs = std::filesystem;
constexpr const char* kFormat = "kerascpp-dataset";
constexpr const char* kSpecFile = "dataset_spec.json";

json spec_to_json(const ElementSpec& s) {
  if (s.is_leaf()) return {{"shape", s.leaf().shape}, {"dtype", s.leaf().dtype}};
  json items = json::array();
  for (const auto& c : s.children()) items.push_back(spec_to_json(c));
  return s.is_dict() ? json{{"keys", s.keys()}, {"items", items}} : json{{"items", items}};
}

ElementSpec spec_from_json(const json& j) {
  if (!j.contains("items")) return TensorSpec{j.at("shape").get<Shape>(), j.at("dtype").get<std::string>()};
  if (j.contains("keys")) {
    std::vector<std::pair<std::string, ElementSpec>> items;
    for (std::size_t i = 0; i < j["items"].size(); ++i) items.emplace_back(j["keys"][i].get<std::string>(), spec_from_json(j["items"][i]));
    return ElementSpec::dict(std::move(items));
  }
  std::vector<ElementSpec> items;
  for (const auto& c : j["items"]) items.push_back(spec_from_json(c));
  return ElementSpec::tuple(std::move(items));
}

std::string resolve_compression(std::string c, const char* op) {
  if (c == "AUTO") return "GZIP";
  if (c == "NONE") return "";
  if (c != "" && c != "GZIP" && c != "ZLIB")
    throw ValueError(fmt::format("{}: compression must be \"\", \"GZIP\" or \"ZLIB\" (or \"AUTO\"/\"NONE\" for snapshot), got \"{}\"",
                                 op, c));
  return c;
}

std::string shard_name(std::size_t i) { return fmt::format("shard_{:05d}.tfrecord", i); }

std::string encode(const Element& e) {
  const auto bytes = json::to_cbor(element_to_json(e));
  return {bytes.begin(), bytes.end()};
}

// Writes the elements it is given into shards; commit() writes the spec file last, through a temporary
// file, so that a directory with a spec is always complete.
class Writer {
 public:
  Writer(std::string dir, std::string compression, std::int64_t per_shard)
      : dir_(std::move(dir)), compression_(std::move(compression)), per_shard_(per_shard) {
    std::error_code ec;
    fs::remove(fs::path(dir_) / kSpecFile, ec);
    fs::create_directories(dir_, ec);
    if (!fs::is_directory(dir_)) throw IOError("Cannot create the dataset directory '" + dir_ + "'");
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().filename().string().starts_with("shard_")) fs::remove(entry.path(), ec);
  }
  void write(const Element& e) {
    if (!out_ || (per_shard_ > 0 && in_shard_ >= per_shard_)) {
      if (out_) out_->close();
      out_.emplace((fs::path(dir_) / shard_name(shards_++)).string(), TFRecordWriterOptions{compression_});
      in_shard_ = 0;
    }
    out_->write(encode(e));
    seen_ = seen_ ? merge_specs(*seen_, spec_of(e)) : spec_of(e);
    ++in_shard_;
    ++count_;
  }
  void commit(const ElementSpec& spec) {
    if (out_) out_->close();
    if (shards_ == 0) {  // an empty dataset: one empty shard
      TFRecordWriter((fs::path(dir_) / shard_name(shards_++)).string(), TFRecordWriterOptions{compression_}).close();
    }
    const json j{{"format", kFormat}, {"version", 1}, {"element_spec", spec_to_json(spec)}, {"compression", compression_},
                 {"num_shards", shards_}, {"cardinality", count_}};
    const fs::path tmp = fs::path(dir_) / (std::string(kSpecFile) + ".tmp");
    {
      std::ofstream f(tmp);
      f << j.dump(1);
      if (!f) throw IOError("Cannot write '" + tmp.string() + "'");
    }
    fs::rename(tmp, fs::path(dir_) / kSpecFile);
  }

 private:
  std::string dir_, compression_;
  std::int64_t per_shard_;
  std::optional<TFRecordWriter> out_;
  std::size_t shards_ = 0;
  std::int64_t in_shard_ = 0, count_ = 0;

 public:
  /// The spec of the elements written so far (merged), if any.
  std::optional<ElementSpec> seen_;
};

std::optional<json> read_spec(const std::string& dir) {
  const fs::path p = fs::path(dir) / kSpecFile;
  if (!fs::exists(p)) return std::nullopt;
  std::ifstream f(p);
  json j;
  try {
    j = json::parse(f);
  } catch (const std::exception& e) {
    throw IOError("Cannot read '" + p.string() + "': " + e.what());
  }
  if (j.value("format", "") != kFormat)
    throw IOError("'" + p.string() + "' is not a kerascpp saved dataset (written by Dataset::save or snapshot)");
  return j;
}

// The saved elements, decoded, with the saved spec and count.
class LoadNode : public DatasetNode {
 public:
  LoadNode(const std::string& dir, const json& spec) : spec_(spec_from_json(spec.at("element_spec"))), count_(spec.at("cardinality")) {
    std::vector<std::string> shards;
    for (std::size_t i = 0; i < spec.at("num_shards").get<std::size_t>(); ++i) {
      const auto p = fs::path(dir) / shard_name(i);
      if (!fs::exists(p)) throw IOError("Saved dataset '" + dir + "' lacks its shard " + p.filename().string());
      shards.push_back(p.string());
    }
    records_ = TFRecordDataset(shards, {.compression_type = spec.at("compression").get<std::string>()});
  }
  std::int64_t cardinality() const override { return count_; }
  ElementSpec element_spec() const override { return spec_; }
  IteratorPtr make_iterator() const override {
    struct It : IteratorBase {
      std::optional<Dataset> keep;  // the records' graph, alive as long as the iterator
      IteratorPtr records;
      std::optional<Element> next() override {
        auto r = records->next();
        if (!r) return std::nullopt;
        const std::string& s = r->leaf().str();
        return element_from_json(json::from_cbor(std::vector<std::uint8_t>(s.begin(), s.end())));
      }
      json save() const override { return records->save(); }
      void restore(const json& s) override { records->restore(s); }
    };
    auto it = std::make_unique<It>();
    it->keep = records_;
    it->records = records_->node()->make_iterator();
    return it;
  }

 private:
  ElementSpec spec_;
  std::int64_t count_;
  std::optional<Dataset> records_;
};

class SnapshotNode : public UnaryNode<SnapshotNode> {
 public:
  SnapshotNode(Dataset input, std::string path, std::string compression)
      : UnaryNode(std::move(input)), path_(std::move(path)), compression_(std::move(compression)) {}
  std::int64_t cardinality() const override { return input_.cardinality(); }
  IteratorPtr make_iterator() const override {
    if (auto spec = read_spec(path_)) return LoadNode(path_, *spec).make_iterator();
    struct It : IteratorBase {
      const SnapshotNode* n;
      IteratorPtr input;
      std::optional<Writer> writer;  // only the first pass that finds no snapshot writes one
      const char* kind() const override { return "snapshot (while writing)"; }
      ~It() override {
        if (writer) n->writing_ = false;
      }
      std::optional<Element> next() override {
        auto e = input->next();
        if (writer) {
          if (e) writer->write(*e);
          else {
            // The spec of what was written (asking the input would run its map functions once more).
            writer->commit(writer->seen_ ? *writer->seen_ : n->input_.element_spec());
            writer.reset();
            n->writing_ = false;
          }
        }
        return e;
      }
    };
    auto it = fresh_iterator<It>();
    std::lock_guard lock(mu_);
    if (!writing_) {
      it->writer.emplace(path_, compression_, 0);
      writing_ = true;
    }
    return it;
  }

 private:
  std::string path_, compression_;
  mutable std::mutex mu_;
  mutable bool writing_ = false;
};

}  // namespace

void Dataset::save(const std::string& path, SaveOptions o) const {
  if (cardinality() == INFINITE_CARDINALITY) throw ValueError("save: the dataset is infinite; take() a finite part first");
  if (o.elements_per_shard < 0) throw ValueError("save: elements_per_shard must be >= 0");
  Writer w(path, resolve_compression(o.compression, "save"), o.elements_per_shard);
  for (const Element& e : *this) w.write(e);
  w.commit(element_spec());
}

Dataset Dataset::load(const std::string& path, LoadOptions o) {
  auto spec = read_spec(path);
  if (!spec) throw IOError("load: '" + path + "' holds no saved dataset (no " + kSpecFile + "); write one with Dataset::save");
  auto node = std::make_shared<LoadNode>(path, *spec);
  if (o.element_spec && (!o.element_spec->same_structure(node->element_spec()) ||
                         o.element_spec->flatten() != node->element_spec().flatten()))
    throw ValueError("load: the saved dataset's element_spec is " + spec_str(node->element_spec()) + ", not the given " +
                     spec_str(*o.element_spec));
  return Dataset(node);
}

Dataset Dataset::snapshot(const std::string& path, SnapshotOptions o) const {
  return Dataset(std::make_shared<SnapshotNode>(*this, path, resolve_compression(o.compression, "snapshot")));
}

}  // namespace keras::data
