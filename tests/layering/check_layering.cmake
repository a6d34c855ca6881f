# The layering test: every #include in core/ points to its own folder or a
# folder below it, core/ includes nothing of Qt, ui/ or app/, only core/io
# sees nlohmann/json, and ui/ includes nothing of app/.
#   cmake -DSOURCE_DIR=<checkout> -P tests/layering/check_layering.cmake
# The order is the one core/CMakeLists.txt links in; tablegen is the
# build-time tool above them all.
set(_layers base model scenario memory engine analysis explain runs io tablegen)

if(NOT SOURCE_DIR)
  message(FATAL_ERROR "layering: pass -DSOURCE_DIR=<checkout>")
endif()

set(_violations "")
macro(_violation file line what)
  string(APPEND _violations "  ${file}: ${line}\n    ${what}\n")
endmacro()

file(GLOB _loose RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/core/*.cpp)
foreach(_file IN LISTS _loose)
  _violation(${_file} "(file)" "core/ holds only folders: put it in the layer it belongs to")
endforeach()

file(GLOB_RECURSE _core RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/core/*.h ${SOURCE_DIR}/core/*.cpp)
foreach(_file IN LISTS _core)
  string(REGEX MATCH "^core/([a-z]+)/" _ ${_file})
  set(_own ${CMAKE_MATCH_1})
  list(FIND _layers "${_own}" _own_rank)
  if(_own_rank EQUAL -1)
    continue()
  endif()
  file(STRINGS ${SOURCE_DIR}/${_file} _includes REGEX "^#include ")
  foreach(_line IN LISTS _includes)
    if(_line MATCHES "^#include \"core/([a-z]+)/")
      list(FIND _layers "${CMAKE_MATCH_1}" _rank)
      if(_rank EQUAL -1 OR _rank GREATER _own_rank)
        _violation(${_file} "${_line}" "points up: ${_own} may include only ${_own} and the folders below it")
      endif()
    elseif(_line MATCHES "^#include \"core/[a-z]+\\.h\"")
      _violation(${_file} "${_line}" "names a header outside the layer folders")
    elseif(_line MATCHES "^#include [<\"](ui|app)/" OR _line MATCHES "^#include <Q")
      _violation(${_file} "${_line}" "core has no Qt and knows nothing of the front ends")
    elseif(_line MATCHES "^#include <nlohmann/" AND NOT _own STREQUAL "io")
      _violation(${_file} "${_line}" "only core/io sees nlohmann/json")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE _ui RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/ui/*.h ${SOURCE_DIR}/ui/*.cpp)
foreach(_file IN LISTS _ui)
  file(STRINGS ${SOURCE_DIR}/${_file} _includes REGEX "^#include \"app/")
  foreach(_line IN LISTS _includes)
    _violation(${_file} "${_line}" "the GUI is below the programs: ui includes nothing of app")
  endforeach()
endforeach()

list(LENGTH _core _count)
if(_violations)
  message(FATAL_ERROR "layering: includes that break the layers:\n${_violations}")
endif()
message(STATUS "layering: ${_count} core files, every include points down")
