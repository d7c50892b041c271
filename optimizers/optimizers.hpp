#pragma once
// keras::optimizers: the base class and every built-in optimizer.
#include "optimizers/adam.hpp"
#include "optimizers/optimizer.hpp"
#include "optimizers/rmsprop.hpp"
#include "optimizers/sgd.hpp"
