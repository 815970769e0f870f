#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages listed in scripts/debian-packages.txt.
#
# apt-get needs root. As root (a fresh container, CI) the script runs
# apt-get itself; as any other user it re-runs itself through sudo, so
# the same command works in both places. A root shell in a container
# has no sudo, which is why sudo is never required up front.
set -eu

usage()
{
	cat <<'EOF'
usage: scripts/install-deps.sh [--list | --help]

Installs the Debian 12 packages of scripts/debian-packages.txt with
apt-get. apt-get needs root: run as root it installs directly; run as
another user it re-runs itself with sudo (which must then be installed
and allow you to run it).

  --list   print the package names, one a line, and install nothing
  --help   this text
EOF
}

here=$(cd "$(dirname "$0")" && pwd)
packages()
{
	grep -v '^#' "$here/debian-packages.txt" | grep -v '^$'
}

case "${1-}" in
'') ;;
--help|-h)
	usage
	exit 0 ;;
--list)
	packages
	exit 0 ;;
*)
	echo "install-deps.sh: unknown argument '$1'" >&2
	usage >&2
	exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "install-deps.sh: apt-get needs root: run this as root (sudo is not installed)" >&2
		exit 1
	fi
	echo "install-deps.sh: apt-get needs root, re-running with sudo" >&2
	exec sudo -- "$here/install-deps.sh"
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2046
apt-get install -y -q --no-install-recommends $(packages)
