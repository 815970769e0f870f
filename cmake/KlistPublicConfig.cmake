# SPDX-License-Identifier: GPL-2.0
#
# klist_public_config(SIZE_VAR OUT_DIR FLAVOUR_DEFINE INCLUDES...)
#   The public header's flavour: sizes the runtime's spinlock_t (its
#   <linux/spinlock.h> found in INCLUDES, the result cached as SIZE_VAR)
#   and writes OUT_DIR/klist-port/klist-config.h with that size and
#   FLAVOUR_DEFINE, for <klist-port/klist.h> and the build check that its
#   structs have the library's layout (fast/src/public-layout-check.c).
include(CheckTypeSize)

function(klist_public_config size_var out_dir flavour_define)
  set(CMAKE_REQUIRED_INCLUDES ${ARGN})
  set(CMAKE_EXTRA_INCLUDE_FILES linux/spinlock.h)
  check_type_size(spinlock_t ${size_var} LANGUAGE C)
  if(NOT ${size_var})
    message(FATAL_ERROR "cannot size spinlock_t with the headers in ${ARGN}")
  endif()
  set(KLIST_PORT_LOCK_SIZE ${${size_var}})
  set(KLIST_PORT_FLAVOUR_DEFINE "${flavour_define}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/klist-config.h.in
                 ${out_dir}/klist-port/klist-config.h @ONLY)
endfunction()
