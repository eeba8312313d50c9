cmake_minimum_required(VERSION 3.20)
# Fails when a source of one layer of the core includes a header of a layer it
# does not depend on (cmake/layers.cmake declares the layers). Run by the
# build, once per layer, whenever one of its files changes:
#   cmake -DLAYER=formats -DALLOWED=base,container,… -DLAYERS=base,container,…
#         -DROOT=<source dir>/cpp -DSTAMP=<file> -P check_layer.cmake
string(REPLACE "," ";" ALLOWED "${ALLOWED}")
string(REPLACE "," ";" LAYERS "${LAYERS}")
file(GLOB_RECURSE sources "${ROOT}/${LAYER}/*.h" "${ROOT}/${LAYER}/*.cc")
set(violations "")
foreach(source IN LISTS sources)
  file(STRINGS "${source}" includes REGEX "^#include \"[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([a-z_]+)/.*" "\\1" included "${line}")
    # Only the core's own layers are checked (not llvm/, nlohmann/, catch2/…).
    if(included STREQUAL LAYER OR NOT included IN_LIST LAYERS)
      continue()
    endif()
    if(NOT included IN_LIST ALLOWED)
      file(RELATIVE_PATH where "${ROOT}" "${source}")
      string(APPEND violations "\n  ${where}: ${line} (${LAYER} does not depend on ${included})")
    endif()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "cpp/${LAYER} includes a layer it does not depend on:${violations}")
endif()
file(WRITE "${STAMP}" "")
