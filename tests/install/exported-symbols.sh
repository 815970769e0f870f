#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# nm -D of each shared library: the fast one exports only klist_*,
# klist_port_* and its kfast_* runtime interface; the checked one only
# what cmake/klist-port.map lists (the API, the shim's test interface,
# the compatibility headers' kernel functions under klist_port_ names),
# never the explorer's.
set -eu
checked=$1
fast=$2
exports() {
	nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVWiu]$/ { sub(/@.*/, "", $3); print $3 }' |
		grep -v '^KLIST_PORT_0$' | sort -u
}
bad=$(exports "$fast" | grep -Ev '^(klist_|klist_port_|kfast_)' || true)
[ -z "$bad" ] || { echo "$fast exports: $bad"; exit 1; }
# The shim's kernel functions are klist_port_complete, ... (install.names).
allowed='^(klist_|ddm_|__ddm_|shim_|__shim_|__lockdep_no_validate__$)'
bad=$(exports "$checked" | grep -Ev "$allowed" || true)
[ -z "$bad" ] || { echo "$checked exports: $bad"; exit 1; }
for s in ctl_hash dfs_next; do
	! exports "$checked" | grep -qx "$s" || { echo "$checked exports $s"; exit 1; }
done
echo "exported: fast $(exports "$fast" | wc -l), checked $(exports "$checked" | wc -l) symbols, all API: ok"
