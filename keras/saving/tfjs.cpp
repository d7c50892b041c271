// TF.js layers format: export (topology + weightsManifest + shards) and load (with dequantization).
#include "keras/activations.hpp"
#include "keras/json.hpp"
#include "keras/saving/tfjs.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <unistd.h>

#include "keras/saving/config_errors.hpp"
#include "keras/saving/custom_objects.hpp"
#include "keras/saving/hdf5_format.hpp"
#include "keras/saving/training_config.hpp"

namespace keras {
namespace fs = std::filesystem;
namespace {

std::string weight_key(const std::string& name) {
  return name.size() > 2 && name.compare(name.size() - 2, 2, ":0") == 0 ? name.substr(0, name.size() - 2) : name;
}

const char* tfjs_dtype(DType d) {
  switch (d) {
    case DType::float32: return "float32";
    case DType::int32: return "int32";
    default: return nullptr;
  }
}

void write_file(const fs::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) throw IOError("export_tfjs: could not write " + path.string());
}

std::vector<char> read_file(const fs::path& path, const std::string& model_json) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IOError("The weight file " + path.string() + " named in " + model_json + " cannot be opened");
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

float half_to_float(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float v;
  if (exponent == 0)
    v = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31)
    v = mantissa ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  return sign ? -v : v;
}

// One weight of the manifest decoded from `bytes` (which must hold exactly its data) into float32.
Tensor decode_weight(const json& spec, const char* bytes, std::size_t available, std::size_t& consumed,
                     const std::string& where) {
  const std::string name = spec.value("name", std::string("?"));
  Shape shape;
  for (const auto& d : spec.at("shape")) shape.push_back(d.get<std::int64_t>());
  const std::int64_t count = shape_size(shape);
  const std::string dtype = spec.value("dtype", std::string("float32"));
  const json quant = spec.value("quantization", json());
  const std::string stored = quant.is_object() ? quant.value("dtype", std::string()) : dtype;
  const std::size_t width = stored == "uint8" ? 1 : (stored == "uint16" || stored == "float16") ? 2 : 4;
  if (stored != "float32" && stored != "int32" && stored != "uint8" && stored != "uint16" && stored != "float16")
    throw IOError(fmt::format("{}: weight '{}' has an unsupported dtype '{}'", where, name, stored));
  consumed = static_cast<std::size_t>(count) * width;
  if (consumed > available)
    throw IOError(fmt::format("{}: the weight shards end inside weight '{}' (needs {} bytes, {} left): a shard is "
                              "missing or truncated", where, name, consumed, available));
  Tensor out = Tensor::empty(shape, DType::float32);
  float* dst = out.data<float>();
  const double scale = quant.is_object() ? quant.value("scale", 1.0) : 1.0;
  const double min = quant.is_object() ? quant.value("min", 0.0) : 0.0;
  for (std::int64_t i = 0; i < count; ++i) {
    const char* p = bytes + static_cast<std::size_t>(i) * width;
    if (stored == "float32") {
      std::memcpy(&dst[i], p, 4);
    } else if (stored == "int32") {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      dst[i] = static_cast<float>(v);
    } else if (stored == "float16") {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      dst[i] = half_to_float(v);
    } else {
      std::uint16_t v = 0;
      std::memcpy(&v, p, width);
      dst[i] = static_cast<float>(min + scale * v);
    }
  }
  return out;
}

}  // namespace

void export_tfjs(const Model& model, const std::string& directory, ExportTfjsOptions options) {
  if (options.shard_size_bytes < 4) throw ValueError("export_tfjs: shard_size_bytes must be at least 4");
  // All weights, in order, as one byte stream cut into shards.
  std::vector<char> blob;
  json weights = json::array();
  for (const auto& layer : model.layers())
    for (const auto& [name, var] : saving::named_weights(*layer)) {
      const Tensor& v = var->value();
      const char* dtype = tfjs_dtype(v.dtype());
      if (!dtype)
        throw ValueError(fmt::format("export_tfjs: weight '{}' of layer '{}' has a dtype TF.js cannot hold", name,
                                     layer->name()));
      weights.push_back({{"name", weight_key(name)}, {"shape", v.shape()}, {"dtype", dtype}});
      const char* bytes = static_cast<const char*>(v.raw_data());
      blob.insert(blob.end(), bytes, bytes + v.nbytes());
    }
  const auto shard = static_cast<std::size_t>(options.shard_size_bytes);
  const std::size_t shards = std::max<std::size_t>(1, (blob.size() + shard - 1) / shard);
  json paths = json::array();
  for (std::size_t i = 0; i < shards; ++i) paths.push_back(fmt::format("group1-shard{}of{}.bin", i + 1, shards));

  json topology{{"keras_version", saving::kKerasVersion},
                {"backend", "tensorflow"},
                {"model_config", serialize_object(model.class_name(), model.get_config())}};
  activations::check_savable(topology["model_config"]);
  if (model.compiled()) topology["training_config"] = model.training_config();
  const json model_json{{"format", "layers-model"},
                        {"generatedBy", std::string("keras v") + saving::kKerasVersion},
                        {"convertedBy", "kerascpp"},
                        {"modelTopology", topology},
                        {"weightsManifest", json::array({{{"paths", paths}, {"weights", weights}}})}};

  // Build the folder beside the target, then swap it in.
  const fs::path target = fs::absolute(directory).lexically_normal();
  const fs::path base = target.has_filename() ? target : target.parent_path();
  const fs::path tmp = base.string() + ".tmp" + std::to_string(::getpid());
  const fs::path old = base.string() + ".old" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(tmp, ec);
  try {
    fs::create_directories(tmp);
    for (std::size_t i = 0; i < shards; ++i) {
      const std::size_t begin = i * shard, size = std::min(shard, blob.size() - std::min(blob.size(), begin));
      write_file(tmp / paths[i].get<std::string>(), blob.data() + begin, size);
    }
    const std::string text = model_json.dump();
    write_file(tmp / "model.json", text.data(), text.size());
    if (fs::exists(base)) {
      if (!fs::is_directory(base)) throw IOError("export_tfjs: " + base.string() + " exists and is not a folder");
      fs::rename(base, old);
    }
    fs::rename(tmp, base);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(tmp, ec);
    if (fs::exists(old) && !fs::exists(base)) fs::rename(old, base, ec);
    throw IOError(std::string("export_tfjs could not write ") + base.string() + ": " + e.what());
  } catch (...) {
    fs::remove_all(tmp, ec);
    if (fs::exists(old) && !fs::exists(base)) fs::rename(old, base, ec);
    throw;
  }
  fs::remove_all(old, ec);
}

namespace models {

std::shared_ptr<Model> load_tfjs(const std::string& model_json_path, LoadModelOptions options) {
  fs::path path = model_json_path;
  if (fs::is_directory(path)) path /= "model.json";
  std::ifstream in(path);
  if (!in) throw IOError("Cannot open the TF.js model file " + path.string());
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw IOError("The TF.js model file " + path.string() + " is not valid JSON: " + e.what());
  }
  if (!doc.is_object() || !doc.contains("modelTopology") || !doc.contains("weightsManifest"))
    throw IOError(path.string() + " is not a TF.js layers model (it needs \"modelTopology\" and \"weightsManifest\"; "
                  "graph models from the SavedModel converter are not Keras models)");
  const json& topology = doc["modelTopology"];
  const json& config = topology.contains("model_config") ? topology["model_config"] : topology;

  return saving::reading_config(path.string(), [&] {
    CustomObjectScope scope(options.custom_objects);
    auto layer = Layer::deserialize(config);
    auto model = std::dynamic_pointer_cast<Model>(layer);
    if (!model) throw IOError(path.string() + " describes a " + layer->class_name() + " layer, not a model");
    if (!model->built() && model->batch_input_shape()) model->ensure_built(*model->batch_input_shape());

    // Every weight of the manifest by name; each group's shards form one byte stream.
    std::map<std::string, Tensor> values;
    std::vector<std::string> order;
    for (const auto& group : doc["weightsManifest"]) {
      std::vector<char> bytes;
      for (const auto& shard : group.at("paths")) {
        auto part = read_file(path.parent_path() / shard.get<std::string>(), path.string());
        bytes.insert(bytes.end(), part.begin(), part.end());
      }
      std::size_t offset = 0;
      for (const auto& spec : group.at("weights")) {
        std::size_t used = 0;
        Tensor t = decode_weight(spec, bytes.data() + offset, bytes.size() - offset, used, path.string());
        offset += used;
        values[spec.at("name").get<std::string>()] = t;
        order.push_back(spec.at("name").get<std::string>());
      }
    }
    // Assign by name; when the names do not match (e.g. a renamed model), by position as Keras does.
    std::vector<std::pair<std::string, std::shared_ptr<Variable>>> targets;
    for (const auto& l : model->layers())
      for (const auto& entry : saving::named_weights(*l)) targets.push_back(entry);
    bool by_name = true;
    for (const auto& [name, var] : targets) by_name = by_name && values.count(weight_key(name));
    if (!by_name && targets.size() != order.size())
      throw IOError(fmt::format("{} holds {} weights but model '{}' has {}, and their names do not match", path.string(),
                                order.size(), model->name(), targets.size()));
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const auto& [name, var] = targets[i];
      const Tensor& v = by_name ? values[weight_key(name)] : values[order[i]];
      if (v.shape() != var->shape())
        throw IOError(fmt::format("{}: weight '{}' has shape {} in the file but {} in the model", path.string(),
                                  weight_key(name), shape_str(v.shape()), shape_str(var->shape())));
      var->assign(v);
    }
    const json tc = topology.contains("training_config") ? topology["training_config"] : doc.value("trainingConfig", json());
    if (options.compile && tc.is_object() && tc.contains("loss")) saving::compile_from_training_config(*model, tc);
    return model;
  });
}

}  // namespace models
}  // namespace keras
