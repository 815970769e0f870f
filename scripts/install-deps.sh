#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Installs the Debian 12 packages listed in scripts/debian-packages.txt.
# Run as root (or with sudo) on a fresh machine.
set -eu
cd "$(dirname "$0")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2046
apt-get install -y -q --no-install-recommends \
	$(grep -v '^#' debian-packages.txt | grep -v '^$')
