#pragma once
// The keras.ops families beyond arithmetic and neural-network ops, gathered for keras/keras.hpp: indexing,
// shapes, sorting, cumulative ops, diagonals, creation, selection, binary math, comparisons, logical ops,
// einsum, linear algebra, norms and keras.random.
#include "keras/ops/binary_math.hpp"
#include "keras/ops/broadcasting.hpp"
#include "keras/ops/comparison.hpp"
#include "keras/ops/creation.hpp"
#include "keras/ops/cumulative.hpp"
#include "keras/ops/decompositions.hpp"
#include "keras/ops/diagonal.hpp"
#include "keras/ops/einsum.hpp"
#include "keras/ops/gather.hpp"
#include "keras/ops/linalg.hpp"
#include "keras/ops/logical.hpp"
#include "keras/ops/norm.hpp"
#include "keras/ops/random.hpp"
#include "keras/ops/reordering.hpp"
#include "keras/ops/scatter.hpp"
#include "keras/ops/selection.hpp"
#include "keras/ops/sorting.hpp"
#include "keras/ops/stacking.hpp"
