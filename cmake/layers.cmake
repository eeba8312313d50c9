# The core's layers, one static library each, lowest first. A layer may
# include and link only the layers below it that it depends on, directly or
# through another; an include of any other layer fails the build
# (check_layer.cmake, run before the layer compiles).
# Every folder of cpp/ a layer may not include unless it depends on it.
set(INSTRUMENTSCOPE_ALL_LAYERS base container model demangle tables speedscope firefox symbolication
    formats report import bindings tools)

# instrumentscope_layer(<name> DEPENDS <layers…> SOURCES <files…>)
function(instrumentscope_layer name)
  cmake_parse_arguments(LAYER "" "" "DEPENDS;SOURCES" ${ARGN})
  set(allowed "")
  foreach(dependency IN LISTS LAYER_DEPENDS)
    list(APPEND allowed ${dependency} ${INSTRUMENTSCOPE_LAYER_${dependency}_BELOW})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set(INSTRUMENTSCOPE_LAYER_${name}_BELOW "${allowed}" PARENT_SCOPE)

  set(target instrumentscope_${name})
  add_library(${target} STATIC ${LAYER_SOURCES})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/cpp)
  foreach(dependency IN LISTS LAYER_DEPENDS)
    target_link_libraries(${target} PUBLIC instrumentscope_${dependency})
  endforeach()
  # The core reports errors as Status values and never throws; without
  # exception support the wasm stays small and a stray throw cannot escape.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -fno-exceptions)

  file(GLOB_RECURSE files CONFIGURE_DEPENDS
       ${PROJECT_SOURCE_DIR}/cpp/${name}/*.h ${PROJECT_SOURCE_DIR}/cpp/${name}/*.cc)
  set(stamp ${PROJECT_BINARY_DIR}/layers/${name}.checked)
  # Lists cross the command line joined by commas.
  string(REPLACE ";" "," allowed_arg "${allowed}")
  string(REPLACE ";" "," layers_arg "${INSTRUMENTSCOPE_ALL_LAYERS}")
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DLAYER=${name} -DALLOWED=${allowed_arg} -DLAYERS=${layers_arg}
            -DROOT=${PROJECT_SOURCE_DIR}/cpp
            -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/check_layer.cmake
    COMMENT "Checking that cpp/${name} includes only the layers below it"
    VERBATIM)
  add_custom_target(${target}_includes DEPENDS ${stamp})
  add_dependencies(${target} ${target}_includes)
endfunction()
