# SPDX-License-Identifier: GPL-3.0-or-later
# pith_tool_docs(TARGET): the man page TARGET(1) and the bash and zsh
# completions of a built tool, generated at build time from the tool itself
# (help2man reads --help/--version; cmake/gen-completions.sh reads the hidden
# --list-options of lib/pith/base/command_line.hpp) plus man/TARGET.h2m and the sections
# every tool shares (man/exit-status.h2m, man/common.h2m), and installed.
# A new tool needs only man/<tool>.h2m and one call.
find_program(HELP2MAN help2man)
option(PITH_MAN_PAGES "Generate the man pages with help2man" ON)
set(PITH_DOCS_OUT ${PROJECT_BINARY_DIR}/share)
# man/*.h2m name installed files (the latexmk rc, the documentation) by
# @PITH_MAN_DATADIR@ and @PITH_MAN_DOCDIR@: the install prefix's paths,
# filled in here, so a page never names /usr/share for a /usr/local install.
set(PITH_MAN_DATADIR ${CMAKE_INSTALL_FULL_DATADIR}/pith)
set(PITH_MAN_DOCDIR ${CMAKE_INSTALL_FULL_DOCDIR})
set(PITH_MAN_DIR ${PROJECT_BINARY_DIR}/man)
file(GLOB pith_man_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.h2m)
foreach(source IN LISTS pith_man_sources)
  get_filename_component(name ${source} NAME)
  configure_file(${source} ${PITH_MAN_DIR}/${name} @ONLY)
endforeach()

function(pith_tool_docs target)
  set(completion_out ${PITH_DOCS_OUT}/completions)
  add_custom_command(
    OUTPUT ${completion_out}/bash/${target} ${completion_out}/zsh/_${target}
    COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/gen-completions.sh $<TARGET_FILE:${target}> ${target} ${completion_out}
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/gen-completions.sh
    COMMENT "Generating the shell completions of ${target}")
  set(outputs ${completion_out}/bash/${target} ${completion_out}/zsh/_${target})
  install(FILES ${completion_out}/bash/${target} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
  install(FILES ${completion_out}/zsh/_${target} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  if(PITH_MAN_PAGES)
    if(NOT HELP2MAN)
      message(FATAL_ERROR "help2man not found (apt-get install help2man), or configure with -DPITH_MAN_PAGES=OFF")
    endif()
    set(page ${PITH_DOCS_OUT}/man/man1/${target}.1)
    # A tool whose exit codes differ from the checking tools' has its own section.
    set(exit_status ${PITH_MAN_DIR}/exit-status.h2m)
    if(EXISTS ${PITH_MAN_DIR}/${target}.exit-status.h2m)
      set(exit_status ${PITH_MAN_DIR}/${target}.exit-status.h2m)
    endif()
    set(includes ${PITH_MAN_DIR}/${target}.h2m ${exit_status} ${PITH_MAN_DIR}/common.h2m)
    add_custom_command(
      OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PITH_DOCS_OUT}/man/man1
      # The date from SOURCE_DATE_EPOCH (help2man honours it): reproducible pages.
      # --version-string: the version alone (--version also lists the linked
      # libraries, which help2man would put into DESCRIPTION).
      COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 --source=pith
              --version-string=${PROJECT_VERSION}
              --include=${PITH_MAN_DIR}/${target}.h2m --include=${exit_status}
              --include=${PITH_MAN_DIR}/common.h2m --output=${page} $<TARGET_FILE:${target}>
      DEPENDS ${target} ${includes}
      COMMENT "Generating the man page ${target}(1)")
    list(APPEND outputs ${page})
    install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
  add_custom_target(${target}-docs ALL DEPENDS ${outputs})
endfunction()

# pith(7): man/pith.7.in with the shared sections (exit status, environment,
# files, see also) from the same .h2m files the tool pages include.
function(pith_overview_page)
  if(NOT PITH_MAN_PAGES)
    return()
  endif()
  set(PITH_MAN_COMMON "")
  foreach(part exit-status common)
    file(READ ${PITH_MAN_DIR}/${part}.h2m text)
    string(REGEX REPLACE "\\[([A-Z ]+)\\]" ".SH \"\\1\"" text "${text}")
    string(APPEND PITH_MAN_COMMON "${text}")
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/man/pith.7.in ${PITH_DOCS_OUT}/man/man7/pith.7 @ONLY)
  install(FILES ${PITH_DOCS_OUT}/man/man7/pith.7 DESTINATION ${CMAKE_INSTALL_MANDIR}/man7)
endfunction()
