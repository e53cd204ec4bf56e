# SPDX-License-Identifier: GPL-3.0-or-later
# The manual of pith.sty (latex/pith-doc.tex) built as pith.pdf with pdfLaTeX
# and installed where texdoc looks: <texmf>/doc/latex/pith/pith.pdf beside
# <texmf>/tex/latex/pith/pith.sty (`texdoc pith`). Reproducible: the dates
# from SOURCE_DATE_EPOCH (the commit's time when unset is not known here, so
# a fixed epoch), FORCE_SOURCE_DATE for pdfTeX's own dates.
find_program(PITH_PDFLATEX pdflatex)
option(PITH_LATEX_DOC "Build pith.sty's manual (texdoc pith) with pdflatex" ON)

function(pith_latex_doc texmf_dir)
  if(NOT PITH_LATEX_DOC)
    return()
  endif()
  if(NOT PITH_PDFLATEX)
    message(FATAL_ERROR "pdflatex not found (apt-get install texlive-latex-base lmodern), or configure with -DPITH_LATEX_DOC=OFF")
  endif()
  set(out_dir ${PROJECT_BINARY_DIR}/share/texmf/doc/latex/pith)
  set(source ${PROJECT_SOURCE_DIR}/latex/pith-doc.tex)
  set(epoch $ENV{SOURCE_DATE_EPOCH})
  if(NOT epoch)
    set(epoch 1767225600)  # 2026-01-01: the same bytes from every build
  endif()
  set(run ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${epoch} FORCE_SOURCE_DATE=1
          ${PITH_PDFLATEX} -interaction=batchmode -halt-on-error -jobname=pith -output-directory=${out_dir} ${source})
  add_custom_command(
    OUTPUT ${out_dir}/pith.pdf
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    # Twice: the PDF outline (hyperref's bookmarks) is read back on the second run.
    COMMAND ${run} > ${out_dir}/pith-doc.stdout
    COMMAND ${run} > ${out_dir}/pith-doc.stdout
    DEPENDS ${source}
    COMMENT "Building pith.sty's manual (texdoc pith)")
  add_custom_target(pith-latex-doc ALL DEPENDS ${out_dir}/pith.pdf)
  install(FILES ${out_dir}/pith.pdf DESTINATION ${texmf_dir}/doc/latex/pith)
  # make ctan: <build>/pith.zip, the package as CTAN takes an upload (pith/:
  # pith.sty, the manual's source and PDF, README.md, LICENSE), checked by
  # scripts/ctan-zip as it is written.
  add_custom_target(ctan
    COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=${epoch}
            ${PROJECT_SOURCE_DIR}/scripts/ctan-zip build ${PROJECT_BINARY_DIR}/pith.zip
            --sty ${PROJECT_SOURCE_DIR}/latex/pith.sty --doc-source ${source} --manual ${out_dir}/pith.pdf
            --readme ${PROJECT_SOURCE_DIR}/latex/README.md --licence ${PROJECT_SOURCE_DIR}/LICENSES/MIT.txt
    COMMENT "Writing pith.zip for CTAN")
  add_dependencies(ctan pith-latex-doc)
endfunction()
