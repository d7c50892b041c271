#pragma once
// Before training, every rank must hold the same model and optimizer, and the chief's weights. A rank
// that built something else (another layer size, another learning rate) is refused with an error that
// names it and the first difference, on every rank at once, so that none is left waiting.
#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

namespace keras {
class Model;
class Variable;
namespace optimizers {
class Optimizer;
}
}  // namespace keras

namespace keras::distribute {

/// One line per weight (name, shape, trainable) and one for the optimizer's class and config (if any).
std::string model_signature(const Model& model, const optimizers::Optimizer* optimizer);
/// Throws ReplicaError on every rank unless all ranks' signatures equal the chief's.
void check_same_model(MPI_Comm comm, const std::string& signature);
/// Copies the chief's values into every rank's variables.
void broadcast_weights(MPI_Comm comm, const std::vector<std::shared_ptr<Variable>>& weights);

}  // namespace keras::distribute
