# Runs `mpirun -np 2 fault_worker` (rank 1 kills itself with SIGKILL mid-training, while rank 0 waits for
# it in an allreduce) and checks that the job ends by itself within LIMIT seconds, with a non-zero exit
# and a message naming the lost rank.
#   cmake -DMPIEXEC=mpirun -DWORKER=/path/fault_worker -DLIMIT=60 -P fault_test.cmake
cmake_minimum_required(VERSION 3.25)
string(TIMESTAMP began "%s")
execute_process(COMMAND ${MPIEXEC} -np 2 --oversubscribe ${WORKER}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${LIMIT})
string(TIMESTAMP ended "%s")
math(EXPR seconds "${ended} - ${began}")
message(STATUS "mpirun ended after ${seconds} s with '${result}':\n${out}\n${err}")
if(result MATCHES "timeout" OR seconds GREATER_EQUAL ${LIMIT})
  message(FATAL_ERROR "the job hung: still running after ${LIMIT} s with rank 1 dead")
endif()
if(result EQUAL 0)
  message(FATAL_ERROR "the job exited with 0 although rank 1 died")
endif()
if(NOT "${out}${err}" MATCHES "rank 1[^0-9]")
  message(FATAL_ERROR "no message names the lost rank 1")
endif()
if("${out}" MATCHES "training ended without")
  message(FATAL_ERROR "rank 0 finished training without noticing that rank 1 was gone")
endif()
