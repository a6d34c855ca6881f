# ctest measure_torch_cpu: run the harness into the build tree, then validate.
execute_process(COMMAND ${PYTHON} ${HARNESS} --out ${RESULTS} RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "measure_torch.py failed (${status})")
endif()
execute_process(COMMAND ${CLI} validate --published ${PUBLISHED} --measured ${RESULTS} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the engine misses the targets on the fresh measurements")
endif()
