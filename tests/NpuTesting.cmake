# npu_add_test(NAME SOURCES file.cpp... LIBS lib...)
# A Qt Test executable registered with CTest. Tests find fixtures (tests/data, tests/fuzz)
# with QFINDTESTDATA, relative to their own source file, and the shared reference data
# through NPU_SHARED_DATA_DIR; GUI tests run offscreen.
find_package(Qt6 REQUIRED COMPONENTS Core Test)

function(npu_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  # One source file each: a unity build gains nothing and makes GCC treat the test's
  # file-local fixtures as header types (-Wsubobject-linkage).
  set_target_properties(${name} PROPERTIES AUTOMOC ON UNITY_BUILD OFF)
  # QFINDTESTDATA resolves a relative __FILE__ against QT_TESTCASE_BUILDDIR, which Qt
  # means as the compiler's working directory. Ninja compiles from the top build folder,
  # not the target's (Qt's default), and ccache's base_dir (the Makefile sets it) makes
  # __FILE__ relative: without this, fixtures of tests in subfolders are not found.
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set_target_properties(${name} PROPERTIES QT_TESTCASE_BUILDDIR "${CMAKE_BINARY_DIR}")
  endif()
  target_link_libraries(${name} PRIVATE ${T_LIBS} Qt6::Test Qt6::Core)
  target_compile_definitions(${name} PRIVATE
    QT_NO_CAST_FROM_ASCII QT_NO_FOREACH
    NPU_SHARED_DATA_DIR="${NPU_SHARED_DATA_DIR}"
    NPU_SOURCE_DIR="${NPU_SOURCE_DIR}")
  add_test(NAME ${name} COMMAND ${name})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT}
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
endfunction()

# A benchmark executable: prints figures, never registered as a test.
function(npu_add_benchmark name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  set_target_properties(${name} PROPERTIES UNITY_BUILD OFF)
  target_link_libraries(${name} PRIVATE ${T_LIBS})
  target_compile_definitions(${name} PRIVATE
    NPU_SHARED_DATA_DIR="${NPU_SHARED_DATA_DIR}" NPU_SOURCE_DIR="${NPU_SOURCE_DIR}")
endfunction()
