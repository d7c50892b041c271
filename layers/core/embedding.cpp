#include "layers/core/embedding.hpp"

#include "keras/json.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"

namespace keras::layers {

Embedding::Embedding(std::int64_t input_dim, std::int64_t output_dim, EmbeddingOptions options)
    : Layer(options.name, "embedding", options.trainable),
      input_dim_(input_dim),
      output_dim_(output_dim),
      options_(std::move(options)) {
  if (input_dim <= 0 || output_dim <= 0)
    throw ValueError("Both `input_dim` and `output_dim` should be positive, received input_dim=" +
                     std::to_string(input_dim) + " and output_dim=" + std::to_string(output_dim));
  if (!options_.input_shape.empty()) set_input_shape(options_.input_shape);
  else if (options_.input_length > 0) set_input_shape({options_.input_length});
}

void Embedding::build(const Shape&) {
  embeddings_ = add_weight("embeddings", {input_dim_, output_dim_}, options_.embeddings_initializer);
}

Tensor Embedding::call(const Tensor& inputs, bool) {
  if (inputs.dtype() == DType::float32) {
    // Keras casts float ids to integers; a fractional id is a user error.
    for (float v : inputs.to_vector<float>())
      if (v != static_cast<float>(static_cast<std::int64_t>(v)))
        throw ValueError("Layer \"" + name() + "\" (Embedding) expects integer ids, got the value " + std::to_string(v));
  }
  try {
    return ops::gather(embeddings_->value(), inputs);
  } catch (const ValueError& e) {
    throw ValueError("Layer \"" + name() + "\" (Embedding, input_dim=" + std::to_string(input_dim_) + "): " + e.what() +
                     "; ids must be in [0, input_dim)");
  }
}

Tensor Embedding::compute_mask(const Tensor& inputs, const Tensor&) const {
  if (!options_.mask_zero) return Tensor();
  return ops::greater(ops::abs(inputs.astype(DType::float32)), Tensor::scalar(0.f));
}

Shape Embedding::compute_output_shape(const Shape& input_shape) const {
  Shape out = input_shape;
  out.push_back(output_dim_);
  return out;
}

json Embedding::get_config() const {
  json c = Layer::get_config();
  c["input_dim"] = input_dim_;
  c["output_dim"] = output_dim_;
  c["embeddings_initializer"] = initializers::serialize(*options_.embeddings_initializer);
  c["embeddings_regularizer"] = nullptr;
  c["activity_regularizer"] = nullptr;
  c["embeddings_constraint"] = nullptr;
  c["mask_zero"] = options_.mask_zero;
  c["input_length"] = options_.input_length > 0 ? json(options_.input_length) : json(nullptr);
  return c;
}

std::shared_ptr<Layer> Embedding::from_config(const json& c) {
  EmbeddingOptions o;
  o.name = c.value("name", "");
  o.mask_zero = c.value("mask_zero", false);
  if (c.contains("input_length") && c["input_length"].is_number()) o.input_length = c["input_length"].get<std::int64_t>();
  if (c.contains("embeddings_initializer"))
    o.embeddings_initializer = initializers::Initializer::deserialize(c["embeddings_initializer"]);
  auto layer = std::make_shared<Embedding>(c.at("input_dim").get<std::int64_t>(), c.at("output_dim").get<std::int64_t>(), o);
  layer->read_base_config(c);
  return layer;
}

KERAS_REGISTER_LAYER(Embedding)

}  // namespace keras::layers
