# Checks that engine/'s folders include one another only downward, as engine/CMakeLists.txt
# declares them (NPU_ENGINE_LAYERS: "folder:dep dep ..."; a folder may include its DEPS
# and, through them, theirs). An include that would close a cycle names a folder outside
# the includer's reach and fails here, at configure time, at every build (the
# npu_engine_layers step) and in the engine_layers test. Run as
#   cmake -DENGINE_DIR=<src>/engine -DLAYERS="ir:|cost:ir|..." [-DEXTRA=<file>=<folder>]
#         -P check_engine_layers.cmake
# EXTRA checks one more file as if it sat in <folder> (the refusal test's fixture).
# docs/architecture.md draws the libraries this declaration makes (scripts/update-architecture.sh).

if(NOT ENGINE_DIR OR NOT LAYERS)
  message(FATAL_ERROR "check_engine_layers: ENGINE_DIR and LAYERS are required")
endif()

get_filename_component(ENGINE_DIR "${ENGINE_DIR}" ABSOLUTE)
string(REPLACE "|" ";" LAYERS "${LAYERS}")  # "|": a command line would split a ";" list
set(folders "")
foreach(entry IN LISTS LAYERS)
  string(FIND "${entry}" ":" colon)
  if(colon LESS 1)
    message(FATAL_ERROR "check_engine_layers: \"${entry}\" is not folder:deps")
  endif()
  string(SUBSTRING "${entry}" 0 ${colon} folder)
  math(EXPR rest "${colon} + 1")
  string(SUBSTRING "${entry}" ${rest} -1 deps)
  separate_arguments(deps)
  list(APPEND folders ${folder})
  set(deps_${folder} ${deps})
endforeach()

# Each folder must be declared after its DEPS: the declaration order is a topological
# order, so the declared graph itself has no cycle.
set(declared "")
foreach(folder IN LISTS folders)
  foreach(dep IN LISTS deps_${folder})
    list(FIND declared ${dep} at)
    if(at EQUAL -1)
      message(FATAL_ERROR "engine/CMakeLists.txt: layer \"${folder}\" depends on \"${dep}\", which is not declared before it "
                          "(declare the layers bottom up; a dependency on a later layer would make a cycle)")
    endif()
  endforeach()
  list(APPEND declared ${folder})
endforeach()

# What each folder may include: itself and the closure of its DEPS.
foreach(folder IN LISTS folders)
  set(reach_${folder} ${folder})
  foreach(dep IN LISTS deps_${folder})
    list(APPEND reach_${folder} ${reach_${dep}})
  endforeach()
  list(REMOVE_DUPLICATES reach_${folder})
endforeach()

# Every folder on disk is a declared layer.
file(GLOB children LIST_DIRECTORIES true RELATIVE "${ENGINE_DIR}" "${ENGINE_DIR}/*")
foreach(child IN LISTS children)
  if(IS_DIRECTORY "${ENGINE_DIR}/${child}")
    list(FIND folders ${child} at)
    if(at EQUAL -1)
      message(FATAL_ERROR "engine/${child}/ is not a declared layer: add it to NPU_ENGINE_LAYERS in engine/CMakeLists.txt with its DEPS")
    endif()
  endif()
endforeach()

set(problems "")
macro(check_file path folder shown)
  file(STRINGS "${path}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
    if(header MATCHES "^(profiler|views|app|runner|regression)/")
      string(APPEND problems "  ${shown}: includes \"${header}\": engine/ is below the profiler, runner and GUI\n")
    elseif(header MATCHES "^engine/([^/]+)/")
      set(target "${CMAKE_MATCH_1}")
      list(FIND reach_${folder} ${target} ok)
      if(ok EQUAL -1)
        string(REPLACE ";" ", " allowed "${reach_${folder}}")
        string(APPEND problems "  ${shown}: includes \"${header}\", but engine/${folder} may include only engine/{${allowed}} "
                               "(and base/): engine/${target} is not below it, so this include would close a cycle or "
                               "go against the declared direction\n")
      endif()
    endif()
  endforeach()
endmacro()

set(count 0)
foreach(folder IN LISTS folders)
  file(GLOB_RECURSE sources "${ENGINE_DIR}/${folder}/*.h" "${ENGINE_DIR}/${folder}/*.cpp")
  foreach(path IN LISTS sources)
    file(RELATIVE_PATH shown "${ENGINE_DIR}/.." "${path}")
    check_file("${path}" ${folder} "${shown}")
    math(EXPR count "${count} + 1")
  endforeach()
endforeach()
if(EXTRA)
  string(REGEX REPLACE "=([^=]+)$" "" extra_file "${EXTRA}")
  string(REGEX REPLACE "^.*=" "" extra_folder "${EXTRA}")
  check_file("${extra_file}" ${extra_folder} "${extra_file} (as engine/${extra_folder})")
endif()

if(problems)
  message(FATAL_ERROR "engine/ layer check failed: includes against the direction declared in engine/CMakeLists.txt:\n${problems}")
endif()

list(LENGTH folders nfolders)
message(STATUS "engine/: ${nfolders} layers, ${count} files: every include follows the declared direction")
