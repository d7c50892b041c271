# A rank lost mid-training, then the job relaunched (fault_worker.cpp):
#   1. an uninterrupted run saves its final weights (the reference);
#   2. the same run in which rank 1 kills itself with SIGKILL after 10 batches (rank 0 then waits for it in
#      an allreduce) must end by itself within LIMIT seconds, with a non-zero exit and a message naming
#      the lost rank;
#   3. the same mpirun command again resumes on both ranks from the chief's backup and must end with the
#      reference's weights.
#   cmake -DMPIEXEC=mpirun -DWORKER=/path/fault_worker -DLIMIT=60 -DWORK_DIR=/scratch/folder -P fault_test.cmake
# WORK_DIR (emptied first, removed at the end) holds the backups and the weights.
cmake_minimum_required(VERSION 3.25)
set(dir "${WORK_DIR}")
file(REMOVE_RECURSE "${dir}")
file(MAKE_DIRECTORY "${dir}")
set(mpirun ${MPIEXEC} -np 2 --oversubscribe ${WORKER})

function(run_job name)
  execute_process(COMMAND ${mpirun} ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT ${LIMIT})
  message(STATUS "${name}: exit '${result}'\n${out}${err}")
  set(result "${result}" PARENT_SCOPE)
  set(output "${out}${err}" PARENT_SCOPE)
endfunction()

run_job("uninterrupted" "${dir}/reference_backup" 0 "${dir}/reference.npy")
if(NOT result EQUAL 0)
  file(REMOVE_RECURSE "${dir}")
  message(FATAL_ERROR "the uninterrupted run failed")
endif()

string(TIMESTAMP began "%s")
run_job("rank 1 killed" "${dir}/backup" 10 "${dir}/resumed.npy")
string(TIMESTAMP ended "%s")
math(EXPR seconds "${ended} - ${began}")
set(problem "")
if(result MATCHES "timeout" OR seconds GREATER_EQUAL ${LIMIT})
  set(problem "the job hung: still running after ${LIMIT} s with rank 1 dead")
elseif(result EQUAL 0)
  set(problem "the job exited with 0 although rank 1 died")
elseif(NOT output MATCHES "rank 1[^0-9]")
  set(problem "no message names the lost rank 1")
elseif(output MATCHES "training ended without")
  set(problem "rank 0 finished training without noticing that rank 1 was gone")
elseif(NOT EXISTS "${dir}/backup/backup.h5")
  set(problem "the chief left no backup before rank 1 died")
endif()
if(problem)
  file(REMOVE_RECURSE "${dir}")
  message(FATAL_ERROR "${problem}")
endif()
message(STATUS "the job ended ${seconds} s after rank 1 was killed")

run_job("relaunched" "${dir}/backup" 0 "${dir}/resumed.npy" "${dir}/reference.npy")
file(REMOVE_RECURSE "${dir}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the relaunched job did not resume to the uninterrupted run's weights")
endif()
