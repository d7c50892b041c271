#include "layers/core/slicing_op_lambda.hpp"

#include "keras/json.hpp"
#include "layers/core/op_functions.hpp"

namespace keras::layers {

SlicingOpLambda::SlicingOpLambda(const std::string& function, TFOpLambdaOptions options)
    : TFOpLambda(function, std::move(options)) {
  if (function != "__operators__.getitem")
    throw ValueError("Layer '" + name() + "' (SlicingOpLambda) has function '" + function +
                     "'; SlicingOpLambda runs only \"__operators__.getitem\"");
}

std::shared_ptr<Layer> SlicingOpLambda::from_config(const json& c) {
  TFOpLambdaOptions o;
  if (c.contains("name") && c["name"].is_string()) o.name = c["name"].get<std::string>();
  auto layer = std::make_shared<SlicingOpLambda>(c.value("function", "__operators__.getitem"), o);
  layer->read_base_config(c);
  return layer;
}

std::vector<Index> SlicingOpLambda::key() const {
  const json& spec = call_kwargs().contains("slice_spec") ? call_kwargs()["slice_spec"] : json();
  return slice_spec_from_json(spec, who());
}

KERAS_REGISTER_LAYER(SlicingOpLambda)

}  // namespace keras::layers
