# SPDX-License-Identifier: GPL-2.0
#
# A configure that names no build type (and a single-configuration
# generator) gets an optimised library: Release for the libraries alone
# (-DBUILD_TESTING=OFF, the install route of docs/install.md),
# RelWithDebInfo with the tests, as the presets have it.  Said in the
# output either way; -DCMAKE_BUILD_TYPE=... overrides it.
get_property(klist_multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
if(NOT klist_multi_config AND NOT CMAKE_BUILD_TYPE)
  if(BUILD_TESTING)
    set(klist_default_type RelWithDebInfo)
  else()
    set(klist_default_type Release)
  endif()
  set(CMAKE_BUILD_TYPE ${klist_default_type} CACHE STRING
      "Build type (klist-port's default: Release for the libraries alone)" FORCE)
  message(STATUS "klist-port: no CMAKE_BUILD_TYPE given: building ${klist_default_type}")
else()
  message(STATUS "klist-port: CMAKE_BUILD_TYPE ${CMAKE_BUILD_TYPE}")
endif()
