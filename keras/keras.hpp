#pragma once
// kerascpp: Keras in C++. Include this one header.
#include "keras/autodiff/gradient_tape.hpp"
#include "keras/errors.hpp"
#include "keras/ops/math.hpp"
#include "keras/ops/nn.hpp"
#include "keras/ops/shape.hpp"
#include "keras/tensor.hpp"
#include "keras/variable.hpp"
