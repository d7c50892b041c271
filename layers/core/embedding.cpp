#include "layers/core/embedding.hpp"

#include "keras/config/fields.hpp"
#include "keras/config/layer_config.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/sequence.hpp"

namespace keras::layers {

KERAS_FIELDS(EmbeddingOptions, embeddings_initializer, embeddings_regularizer, activity_regularizer,
             embeddings_constraint, mask_zero, input_length)

Embedding::Embedding(std::int64_t input_dim, std::int64_t output_dim, EmbeddingOptions options)
    : Layer(options, "embedding"),
      input_dim_(input_dim),
      output_dim_(output_dim),
      options_(std::move(options)) {
  if (input_dim <= 0 || output_dim <= 0)
    throw ValueError("Both `input_dim` and `output_dim` should be positive, received input_dim=" +
                     std::to_string(input_dim) + " and output_dim=" + std::to_string(output_dim));
  if (options_.input_shape.empty() && options_.input_length) set_input_shape({*options_.input_length});
  set_activity_regularizer(options_.activity_regularizer);
}

void Embedding::build(const Shape&) {
  embeddings_ = add_weight("embeddings", {input_dim_, output_dim_}, options_.embeddings_initializer, true,
                           options_.embeddings_regularizer, options_.embeddings_constraint);
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
  return ops::cast(ops::greater(ops::abs(inputs.astype(DType::float32)), Tensor::scalar(0.f)), DType::float32);  // 0/1 floats
}

Shape Embedding::compute_output_shape(const Shape& input_shape) const {
  Shape out = input_shape;
  out.push_back(output_dim_);
  return out;
}

json Embedding::get_config() const {
  json c = layer_config(*this, options_);
  c["input_dim"] = input_dim_;
  c["output_dim"] = output_dim_;
  return c;
}

std::shared_ptr<Layer> Embedding::from_config(const json& c) {
  if (auto it = c.find("lora_rank"); it != c.end() && !it->is_null() && it->get<std::int64_t>() != 0)
    throw ValueError("Embedding \"" + c.value("name", std::string()) + "\": LoRA (lora_rank=" + it->dump() +
                     ") is not supported; save the model from Keras without LoRA (the merged embeddings) to load it here");
  return make_from_config<Embedding, EmbeddingOptions>(c, config::required<std::int64_t>(c, "input_dim"),
                                                       config::required<std::int64_t>(c, "output_dim"));
}

KERAS_REGISTER_LAYER(Embedding)

}  // namespace keras::layers
