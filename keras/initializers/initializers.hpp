#pragma once
// keras::initializers: the base class and every built-in initializer.
#include "keras/initializers/constant.hpp"
#include "keras/initializers/identity.hpp"
#include "keras/initializers/initializer.hpp"
#include "keras/initializers/orthogonal.hpp"
#include "keras/initializers/random.hpp"
#include "keras/initializers/variance_scaling.hpp"
