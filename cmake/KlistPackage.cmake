# SPDX-License-Identifier: GPL-2.0
#
# klist_package(FLAVOUR): the CMake package klist-port for one flavour
# (klist-port, the checked one, or klist-port-fast), installed with that
# flavour's component into LIBDIR/cmake/FLAVOUR/: its targets file
# (FLAVOUR-targets.cmake, export set FLAVOUR-targets), and a
# klist-portConfig.cmake and version file of its own, which include the
# other flavour's targets too when they lie beside it.  So
# find_package(klist-port CONFIG) (which searches cmake/klist-port*/)
# works with either flavour installed alone, or both.
include(CMakePackageConfigHelpers)

function(klist_package flavour)
  set(dir ${CMAKE_INSTALL_LIBDIR}/cmake/${flavour})
  set(out ${PROJECT_BINARY_DIR}/cmake-package/${flavour})
  set(KLIST_PACKAGE_FLAVOUR ${flavour})
  install(EXPORT ${flavour}-targets NAMESPACE klist-port::
          FILE ${flavour}-targets.cmake DESTINATION ${dir} COMPONENT ${flavour})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/klist-portConfig.cmake.in
      ${out}/klist-portConfig.cmake INSTALL_DESTINATION ${dir})
  # 0.x: no compatibility promise between minor versions.
  write_basic_package_version_file(${out}/klist-portConfigVersion.cmake
      VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${out}/klist-portConfig.cmake ${out}/klist-portConfigVersion.cmake
          DESTINATION ${dir} COMPONENT ${flavour})
endfunction()
