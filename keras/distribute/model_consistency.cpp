#include "keras/distribute/model_consistency.hpp"

#include <cstdint>
#include <sstream>

#include <fmt/format.h>

#include "keras/distribute/mpi_runtime.hpp"
#include "keras/json.hpp"
#include "keras/model.hpp"
#include "optimizers/optimizer.hpp"

namespace keras::distribute {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first line where `mine` differs from the chief's, told as "this rank has X where the chief has Y".
std::string first_difference(const std::string& mine, const std::string& chief) {
  const auto a = lines_of(mine), b = lines_of(chief);
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string x = i < a.size() ? a[i] : "(nothing)", y = i < b.size() ? b[i] : "(nothing)";
    if (x != y) return fmt::format("this rank has '{}' where the chief has '{}'", x, y);
  }
  return "";
}

}  // namespace

std::string model_signature(const Model& model, const optimizers::Optimizer* optimizer) {
  std::string s;
  for (const auto& w : model.weights())
    s += fmt::format("weight {} {} {}\n", w->name(), shape_str(w->shape()), w->trainable() ? "trainable" : "frozen");
  if (optimizer) s += "optimizer " + optimizer->class_name() + " " + optimizer->get_config().dump() + "\n";
  return s;
}

void check_same_model(MPI_Comm comm, const std::string& signature) {
  const int rank = mpi::rank();
  std::uint64_t length = signature.size();
  mpi::check(MPI_Bcast(&length, 1, MPI_UINT64_T, 0, comm), "MPI_Bcast of the chief's model signature");
  std::string chief = rank == 0 ? signature : std::string(length, '\0');
  mpi::check(MPI_Bcast(chief.data(), static_cast<int>(length), MPI_CHAR, 0, comm), "MPI_Bcast of the chief's model signature");
  const std::string difference = first_difference(signature, chief);
  std::vector<int> differs(static_cast<std::size_t>(mpi::size()));
  int mine = difference.empty() ? 0 : 1;
  mpi::check(MPI_Allgather(&mine, 1, MPI_INT, differs.data(), 1, MPI_INT, comm), "MPI_Allgather of the model checks");
  std::string ranks;
  for (std::size_t r = 0; r < differs.size(); ++r)
    if (differs[r]) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  if (ranks.empty()) return;
  throw ReplicaError(fmt::format(
      "rank {}: rank(s) {} built a different model or optimizer than the chief (rank 0){}. Every rank must build the "
      "same model and compile it with the same optimizer settings: make them independent of the rank (use "
      "strategy.is_chief() only for printing and saving)",
      rank, ranks, difference.empty() ? "" : "; " + difference));
}

void broadcast_weights(MPI_Comm comm, const std::vector<std::shared_ptr<Variable>>& weights) {
  const bool chief = mpi::rank() == 0;
  for (const auto& w : weights) {
    // Received into a new tensor and assigned, so that whatever caches a variable's value sees the change.
    Tensor value = chief ? w->value() : Tensor::empty(w->shape(), w->value().dtype());
    if (value.nbytes() == 0) continue;
    mpi::check(MPI_Bcast(value.raw_data(), static_cast<int>(value.nbytes()), MPI_BYTE, 0, comm),
               "MPI_Bcast of the chief's weights");
    if (!chief) w->assign(value);
  }
}

}  // namespace keras::distribute
