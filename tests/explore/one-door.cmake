# SPDX-License-Identifier: GPL-2.0
#
# The one door between the shim and the explorer (#37), checked on the
# objects: cmake -DNM=nm -DAPI=shim-explore-api.h -DOBJS="a.o;b.o;..."
# -P one-door.cmake.  Objects whose path holds /shim/src/ are the shim's,
# /shim/explore/ the explorer's.  Fails (FATAL_ERROR) when a shim object
# refers to a symbol an explorer object defines (a call around the hook
# table), or an explorer object refers to a shim symbol that API does
# not name.
foreach(o ${OBJS})
  if(o MATCHES "/shim/src/")
    list(APPEND src ${o})
  elseif(o MATCHES "/shim/explore/")
    list(APPEND exp ${o})
  endif()
endforeach()
if(NOT src OR NOT exp)
  message(FATAL_ERROR "one-door: no shim/src or shim/explore objects in OBJS")
endif()

function(symbols out mode)
  set(all)
  foreach(o ${ARGN})
    execute_process(COMMAND ${NM} ${mode} ${o} OUTPUT_VARIABLE text
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "one-door: ${NM} ${mode} ${o} failed")
    endif()
    string(REGEX MATCHALL "[A-Za-z] [A-Za-z_][A-Za-z0-9_.]*\n" lines "${text}")
    foreach(l ${lines})
      string(REGEX REPLACE "^[A-Za-z] ([A-Za-z_][A-Za-z0-9_.]*)\n$" "\\1" s "${l}")
      list(APPEND all ${s})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES all)
  set(${out} ${all} PARENT_SCOPE)
endfunction()

symbols(src_def "--defined-only;-g" ${src})
symbols(exp_def "--defined-only;-g" ${exp})
symbols(src_use "-u" ${src})
symbols(exp_use "-u" ${exp})
file(READ ${API} api)

set(bad 0)
foreach(s ${src_use})
  list(FIND exp_def ${s} i)
  if(NOT i EQUAL -1)
    message("one-door: the shim calls the explorer's ${s} by name, not through struct shim_ctl_ops")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
foreach(s ${exp_use})
  list(FIND src_def ${s} i)
  if(NOT i EQUAL -1 AND NOT api MATCHES "[^A-Za-z0-9_]${s}[^A-Za-z0-9_]")
    message("one-door: the explorer calls the shim's ${s}, which shim-explore-api.h does not name")
    math(EXPR bad "${bad} + 1")
  endif()
endforeach()
list(LENGTH src_use nsrc)
list(LENGTH exp_use nexp)
if(bad)
  message(FATAL_ERROR "one-door: ${bad} call(s) around the door")
endif()
message("one-door: ok: ${nsrc} symbols the shim's objects use, ${nexp} the explorer's: none around the door")
