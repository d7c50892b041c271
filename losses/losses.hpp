#pragma once
// All built-in losses (keras.losses): the Loss base, its classes and their per-sample functions.
#include "losses/binary_crossentropy.hpp"
#include "losses/categorical_crossentropy.hpp"
#include "losses/loss.hpp"
#include "losses/mean_absolute_error.hpp"
#include "losses/mean_squared_error.hpp"
#include "losses/sparse_categorical_crossentropy.hpp"
