# Writes the man page (permuzzle.1) and the bash completion (permuzzle.bash) into OUTPUT_DIR by
# running PROGRAM's hidden `manual` command (apps/cli/manual.cpp); run after each link of it.
file(MAKE_DIRECTORY ${OUTPUT_DIR})
foreach(format_file "man;permuzzle.1" "bash-completion;permuzzle.bash")
  list(GET format_file 0 format)
  list(GET format_file 1 name)
  execute_process(COMMAND ${PROGRAM} --tables none manual ${format} OUTPUT_FILE ${OUTPUT_DIR}/${name}
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} manual ${format} failed (${status})")
  endif()
endforeach()
