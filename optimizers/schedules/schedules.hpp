#pragma once
// keras::optimizers::schedules: learning-rate schedules an optimizer's learning_rate accepts.
#include "optimizers/schedules/cosine_decay.hpp"
#include "optimizers/schedules/cosine_decay_restarts.hpp"
#include "optimizers/schedules/exponential_decay.hpp"
#include "optimizers/schedules/inverse_time_decay.hpp"
#include "optimizers/schedules/learning_rate_schedule.hpp"
#include "optimizers/schedules/piecewise_constant_decay.hpp"
#include "optimizers/schedules/polynomial_decay.hpp"
