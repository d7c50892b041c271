#pragma once
// Layer base (keras.layers.Layer): weights created in build() through add_weight(), the forward
// pass in call(), and get_config()/from_config() through the layer registry keyed by class_name.
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <vector>

#include "keras/constraints/constraint.hpp"
#include "keras/epilogue.hpp"
#include "keras/initializers/initializer.hpp"
#include "keras/keras_tensor.hpp"
#include "keras/regularizers/regularizer.hpp"
#include "keras/registry.hpp"
#include "keras/tensor.hpp"
#include "keras/variable.hpp"

namespace keras {

/// What one call receives beside its inputs: Keras's `training` and `mask` call arguments.
struct CallContext {
  bool training = false;
  /// One Keras mask per input (0/1, [batch, time]), undefined where an input has none; empty: no masks.
  std::vector<Tensor> masks{};
  /// The mask of input `i`, undefined when it has none.
  Tensor mask(std::size_t i = 0) const { return i < masks.size() ? masks[i] : Tensor(); }
};

class Layer : public std::enable_shared_from_this<Layer> {
 public:
  /// `name` empty → a unique name from `default_prefix` ("dense", "dense_1", ...).
  Layer(const std::string& name, const std::string& default_prefix, bool trainable = true);
  /// From the base fields of a layer's options struct (KERAS_LAYER_OPTIONS): name, trainable, input_shape.
  template <class Options>
    requires requires(const Options& o) {
      o.name;
      o.trainable;
      o.input_shape;
    }
  Layer(const Options& options, const std::string& default_prefix)
      : Layer(options.name, default_prefix, options.trainable) {
    set_input_shape(options.input_shape);
  }
  virtual ~Layer() = default;
  Layer(const Layer&) = default;
  Layer(Layer&&) = default;
  Layer& operator=(const Layer&) = default;
  Layer& operator=(Layer&&) = default;

  // Calling a layer (Keras's __call__): builds it on first use, keeps losses(), then runs call().

  /// One input, one output (a layer with several outputs throws: call_all() gives each).
  Tensor operator()(const Tensor& inputs, bool training = false);
  /// Several inputs (Add, Concatenate, attention's {query, value}), one output.
  Tensor operator()(const std::vector<Tensor>& inputs, bool training = false);
  /// Every output of one call under `context` (the training flag, the inputs' masks): a recurrent layer
  /// with return_state gives {output, states...} and takes {sequence, initial states...}.
  std::vector<Tensor> call_all(const std::vector<Tensor>& inputs, const CallContext& context = {});
  /// Functional API: records this call in the graph and returns the symbolic output. The layer must
  /// be held by a std::shared_ptr (so the graph can share it), or be a temporary such as
  /// `layers::Dense(8)(x)`, which moves into the graph with its state (its class needs KERAS_LAYER).
  KerasTensor operator()(const KerasTensor& input) &;
  KerasTensor operator()(const std::vector<KerasTensor>& inputs) &;
  KerasTensor operator()(const KerasTensor& input) &&;
  KerasTensor operator()(const std::vector<KerasTensor>& inputs) &&;
  /// Functional API, every output of the call: `auto s = lstm->call_all({x}); s[1]` is h with return_state
  /// (Keras: `out, h, c = LSTM(4, return_state=True)(x)`).
  std::vector<KerasTensor> call_all(const std::vector<KerasTensor>& inputs) &;
  std::vector<KerasTensor> call_all(const std::vector<KerasTensor>& inputs) &&;

  // What a layer implements (Keras's build / call / compute_output_shape / compute_mask), in two forms. The
  // simple form takes one input and gives one output; most layers override only it. The general form takes
  // every input and gives every output; the framework calls only it, and its default accepts exactly one
  // input and forwards it to the simple form. A layer with several inputs or outputs, or one that reads
  // masks, overrides the general form. Overriding one form of a name hides the other in the subclass's
  // own scope: add `using Layer::call;` (or build, ...) where the subclass calls the other form itself.

  /// Creates the weights for inputs of `input_shape` (batch dimension included, unknown as -1).
  virtual void build(const Shape& input_shape);
  virtual void build(const std::vector<Shape>& input_shapes);
  /// The forward pass of one input (the default throws: override this or the general form).
  virtual Tensor call(const Tensor& inputs, bool training);
  virtual std::vector<Tensor> call(const std::vector<Tensor>& inputs, const CallContext& context);
  /// The output shape for an input shape (batch dimension -1 when unknown); the default is the input shape.
  virtual Shape compute_output_shape(const Shape& input_shape) const { return input_shape; }
  /// One shape per output of call().
  virtual std::vector<Shape> compute_output_shape(const std::vector<Shape>& input_shapes) const;
  /// The Keras mask of the output for `inputs` and their `mask` (undefined: no mask). The default passes
  /// the mask on when the layer supports masking and drops it otherwise.
  virtual Tensor compute_mask(const Tensor& inputs, const Tensor& mask) const;
  /// One mask per output (a shorter list leaves the remaining outputs unmasked); the default gives a
  /// multi-input layer's output no mask. Merging and attention layers pass masks on.
  virtual std::vector<Tensor> compute_mask(const std::vector<Tensor>& inputs, const std::vector<Tensor>& masks) const;
  bool supports_masking() const { return supports_masking_; }

  /// Keras's class_name ("Dense"): the serialization key. KERAS_LAYER supplies it.
  virtual std::string class_name() const = 0;
  /// Moves this layer into a new std::shared_ptr of its own class, as a temporary called on symbolic
  /// tensors is moved into the graph. KERAS_LAYER supplies it; the default throws.
  virtual std::shared_ptr<Layer> move_to_shared() &&;
  /// {"name", "trainable", "dtype"} plus each subclass's own fields (and batch_input_shape when set).
  virtual json get_config() const;
  /// Builds a layer from {"class_name", "config"} through the registry.
  static std::shared_ptr<Layer> deserialize(const json& config);

  /// A new weight. Its regularizer's penalty joins losses(); its constraint is applied by optimizers
  /// after each update.
  std::shared_ptr<Variable> add_weight(const std::string& name, const Shape& shape,
                                       const initializers::InitializerRef& initializer = "glorot_uniform",
                                       bool trainable = true, const regularizers::RegularizerRef& regularizer = {},
                                       const constraints::ConstraintRef& constraint = {});

  /// Keras's layer.losses: the losses added by the last top-level call (add_loss, activity regularization)
  /// and the current weight-regularization penalties, of this layer and its sub-layers. Scalars,
  /// differentiable: computed under a GradientTape they give gradients to the weights.
  std::vector<Tensor> losses() const;
  /// Adds a loss tensor to this layer's losses (kept until the next top-level call of a layer holding it).
  void add_loss(const Tensor& loss);
  /// The regularizer applied to this layer's outputs (its mean over the batch joins losses()); may be unset.
  const regularizers::RegularizerRef& activity_regularizer() const { return activity_regularizer_; }
  void set_activity_regularizer(regularizers::RegularizerRef r) { activity_regularizer_ = std::move(r); }

  /// Own weights then those of sub-layers, in creation order.
  std::vector<std::shared_ptr<Variable>> weights() const;
  std::vector<std::shared_ptr<Variable>> trainable_weights() const;
  std::vector<std::shared_ptr<Variable>> non_trainable_weights() const;
  std::vector<Tensor> get_weights() const;
  void set_weights(const std::vector<Tensor>& values);
  std::int64_t count_params() const;

  /// Reads the base fields (trainable, batch_input_shape) back from a config (the name is a constructor
  /// argument); from_config calls it on the new layer.
  void read_base_config(const json& config);

  /// Inference-time fusion (keras/epilogue.hpp): the element-wise step this layer is on its one input, or
  /// Kind::none (the default). Asked at every fused call, so it reflects the current weights.
  virtual EpilogueStep epilogue_step() const { return {}; }
  /// Whether call_with_epilogue can run: a built layer computing a product (a convolution) with no
  /// activation of its own, followed by the steps of an Epilogue.
  virtual bool takes_epilogue() const { return false; }
  /// The layer's inference output on one input with `epilogue` applied; only where takes_epilogue().
  virtual Tensor call_with_epilogue(const Tensor& inputs, const Epilogue& epilogue);
  /// Training-time fusion: whether train_with_epilogue can run now (a BatchNormalization that trains),
  /// followed by a residual and a relu of an Epilogue (no affine step).
  virtual bool trains_with_epilogue() const { return false; }
  /// The layer's training output on one input with `epilogue` applied; only where trains_with_epilogue().
  virtual Tensor train_with_epilogue(const Tensor& inputs, const Epilogue& epilogue);
  /// Training-time reordering (keras/fused_chains.hpp): whether this layer is a max pooling, which commutes
  /// with a relu before it (max(relu(a), relu(b)) = relu(max(a, b))), so that it may pool first and the
  /// relu and its gradient run over the pooled tensor.
  virtual bool commutes_with_relu() const { return false; }
  /// Whether call_without_relu can run: a built layer whose own activation is relu (a convolution).
  virtual bool defers_relu() const { return false; }
  /// The layer's output on one input, its relu left out; only where defers_relu().
  virtual Tensor call_without_relu(const Tensor& inputs);
  /// Fusion (keras/fused_chains.hpp), predicting and training: whether this layer is a 2-D max pooling of
  /// 2 x 2 windows, stride 2, "valid" padding, channels_last, which the convolution before it may run in its pass.
  virtual bool max_pools_2x2() const { return false; }
  /// The layer's output on one input, pooled so (max_pools_2x2), in one pass, its gradient recorded when a
  /// tape records; an undefined Tensor where it cannot, and the caller runs the two layers.
  virtual Tensor call_max_pooled(const Tensor&) { return Tensor(); }
  /// Fusion (keras/fused_chains.hpp), predicting: the table whose rows this layer outputs for token ids (an
  /// Embedding without mask_zero), which the layer after it may look up itself (call_on_tokens); else null.
  virtual std::shared_ptr<Variable> token_table() const { return nullptr; }
  /// The layer's output, predicting, on the rows of `table` at ids [batch, time] (the token_table of the
  /// layer before it), in one pass; an undefined Tensor where it cannot, and the caller runs the two layers.
  virtual Tensor call_on_tokens(const Tensor& /*ids*/, const Tensor& /*table*/) { return Tensor(); }

  /// Layers this one owns (a model's layers); their weights count as this layer's.
  virtual std::vector<std::shared_ptr<Layer>> sublayers() const { return {}; }

  /// Whether the layer takes string tensors (DType::string): the text and lookup layers and InputLayer
  /// do, and containers (models, wrappers), whose inner layers decide; any other is refused with a
  /// ValueError naming it.
  virtual bool accepts_strings() const { return !sublayers().empty(); }
  /// The dtype of the layer's outputs on symbolic tensors (float32 unless the class says otherwise: int64
  /// indices of the lookup layers, strings of an inverted StringLookup, a model's first output's).
  virtual DType output_dtype() const { return DType::float32; }

  /// Keras's layer.stateful: whether the layer carries state from one call to the next (a recurrent layer
  /// with stateful=true, or a model holding one).
  virtual bool stateful() const { return false; }
  /// Keras's reset_states(): a stateful layer's states back to zeros (a model resets every stateful layer
  /// it holds). The base throws: the layer has no states.
  virtual void reset_states();

  const std::string& name() const { return name_; }
  bool trainable() const { return trainable_; }
  /// Freezing a layer freezes its weights and those of its sub-layers.
  virtual void set_trainable(bool trainable);
  bool built() const { return built_; }
  /// The input shape given by Input(...) or an input_shape option, batch dimension included.
  const std::optional<Shape>& batch_input_shape() const { return batch_input_shape_; }
  void set_batch_input_shape(const Shape& shape) { batch_input_shape_ = shape; }
  /// The `input_shape` option (batch dimension excluded); empty means not given.
  void set_input_shape(const Shape& shape) {
    if (shape.empty()) return;
    Shape s{-1};
    s.insert(s.end(), shape.begin(), shape.end());
    batch_input_shape_ = s;
  }
  /// The input shape the layer was built for (batch dimension -1).
  const std::optional<Shape>& built_input_shape() const { return built_input_shape_; }
  /// The output shape for the built input shape.
  Shape output_shape() const;

  /// build() once for these input shapes (called by operator(), call_all() and models), with the batch
  /// dimension made unknown (-1) unless the layer is stateful.
  void ensure_built(const Shape& input_shape);
  void ensure_built(const std::vector<Shape>& input_shapes);

 protected:
  /// The error of move_to_shared() for a class without its own KERAS_LAYER line.
  [[noreturn]] void throw_not_movable() const;
  [[noreturn]] void throw_string_input(std::size_t index) const;
  /// When set, calls after build must match the built input shape in rank and known dimensions
  /// (models set it; single layers check what they need in call()).
  bool strict_input_shape_ = false;
  /// Set by layers that accept a mask (the mask then flows through them to the next layer).
  bool supports_masking_ = false;
  /// Marks the layer unbuilt again (a Sequential model emptied by pop()).
  void reset_built() {
    built_ = false;
    built_input_shape_.reset();
  }

 private:
  /// Runs the general call() with loss bookkeeping: a top-level call clears the previous call's losses,
  /// and the activity regularizer's penalty is added for the first output.
  std::vector<Tensor> run_call(const std::vector<Tensor>& inputs, const CallContext& context);
  void clear_losses();
  /// With strict_input_shape_: throws unless `got` matches the built input shape.
  void check_built_shape(const Shape& got) const;
  void collect_losses(std::vector<Tensor>& out, std::vector<const Layer*>& seen) const;

  std::string name_;
  bool trainable_;
  bool built_ = false;
  std::optional<Shape> batch_input_shape_;
  std::optional<Shape> built_input_shape_;
  std::vector<std::shared_ptr<Variable>> own_weights_;
  std::vector<bool> own_weight_trainable_;  // as created; a frozen layer overrides it
  std::vector<std::pair<std::shared_ptr<Variable>, std::shared_ptr<regularizers::Regularizer>>> weight_regularizers_;
  regularizers::RegularizerRef activity_regularizer_{};
  std::vector<Tensor> added_losses_;
};

using LayerPtr = std::shared_ptr<Layer>;

/// The arguments every layer takes (Keras's base-layer keyword arguments), declared once: each layer's
/// options struct ends with KERAS_LAYER_OPTIONS, so `Dense(8, {.activation = "relu", .name = "hidden"})`
/// stays one flat designated initializer (C++ cannot designate the fields of a base struct). The Layer base
/// writes and reads them in every config.
#define KERAS_LAYER_OPTIONS                                \
  ::keras::Shape input_shape{}; /* optional, batch excluded */ \
  std::string name{};                                      \
  bool trainable = true;

/// Ends the body of a concrete layer class (`KERAS_LAYER(Dense)` as its last line): supplies class_name(),
/// Keras's class name, which is the C++ name, and declares move_to_shared(), which moves a temporary such as
/// `layers::Dense(8)(x)` into a functional graph. Its source file then has KERAS_REGISTER_LAYER(Dense). The
/// members after it are public.
#define KERAS_LAYER(Class)                                    \
 public:                                                      \
  std::string class_name() const override { return #Class; } \
  KERAS_LAYER_MOVE(Class)

/// The declaration of move_to_shared() alone, for a class whose class_name() depends on its state (Model:
/// "Functional" with a graph).
#define KERAS_LAYER_MOVE(Class) \
 public:                        \
  std::shared_ptr<::keras::Layer> move_to_shared() && override;

/// The one line a layer class adds to its source file (at namespace scope, after KERAS_LAYER in its
/// body): defines move_to_shared() and, when the class has a `static std::shared_ptr<Layer>
/// from_config(const json&)`, registers it under its class name, and under any aliases given as further
/// strings, so load_model and Layer::deserialize find it. A subclass without a KERAS_LAYER line of its own
/// gets a clear error from move_to_shared() instead of being sliced.
#define KERAS_REGISTER_LAYER(Class, ...)                                                           \
  std::shared_ptr<::keras::Layer> Class::move_to_shared()&& {                                      \
    if (typeid(*this) != typeid(Class)) throw_not_movable();                                        \
    return std::make_shared<Class>(std::move(*this));                                              \
  }                                                                                                \
  [[maybe_unused]] static const bool keras_registered_##Class =                                    \
      ::keras::layer_detail::register_layer<Class>(#Class, std::vector<std::string>{__VA_ARGS__});

namespace layer_detail {
template <class L>
bool register_layer(const std::string& class_name, const std::vector<std::string>& aliases) {
  if constexpr (requires(const json& c) { L::from_config(c); }) register_class<Layer, L>(class_name, aliases);
  return true;
}
}  // namespace layer_detail

/// What a model takes as a layer: a layer object (moved in), a shared pointer to one, or a symbolic input.
class LayerRef : public Ref<Layer> {
 public:
  using Ref<Layer>::Ref;
  /// The InputLayer behind a symbolic input, so `Sequential({Input({28, 28}), ...})` works.
  LayerRef(const KerasTensor& input);
};

namespace backend {
/// A unique layer name for `prefix`: "dense", then "dense_1", "dense_2", ... (Keras's naming);
/// not zero-based: "input_1", "input_2", ...
std::string unique_name(const std::string& prefix, bool zero_based = true);
/// Resets the name counters (keras.backend.clear_session).
void clear_session();
}  // namespace backend

/// "Conv2D" → "conv2d", "BatchNormalization" → "batch_normalization".
std::string to_snake_case(const std::string& class_name);

}  // namespace keras
