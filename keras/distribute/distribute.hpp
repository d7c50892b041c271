#pragma once
// keras::distribute: data-parallel training over MPI (link kerascpp::distribute).
#include "keras/distribute/strategy.hpp"
