# Writes a man page from an executable's own --help text, so the two cannot disagree.
#
# cmake -DEXE=path -DNAME=name -DSUMMARY="one line" -DVERSION=x.y.z -DOUT=file.1
#       [-DSUBCOMMANDS=ON] -P help_to_man.cmake
#
# The page is NAME, SYNOPSIS (the usage line), DESCRIPTION (the whole --help text, preformatted)
# and, with SUBCOMMANDS=ON, one section per subcommand listed in --help (lines "  word ..."),
# each holding `EXE word --help`. A --help that fails or prints nothing is a build error.
cmake_minimum_required(VERSION 3.25)

function(help_text out_var)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR text STREQUAL "")
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "help_to_man: `${command}` failed (${rc}): ${error}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# roff: a backslash is \e; a line starting with . or ' would be a request, \& defuses it.
function(roff_escape out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

function(preformatted out_var text)
  roff_escape(text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  set(${out_var} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

foreach(required EXE NAME SUMMARY VERSION OUT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "help_to_man: -D${required}= is required")
  endif()
endforeach()

help_text(main_help "${EXE}" --help)
string(REGEX MATCH "^[^\n]*" usage_line "${main_help}")
string(REGEX REPLACE "^[Uu]sage: *" "" usage_line "${usage_line}")
string(TOUPPER "${NAME}" upper_name)
roff_escape(summary "${SUMMARY}")
roff_escape(usage_line "${usage_line}")
preformatted(description "${main_help}")

# The coding line lets man(1) and preconv read the UTF-8 of help texts (…, ·, →).
set(page ".\\\" -*- coding: UTF-8 -*-\n")
string(APPEND page ".\\\" Generated from `${NAME} --help` by cmake/help_to_man.cmake; do not edit.\n")
string(APPEND page ".TH ${upper_name} 1 \"\" \"claude-harness ${VERSION}\" \"claude-harness manual\"\n")
string(APPEND page ".SH NAME\n${NAME} \\- ${summary}\n")
string(APPEND page ".SH SYNOPSIS\n.B ${usage_line}\n")
string(APPEND page ".SH DESCRIPTION\n${description}")

if(SUBCOMMANDS)
  string(REGEX MATCHALL "\n  [a-z][a-z-]* " listed "${main_help}")
  set(seen)
  foreach(entry ${listed})
    string(STRIP "${entry}" subcommand)
    if(subcommand IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${subcommand}")
    help_text(sub_help "${EXE}" "${subcommand}" --help)
    preformatted(sub_text "${sub_help}")
    string(APPEND page ".SH \"${upper_name} ${subcommand}\"\n${sub_text}")
  endforeach()
endif()

string(APPEND page ".SH \"SEE ALSO\"\nThe guides in /usr/share/doc/claude-harness or docs/ of the source tree.\n")
file(WRITE "${OUT}" "${page}")
