#include "keras/distribute/mpi_runtime.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace keras::distribute::mpi {
namespace {

struct Runtime {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, size = 1, local_size = 1, thread_level = MPI_THREAD_SINGLE;
  bool owns_init = false, failed = false;

  Runtime() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      // Serialized: the gradient buckets' communication thread calls MPI while the main thread does not.
      if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &thread_level) != MPI_SUCCESS)
        throw ReplicaError("MPI_Init_thread failed: launch the program with mpirun (Open MPI), e.g. "
                           "`mpirun -np 2 ./program`");
      owns_init = true;
    } else {
      MPI_Query_thread(&thread_level);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm local;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &local_size);
    MPI_Comm_free(&local);
  }
  ~Runtime() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized || !owns_init) return;
    if (failed) {
      std::fflush(stdout);
      std::fprintf(stderr, "kerascpp: rank %d failed; aborting the MPI job\n", rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
  }
};

Runtime& runtime() {
  static Runtime r;
  return r;
}

}  // namespace

MPI_Comm world() { return runtime().comm; }
int rank() { return runtime().rank; }
int size() { return runtime().size; }
int local_size() { return runtime().local_size; }
int thread_level() { return runtime().thread_level; }
void mark_failed() { runtime().failed = true; }

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, message, &length);
  throw ReplicaError(fmt::format("rank {}: {} failed: {} (another rank may have died; the job cannot go on)", rank(),
                                 what, std::string(message, static_cast<std::size_t>(length))));
}

}  // namespace keras::distribute::mpi
