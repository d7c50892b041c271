#pragma once
// keras::regularizers and keras::constraints.
#include "keras/constraints/constraint.hpp"
#include "keras/regularizers/layer_options.hpp"
#include "keras/regularizers/regularizer.hpp"
