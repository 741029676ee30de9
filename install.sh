#!/usr/bin/env bash
# Build fleetcom from this checkout and install it for the current user:
#
#   ./install.sh [--prefix DIR]
#
# It builds a static binary with the local Go toolchain, puts it in
# DIR/bin (default ~/.local/bin), creates the claude, codex and grok shims,
# prints the one line to add to your shell's rc file, and runs
# `fleetcom doctor`. Running it again updates the install in place. No root
# is needed.
#
# The whole script is one function called on the last line, so a partly
# downloaded copy runs nothing.

set -euo pipefail

usage() {
	cat <<'EOF'
Usage: ./install.sh [--prefix DIR]

Build fleetcom from this checkout and install it with its shims.

  --prefix DIR  install the binary as DIR/bin/fleetcom (default: ~/.local)
  -h, --help    show this help

The shims go to $FLEETCOM_SHIM_DIR, else $XDG_DATA_HOME/fleetcom/shims
(~/.local/share/fleetcom/shims). Needs Go (see go.mod for the version).
EOF
}

die() {
	printf 'install.sh: error: %s\n' "$*" >&2
	exit 1
}

main() {
	local prefix="${HOME:?HOME is not set}/.local"
	while [ $# -gt 0 ]; do
		case $1 in
		--prefix)
			[ $# -ge 2 ] && [ -n "$2" ] || die "--prefix needs a directory"
			prefix=$2
			shift 2
			;;
		--prefix=?*)
			prefix=${1#--prefix=}
			shift
			;;
		-h | --help)
			usage
			return 0
			;;
		*)
			usage >&2
			die "unknown argument: $1"
			;;
		esac
	done

	local src
	src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
	[ -f "$src/go.mod" ] && [ -d "$src/cmd/fleetcom" ] ||
		die "$src is not a fleetcom checkout: run install.sh from the repository"
	command -v go >/dev/null 2>&1 ||
		die "go is not installed or not on PATH: install Go (the version go.mod names, or newer), then run ./install.sh again"

	local version=dev
	if command -v git >/dev/null 2>&1; then
		version=$(git -C "$src" describe --always --dirty 2>/dev/null) || version=dev
	fi

	mkdir -p -- "$prefix/bin" || die "cannot create $prefix/bin"
	local bindir bin
	bindir=$(cd -- "$prefix/bin" && pwd)
	bin=$bindir/fleetcom

	# Build next to the target and rename over it: a running fleetcom or
	# shim keeps its old file, and nothing ever sees half a binary.
	local tmp
	tmp=$(mktemp "$bindir/.fleetcom.XXXXXX")
	trap "rm -f -- $(printf %q "$tmp")" EXIT
	printf 'building fleetcom %s with %s\n' "$version" "$(go version)"
	(cd -- "$src" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
		-ldflags "-s -w -X main.version=$version" -o "$tmp" ./cmd/fleetcom) ||
		die "go build failed (see above)"
	chmod 755 "$tmp"
	mv -f -- "$tmp" "$bin"
	trap - EXIT
	printf 'installed %s\n' "$bin"

	"$bin" shims install || die "creating the shims failed (see above)"
	printf 'shims ready (%s shims install)\n' "$bin"

	local line rc
	case $(basename -- "${SHELL:-bash}") in
	zsh)
		rc='~/.zshrc'
		line="eval \"\$($(quote "$bin") init zsh)\""
		;;
	fish)
		rc='~/.config/fish/config.fish'
		line="$(quote_fish "$bin") init fish | source"
		;;
	*)
		rc='~/.bashrc'
		line="eval \"\$($(quote "$bin") init bash)\""
		;;
	esac
	printf '\nAdd this line to %s, then open a new shell:\n\n    %s\n\n' "$rc" "$line"

	# Doctor judges the setup that line gives (the PATH it sets is the same
	# in every shell). What it finds is shown, not fatal: a fresh machine
	# may have no agent CLI yet.
	printf 'fleetcom doctor, with that line in effect:\n'
	(eval "$("$bin" init bash)" && "$bin" doctor) || true
}

# quote writes $1 as one POSIX shell word.
quote() {
	case $1 in
	*[!A-Za-z0-9/._+-]*) printf "'%s'" "${1//\'/\'\\\'\'}" ;;
	*) printf '%s' "$1" ;;
	esac
}

# quote_fish writes $1 as one fish word.
quote_fish() {
	case $1 in
	*[!A-Za-z0-9/._+-]*)
		local s=${1//\\/\\\\}
		printf "'%s'" "${s//\'/\\\'}"
		;;
	*) printf '%s' "$1" ;;
	esac
}

main "$@"
