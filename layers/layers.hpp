#pragma once
// All layers.
#include "layers/convolutional/conv2d.hpp"
#include "layers/core/activation.hpp"
#include "layers/core/dense.hpp"
#include "layers/core/dropout.hpp"
#include "layers/core/flatten.hpp"
#include "layers/core/input_layer.hpp"
#include "layers/core/reshape.hpp"
#include "layers/normalization/batch_normalization.hpp"
#include "layers/normalization/layer_normalization.hpp"
#include "layers/pooling/average_pooling2d.hpp"
#include "layers/pooling/global_pooling2d.hpp"
#include "layers/pooling/max_pooling2d.hpp"
