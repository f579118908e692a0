# The versions of the libraries Cleave is built against, read from each library's own version
# macros in its headers at configure time (the plugins' libraries where their headers are found),
# written to generated/cleave/library_versions.hpp for Help > About and `cleave version --json`.

# cleave_header_version(VAR HEADER MACRO...): the values of MACRO... in HEADER joined by dots
# (string macros lose their quotes); empty when the header or a macro is missing.
function(cleave_header_version var header)
    set(parts)
    if(EXISTS "${header}")
        file(STRINGS "${header}" lines REGEX "^[ \t]*#[ \t]*define[ \t]+[A-Z0-9_]+[ \t]")
        foreach(macro IN LISTS ARGN)
            set(value "")
            foreach(line IN LISTS lines)
                if(line MATCHES "^[ \t]*#[ \t]*define[ \t]+${macro}[ \t]+\"?([^\" \t/]+)")
                    set(value "${CMAKE_MATCH_1}")
                    break()
                endif()
            endforeach()
            if(value STREQUAL "")
                set(parts)
                break()
            endif()
            list(APPEND parts "${value}")
        endforeach()
    endif()
    list(JOIN parts "." joined)
    set(${var} "${joined}" PARENT_SCOPE)
endfunction()

find_path(CLEAVE_EIGEN_HEADER_DIR Eigen/Core PATH_SUFFIXES eigen3 HINTS ${EIGEN3_INCLUDE_DIR})
find_path(CLEAVE_NLOHMANN_HEADER_DIR nlohmann/json.hpp)
find_path(CLEAVE_PAGMO_HEADER_DIR pagmo/config.hpp)
find_path(CLEAVE_GRAPHVIZ_HEADER_DIR graphviz_version.h PATH_SUFFIXES graphviz
          HINTS ${GRAPHVIZ_INCLUDE_DIRS})
find_path(CLEAVE_CLI11_HEADER_DIR CLI/Version.hpp)
# The same searches as the plugins' (plugins/*/CMakeLists.txt), so the same headers are read.
find_path(OPENCV_DNN_INCLUDE_DIR opencv2/dnn.hpp PATH_SUFFIXES opencv4)
find_path(XGBOOST_INCLUDE_DIR xgboost/c_api.h)
find_path(CLEAVE_OPENMPI_HEADER_DIR mpi.h PATH_SUFFIXES openmpi/include
          PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openmpi/include)

cleave_header_version(CLEAVE_EIGEN_VERSION "${CLEAVE_EIGEN_HEADER_DIR}/Eigen/src/Core/util/Macros.h"
                      EIGEN_WORLD_VERSION EIGEN_MAJOR_VERSION EIGEN_MINOR_VERSION)
# nlohmann_json 3.11 keeps its version macros in detail/abi_macros.hpp, older ones in json.hpp.
cleave_header_version(CLEAVE_NLOHMANN_VERSION "${CLEAVE_NLOHMANN_HEADER_DIR}/nlohmann/detail/abi_macros.hpp"
                      NLOHMANN_JSON_VERSION_MAJOR NLOHMANN_JSON_VERSION_MINOR NLOHMANN_JSON_VERSION_PATCH)
if(CLEAVE_NLOHMANN_VERSION STREQUAL "")
    cleave_header_version(CLEAVE_NLOHMANN_VERSION "${CLEAVE_NLOHMANN_HEADER_DIR}/nlohmann/json.hpp"
                          NLOHMANN_JSON_VERSION_MAJOR NLOHMANN_JSON_VERSION_MINOR NLOHMANN_JSON_VERSION_PATCH)
endif()
cleave_header_version(CLEAVE_PAGMO_VERSION "${CLEAVE_PAGMO_HEADER_DIR}/pagmo/config.hpp" PAGMO_VERSION)
cleave_header_version(CLEAVE_GRAPHVIZ_VERSION "${CLEAVE_GRAPHVIZ_HEADER_DIR}/graphviz_version.h" PACKAGE_VERSION)
cleave_header_version(CLEAVE_CLI11_VERSION "${CLEAVE_CLI11_HEADER_DIR}/CLI/Version.hpp" CLI11_VERSION)
cleave_header_version(CLEAVE_OPENCV_VERSION "${OPENCV_DNN_INCLUDE_DIR}/opencv2/core/version.hpp"
                      CV_VERSION_MAJOR CV_VERSION_MINOR CV_VERSION_REVISION)
cleave_header_version(CLEAVE_XGBOOST_VERSION "${XGBOOST_INCLUDE_DIR}/xgboost/version_config.h"
                      XGBOOST_VER_MAJOR XGBOOST_VER_MINOR XGBOOST_VER_PATCH)
cleave_header_version(CLEAVE_OPENMPI_VERSION "${CLEAVE_OPENMPI_HEADER_DIR}/mpi.h"
                      OMPI_MAJOR_VERSION OMPI_MINOR_VERSION OMPI_RELEASE_VERSION)
# Qt's from its package (QT_VERSION_STR is the same number); empty in a build without Qt.
set(CLEAVE_QT_VERSION "${Qt6Core_VERSION}")
if(CLEAVE_QT_VERSION STREQUAL "")
    set(CLEAVE_QT_VERSION "${Qt6_VERSION}")
endif()

set(CLEAVE_LIBRARY_VERSION_ROWS "")
foreach(row
        "Qt|${CLEAVE_QT_VERSION}|the studio and cleave-render"
        "libonnx|${ONNX_VERSION}|ONNX import and shape inference"
        "protobuf|${Protobuf_VERSION}|ONNX files"
        "Eigen|${CLEAVE_EIGEN_VERSION}|predictors"
        "nlohmann_json|${CLEAVE_NLOHMANN_VERSION}|JSON files"
        "pagmo2|${CLEAVE_PAGMO_VERSION}|NSGA-II search"
        "Graphviz|${CLEAVE_GRAPHVIZ_VERSION}|graph layout"
        "CLI11|${CLEAVE_CLI11_VERSION}|command line"
        "OpenCV|${CLEAVE_OPENCV_VERSION}|opencv profiler and mpi runner plugins"
        "XGBoost|${CLEAVE_XGBOOST_VERSION}|gbdt regressor plugin"
        "Open MPI|${CLEAVE_OPENMPI_VERSION}|mpi runner plugin")
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 name)
    list(GET fields 1 version)
    list(GET fields 2 use)
    string(APPEND CLEAVE_LIBRARY_VERSION_ROWS "    {\"${name}\", \"${version}\", \"${use}\"},\n")
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/library_versions.hpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/cleave/library_versions.hpp @ONLY)
