#!/usr/bin/env bash
# Build fleetcom from this checkout and install it for the current user:
#
#   ./install.sh [--prefix DIR]
#   ./install.sh --uninstall [--purge] [--prefix DIR]
#
# It builds a static binary with the local Go toolchain, puts it in
# DIR/bin (default ~/.local/bin) with its manual page, creates the shims
# (claude, codex, grok, and fleetcom itself), prints the one line to add to
# your shell's rc file, and runs `fleetcom doctor`. Running it again updates
# the install in place. No root is needed.
#
# --uninstall removes the binary, the shims, the manual pages and the rc
# line this script asked for; the saved sessions stay unless --purge.
#
# The whole script is one function called on the last line, so a partly
# downloaded copy runs nothing.

set -euo pipefail

usage() {
	cat <<'USAGE'
Usage: ./install.sh [--prefix DIR]
       ./install.sh --uninstall [--purge] [--prefix DIR]

Build fleetcom from this checkout and install it with its shims, or remove
it again.

  --prefix DIR  install the binary as DIR/bin/fleetcom (default: ~/.local)
  --uninstall   remove the binary, the shims, the manual pages and the rc
                line this script asked you to add; saved sessions stay
  --purge       with --uninstall: also remove the saved sessions and caches
  -h, --help    show this help

The shims go to $FLEETCOM_SHIM_DIR, else $XDG_DATA_HOME/fleetcom/shims
(~/.local/share/fleetcom/shims). Needs Go (see go.mod for the version).
USAGE
}

die() {
	printf 'install.sh: error: %s\n' "$*" >&2
	exit 1
}

main() {
	local prefix="${HOME:?HOME is not set}/.local" uninstall=0 purge=0
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
		--uninstall)
			uninstall=1
			shift
			;;
		--purge)
			purge=1
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
	[ "$purge" = 0 ] || [ "$uninstall" = 1 ] || die "--purge goes with --uninstall"
	if [ "$uninstall" = 1 ]; then
		remove "$prefix" "$purge"
		return
	fi

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

	# The manual page, where man looks beside DIR/bin.
	local man=$prefix/share/man/man1
	if mkdir -p -- "$man" 2>/dev/null && "$bin" __man >"$man/fleetcom.1.tmp" && mv -f -- "$man/fleetcom.1.tmp" "$man/fleetcom.1"; then
		printf 'installed %s\n' "$man/fleetcom.1"
	else
		rm -f -- "$man/fleetcom.1.tmp"
		printf 'install.sh: warning: could not install the manual page in %s\n' "$man" >&2
	fi

	"$bin" shims install || die "creating the shims failed (see above)"
	printf 'shims ready (%s shims install)\n' "$bin"

	local rc line
	read -r rc line < <(rc_line "$bin" "$(basename -- "${SHELL:-bash}")")
	printf '\nAdd this line to %s, then open a new shell:\n\n    %s\n\n' "$rc" "$line"
	printf 'After that, fleetcom and the shims run in that shell: try fleetcom doctor.\n'

	# Doctor judges the setup that line gives (the PATH it sets is the same
	# in every shell). What it finds is shown, not fatal: a fresh machine
	# may have no agent CLI yet.
	printf '\nfleetcom doctor, with that line in effect:\n'
	(eval "$("$bin" init bash)" && "$bin" doctor) || true
}

# rc_line prints the rc file of a shell and the line to add to it.
rc_line() {
	local bin=$1
	case $2 in
	zsh) printf '%s %s\n' '~/.zshrc' "eval \"\$($(quote "$bin") init zsh)\"" ;;
	fish) printf '%s %s\n' '~/.config/fish/config.fish' "$(quote "$bin") init fish | source" ;;
	*) printf '%s %s\n' '~/.bashrc' "eval \"\$($(quote "$bin") init bash)\"" ;;
	esac
}

# remove undoes an install: the shims (through the binary, which knows
# them), the manual pages, the binary, and the exact rc lines this script
# prints; with purge, the saved sessions and caches too.
remove() {
	local prefix=$1 purge=$2 bin
	bin=$(cd -- "$prefix/bin" 2>/dev/null && pwd)/fleetcom || true
	if [ -x "$bin" ]; then
		"$bin" shims remove || printf 'install.sh: warning: removing the shims failed (see above)\n' >&2
		rm -f -- "$prefix/share/man/man1/fleetcom.1"
		rm -f -- "$bin"
		printf 'removed %s\n' "$bin"
	else
		printf 'install.sh: warning: no fleetcom in %s/bin: nothing to remove there\n' "$prefix" >&2
		bin=$prefix/bin/fleetcom
	fi
	local shell rc line file
	for shell in bash zsh fish; do
		read -r rc line < <(rc_line "$bin" "$shell")
		file=${rc/#\~/$HOME}
		if [ -f "$file" ] && grep -qxF -- "$line" "$file"; then
			grep -vxF -- "$line" "$file" >"$file.fleetcom-tmp" || true
			cat "$file.fleetcom-tmp" >"$file" && rm -f -- "$file.fleetcom-tmp"
			printf 'removed the fleetcom line from %s\n' "$rc"
		fi
	done
	local state=${XDG_STATE_HOME:-$HOME/.local/state}/fleetcom
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/fleetcom
	if [ "$purge" = 1 ]; then
		rm -rf -- "$state" "$cache"
		printf 'removed the saved sessions (%s) and caches (%s)\n' "$state" "$cache"
	elif [ -d "$state" ]; then
		printf 'kept the saved sessions in %s (./install.sh --uninstall --purge removes them)\n' "$state"
	fi
}

# quote writes $1 as one shell word, read the same by bash, zsh and fish:
# single quotes, with ' and \ written between double quotes.
quote() {
	case $1 in
	*[!A-Za-z0-9/._+-]*)
		local s=$1 out="'" c i
		for ((i = 0; i < ${#s}; i++)); do
			c=${s:i:1}
			case $c in
			"'") out+="'\"'\"'" ;;
			'\') out+="'\"\\\\\"'" ;;
			*) out+=$c ;;
			esac
		done
		printf '%s' "$out'"
		;;
	*) printf '%s' "$1" ;;
	esac
}

main "$@"
