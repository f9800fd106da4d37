# Makes a man page from what a built program's --help prints: cmake -P man_page.cmake with
#   PROGRAM  the built executable          NAME     its installed name (trainbench-cli)
#   TEMPLATE the page's roff, with @HELP@ where the help text goes and @VERSION@
#   VERSION  the project's version         OUTPUT   the page to write (NAME.1); OUTPUT.gz is written too
#   WORK     a scratch folder (the window writes its settings there, not into the builder's)
# The help is the same text `NAME --help` prints (and, at @COMMANDS@, each command's `NAME CMD --help`); a
# program that fails or prints nothing stops the build.
cmake_minimum_required(VERSION 3.21)  # @VAR@ in quoted strings stays literal (CMP0053)
foreach(var PROGRAM NAME TEMPLATE VERSION OUTPUT WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: -D${var}=... is missing")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK})
# `${PROGRAM} ARGS... --help`, in English (the C locale), offscreen for the window, with a throwaway
# settings folder, made into roff lines (into `out`).
function(help_text out)
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C LANG=C LANGUAGE= QT_QPA_PLATFORM=offscreen
            XDG_CONFIG_HOME=${WORK} XDG_DATA_HOME=${WORK} XDG_RUNTIME_DIR=${WORK} HOME=${WORK} ${PROGRAM} ${ARGN} --help
    OUTPUT_VARIABLE help ERROR_VARIABLE errors RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR help STREQUAL "")
    message(FATAL_ERROR "man_page.cmake: `${PROGRAM} ${ARGN} --help` exited with ${rc} and printed no help: ${errors}")
  endif()
  # Qt's usage line names the program as it was started (the build folder's path): use its name.
  string(REPLACE "${PROGRAM}" "${NAME}" help "${help}")
  string(REGEX REPLACE "\n+$" "" help "${help}")
  # roff: a backslash is \e, a hyphen \- (so options can be searched for and pasted), and a line must
  # not start with a control character (. or ').
  string(REPLACE "\\" "\\e" help "${help}")
  string(REPLACE "-" "\\-" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  set(${out} "${help}" PARENT_SCOPE)
endfunction()
help_text(help)
# Where the template asks for them (@COMMANDS@), each command's own help: the commands are the lines
# of the general help indented by two spaces under "commands:".
file(READ ${TEMPLATE} page)
set(commands "")
if(page MATCHES "@COMMANDS@")
  string(REGEX MATCHALL "\n  [a-z]+ " names "${help}")
  foreach(name IN LISTS names)
    string(STRIP "${name}" name)
    help_text(command_help ${name})
    string(APPEND commands ".SS ${name}\n.nf\n${command_help}\n.fi\n")
  endforeach()
endif()
string(REPLACE "@HELP@" "${help}" page "${page}")
string(REPLACE "@COMMANDS@" "${commands}" page "${page}")
string(REPLACE "@VERSION@" "${VERSION}" page "${page}")
file(WRITE ${OUTPUT}.tmp "${page}")
file(RENAME ${OUTPUT}.tmp ${OUTPUT})
# Debian installs man pages gzip-compressed; -n leaves the name and time out, so builds are identical.
execute_process(COMMAND gzip -9 -n -c ${OUTPUT} OUTPUT_FILE ${OUTPUT}.gz RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "man_page.cmake: gzip ${OUTPUT} failed (${rc})")
endif()
