# SPDX-License-Identifier: GPL-2.0
#
# The installed checked library keeps its names to itself.  The shim
# defines kernel functions out of line (complete(), up(), yield(),
# printk(), ktime_get(), ... : cmake/klist-port-kernel-names.txt) and
# the explorer its internals (ctl_*, dfs_*, dpor_*); a program with a
# function of one of those names would not link against the static
# archive, and the shared library would put them in its namespace.
#
# So the libraries that are installed are made from one relocatable
# object: the shim's and lib/'s objects linked together (ld -r), the
# kernel names renamed klist_port_NAME (objcopy --redefine-syms), and
# every global symbol but the API (klist_*, ddm_*, __ddm_*), the shim's
# test interface (shim_*, __shim_*) and __lockdep_no_validate__ made
# local (objcopy --keep-global-symbol).  The installed compatibility
# headers map each kernel name to its klist_port_ name
# (klist-port-compat-names.h, included first by each of them), so code
# ported from the kernel calls them as before.  The tests in the tree
# link the objects as they are (klist-port-static), with the shim's
# headers as they are.
#
# klist_port_prelink(OUT_VAR): the object's path in OUT_VAR.
set(KLIST_KERNEL_NAMES_FILE ${CMAKE_CURRENT_LIST_DIR}/klist-port-kernel-names.txt)
file(STRINGS ${KLIST_KERNEL_NAMES_FILE} KLIST_KERNEL_NAMES)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${KLIST_KERNEL_NAMES_FILE})

function(klist_port_prelink out_var)
  set(dir ${PROJECT_BINARY_DIR}/prelink)
  set(renames)
  set(defines)
  foreach(n ${KLIST_KERNEL_NAMES})
    string(APPEND renames "${n} klist_port_${n}\n")
    string(APPEND defines "#define ${n} klist_port_${n}\n")
  endforeach()
  file(WRITE ${dir}/renames.txt.new "${renames}")
  file(COPY_FILE ${dir}/renames.txt.new ${dir}/renames.txt ONLY_IF_DIFFERENT)
  # Installed beside the compat headers (CMakeLists.txt includes it
  # from each of them).
  file(WRITE ${dir}/klist-port-compat-names.h.new
       "/* SPDX-License-Identifier: GPL-2.0 */\n"
       "/*\n"
       " * Generated (cmake/KlistNames.cmake): the installed checked library\n"
       " * defines the shim's kernel functions under klist_port_ names, so\n"
       " * that they never collide with a program's own; code ported from the\n"
       " * kernel, which includes the compatibility headers, calls them by\n"
       " * their kernel names through these macros.\n"
       " */\n"
       "#ifndef KLIST_PORT_COMPAT_NAMES_H\n#define KLIST_PORT_COMPAT_NAMES_H\n"
       "${defines}#endif\n")
  file(COPY_FILE ${dir}/klist-port-compat-names.h.new ${dir}/klist-port-compat-names.h
       ONLY_IF_DIFFERENT)
  set(obj ${dir}/klist-port-prelinked.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${CMAKE_LINKER} -r -o ${dir}/klist-port-all.o
            $<TARGET_OBJECTS:shim-objs> $<TARGET_OBJECTS:klist-ddm-objs>
    COMMAND ${CMAKE_OBJCOPY} --redefine-syms=${dir}/renames.txt
            ${dir}/klist-port-all.o ${dir}/klist-port-renamed.o
    COMMAND ${CMAKE_OBJCOPY} --wildcard
            --keep-global-symbol=klist_* --keep-global-symbol=ddm_*
            --keep-global-symbol=__ddm_* --keep-global-symbol=shim_*
            --keep-global-symbol=__shim_* --keep-global-symbol=__lockdep_no_validate__
            ${dir}/klist-port-renamed.o ${obj}
    DEPENDS shim-objs klist-ddm-objs $<TARGET_OBJECTS:shim-objs>
            $<TARGET_OBJECTS:klist-ddm-objs> ${dir}/renames.txt
    COMMAND_EXPAND_LISTS VERBATIM
    COMMENT "Linking the checked library's objects into one, its kernel names prefixed")
  set_source_files_properties(${obj} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set(${out_var} ${obj} PARENT_SCOPE)
endfunction()
