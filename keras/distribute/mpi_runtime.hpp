#pragma once
// The process's link to Open MPI: initialized by the first strategy, finalized when the program ends.
// Errors come back as return codes (MPI_ERRORS_RETURN) and become keras::distribute::ReplicaError
// naming the rank. A program that ends while an exception unwinds a strategy aborts the whole job
// (MPI_Abort) instead of finalizing, so peers blocked in a collective never wait for it.
#include <string>

#include <mpi.h>

#include "keras/errors.hpp"

namespace keras::distribute {

/// A failure of the distributed job: it names the rank and, when known, how to fix it.
class ReplicaError : public Error {
 public:
  using Error::Error;
};

namespace mpi {

/// Initializes MPI (once; serialized: one thread at a time calls it) and returns the job's communicator,
/// a duplicate of MPI_COMM_WORLD that returns errors.
MPI_Comm world();
int rank();
int size();
/// Ranks on this host (from a shared-memory split of the world).
int local_size();
/// The thread support MPI provides (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE).
int thread_level();
/// Throws ReplicaError "rank R: <what> failed: <MPI's message>" unless rc is MPI_SUCCESS.
void check(int rc, const char* what);
/// Called when a strategy is destroyed by an exception: the program will abort the job at exit.
void mark_failed();

}  // namespace mpi
}  // namespace keras::distribute
