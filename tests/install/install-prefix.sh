# SPDX-License-Identifier: GPL-2.0
# Sourced by the install tests: install_into BUILD NAME installs BUILD
# into the fresh prefix BUILD/NAME (its path in $prefix) and points
# pkg-config there, wherever the platform put the .pc files.
install_into() {
	prefix=$1/$2
	rm -rf "$prefix"
	mkdir -p "$prefix"
	cmake --install "$1" --prefix "$prefix" >/dev/null
	PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
	export PKG_CONFIG_PATH
}
