#!/usr/bin/env bash
# Build fleetcom from this checkout and install it for the current user:
#
#   ./install.sh [--prefix DIR]
#   ./install.sh --uninstall [--purge] [--prefix DIR]
#
# It builds two static binaries with the local Go toolchain, fleetcom and
# fleetcom-shim (the shim alone, which the shims link to), puts them in
# DIR/bin (default ~/.local/bin) with the manual page, creates the shims
# (one per agent CLI, and fleetcom itself), prints the one line to add to
# your shell's rc file (or says it is there already), and runs `fleetcom
# doctor`. Running it again updates the install in place. No root is needed.
#
# --uninstall removes the binaries, the shims, the manual pages and every
# `fleetcom init` line it can remove safely from the shells' startup files,
# and names the file and line of any other; the saved sessions stay unless
# --purge.
#
# The whole script is functions called on the last line, so a partly
# downloaded copy runs nothing.

# `sh install.sh` (dash, or bash as sh) or `zsh install.sh`: start again in
# bash, which the rest needs.
if [ -z "${BASH_VERSION:-}" ] || case ":${SHELLOPTS:-}:" in *:posix:*) true ;; *) false ;; esac; then
	if [ -z "${FLEETCOM_INSTALL_BASH:-}" ] && [ -f "$0" ] && command -v bash >/dev/null 2>&1; then
		exec env FLEETCOM_INSTALL_BASH=1 bash "$0" "$@"
	fi
	echo 'install.sh: error: install.sh needs bash: run it as ./install.sh or bash install.sh' >&2
	exit 1
fi
unset FLEETCOM_INSTALL_BASH

set -euo pipefail

usage() {
	cat <<'USAGE'
Usage: ./install.sh [--prefix DIR]
       ./install.sh --uninstall [--purge] [--prefix DIR]

Build fleetcom from this checkout and install it with its shims, or remove
it again.

  --prefix DIR  install the binaries as DIR/bin/fleetcom and
                DIR/bin/fleetcom-shim (default: ~/.local)
  --uninstall   remove the binaries, the shims, the manual pages and the
                fleetcom init lines of your shells' startup files (a line
                that cannot be removed safely is named, with its file and
                line number); saved sessions stay
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

warn() { printf 'install.sh: warning: %s\n' "$*" >&2; }

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

	local src
	src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
	[ -f "$src/go.mod" ] && [ -d "$src/cmd/fleetcom" ] && [ -f "$src/install-startup.bash" ] ||
		die "$src is not a fleetcom checkout: run install.sh from the repository"
	. "$src/install-startup.bash"
	if [ "$uninstall" = 1 ]; then
		remove "$prefix" "$purge"
		return
	fi
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

	# Two programs: fleetcom, and fleetcom-shim, the shim alone, which the
	# shims link to (it does not link the index, so a shim starts faster).
	# Each is built next to its target and renamed over it: a running
	# fleetcom or shim keeps its old file, and nothing ever sees half a
	# binary. fleetcom-shim goes first, so the fleetcom that makes the shims
	# finds it beside itself.
	local tmp name
	printf 'building fleetcom %s with %s\n' "$version" "$(go version)"
	for name in fleetcom-shim fleetcom; do
		tmp=$(mktemp "$bindir/.$name.XXXXXX")
		trap "rm -f -- $(printf %q "$tmp")" EXIT
		(cd -- "$src" && CGO_ENABLED=0 go build -trimpath -buildvcs=false \
			-ldflags "-s -w -X main.version=$version" -o "$tmp" "./cmd/$name") ||
			die "go build ./cmd/$name failed (see above)"
		chmod 755 "$tmp"
		mv -f -- "$tmp" "$bindir/$name"
		trap - EXIT
		printf 'installed %s\n' "$bindir/$name"
	done

	# The manual page, where man looks beside DIR/bin.
	local man=$prefix/share/man/man1
	if mkdir -p -- "$man" 2>/dev/null && "$bin" __man >"$man/fleetcom.1.tmp" && mv -f -- "$man/fleetcom.1.tmp" "$man/fleetcom.1"; then
		printf 'installed %s\n' "$man/fleetcom.1"
	else
		rm -f -- "$man/fleetcom.1.tmp"
		warn "could not install the manual page in $man"
	fi

	"$bin" shims install || die "creating the shims failed (see above)"
	printf 'shims ready (%s shims install)\n' "$bin"

	local shell
	shell=$(basename -- "${SHELL:-bash}")
	case $shell in zsh | fish) ;; *) shell=bash ;; esac
	ask_rc_line "$bin" "$shell"
	warn_ahead "$bin" "$shell"

	# Doctor judges the setup that line gives (the PATH it sets is the same
	# in every shell). What it finds is shown, not fatal: a fresh machine
	# may have no agent CLI yet.
	printf '\nfleetcom doctor, with that line in effect:\n'
	(eval "$("$bin" init bash)" && "$bin" doctor) || true
}

# rc_line prints the line for a shell's rc file.
rc_line() {
	case $2 in
	fish) printf '%s init fish | source' "$(quote "$1")" ;;
	*) printf 'eval "$(%s init %s)"' "$(quote "$1")" "$2" ;;
	esac
}

# ask_rc_line asks for the init line, unless a startup file of the shell
# already runs it: then it says where (and whether it runs this fleetcom).
ask_rc_line() {
	local bin=$1 shell=$2 line file i found=0
	line=$(rc_line "$bin" "$shell")
	startup_files
	for file in ${STARTUP_FILES[@]+"${STARTUP_FILES[@]}"}; do
		[ "$(file_kind "$file")" = "$shell" ] || { [ "$shell" = bash ] && [ "$(file_kind "$file")" = sh ]; } || continue
		scan_rc "$file" || continue
		for i in ${INIT_AT[@]+"${INIT_AT[@]}"}; do
			found=1
			if runs_bin "${LINES_OF[i]}" "$bin"; then
				printf '\n%s:%d already runs fleetcom init: open a new shell to use this install.\n' "$file" $((i + 1))
			else
				warn "$file:$((i + 1)) runs another fleetcom's init; change that line to: $line"
			fi
		done
	done
	if [ "$found" = 0 ]; then
		local rc='~/.bashrc'
		case $shell in
		zsh) rc='~/.zshrc' ;;
		fish) rc='~/.config/fish/config.fish' ;;
		esac
		printf '\nAdd this line to %s, then open a new shell:\n\n    %s\n\n' "$rc" "$line"
		printf 'After that, fleetcom and the shims run in that shell: try fleetcom doctor.\n'
	fi
}

# runs_bin reports whether an init line runs bin: it names bin by a path
# that leads to it, or fleetcom bare (whatever PATH holds then).
runs_bin() {
	local w
	init_word "$1" || return 0
	w=$REPLY
	[ "$w" = fleetcom ] && return 0
	case $w in "~/"*) w=$HOME/${w#"~/"} ;; esac
	w=${w//\$\{HOME\}/$HOME}
	w=${w//\$HOME/$HOME}
	[ "$w" -ef "$2" ]
}

# warn_ahead warns, once, when startup files put a directory holding agent
# CLIs in front of the shims after the init line: fleetcom reads the files
# and names the lines, the CLIs each hides and the line that fixes it.
warn_ahead() {
	local msg
	msg=$("$1" __ahead "$2" 2>/dev/null) || return 0
	if [ -n "$msg" ]; then warn "$msg"; fi
}

# paths_of asks a fleetcom binary where it keeps its files (the same rules
# every fleetcom command follows): P_SHIMS, P_DATA, P_STORE, P_CACHE,
# P_CONFIG and P_RUNTIME. It fails for a binary too old to say.
paths_of() {
	local kv out
	out=$("$1" __paths 2>/dev/null | tr '\0' '\036') || return 1
	P_SHIMS='' P_DATA='' P_STORE='' P_CACHE='' P_CONFIG='' P_RUNTIME=''
	while IFS= read -r -d $'\036' kv; do
		case $kv in
		shims=*) P_SHIMS=${kv#*=} ;;
		data=*) P_DATA=${kv#*=} ;;
		store=*) P_STORE=${kv#*=} ;;
		cache=*) P_CACHE=${kv#*=} ;;
		config=*) P_CONFIG=${kv#*=} ;;
		runtime=*) P_RUNTIME=${kv#*=} ;;
		esac
	done <<<"$out"
	[ -n "$P_STORE" ] && [ -n "$P_CACHE" ] && [ -n "$P_SHIMS" ]
}

# paths_here is paths_of without a binary to ask: the same rules (an XDG
# variable counts only when it holds an absolute path).
paths_here() {
	local data
	data=$(xdg XDG_DATA_HOME "$HOME/.local/share")/fleetcom
	P_DATA=$data P_SHIMS=${FLEETCOM_SHIM_DIR:-$data/shims}
	case $P_SHIMS in /*) ;; *) P_SHIMS=$PWD/$P_SHIMS ;; esac
	P_STORE=$(xdg XDG_STATE_HOME "$HOME/.local/state")/fleetcom
	P_CACHE=$(xdg XDG_CACHE_HOME "$HOME/.cache")/fleetcom
	P_CONFIG=$(xdg XDG_CONFIG_HOME "$HOME/.config")/fleetcom
	P_RUNTIME=''
	if [ -z "${FLEETCOM_RUNTIME_DIR:-}" ]; then
		case ${XDG_RUNTIME_DIR:-} in /*) P_RUNTIME=$XDG_RUNTIME_DIR/fleetcom ;; *) P_RUNTIME=$P_CACHE ;; esac
	fi
}

# xdg prints an XDG variable's value when it is an absolute path, else the
# default.
xdg() {
	case ${!1:-} in
	/*) printf '%s' "${!1}" ;;
	*) printf '%s' "$2" ;;
	esac
}

# is_fleetcom reports whether a file is a fleetcom binary, without running
# it: an executable (ELF or Mach-O) whose Go build information names
# fleetcom's main package, or with shim, fleetcom-shim's.
is_fleetcom() {
	local magic main=fleetcom
	[ "${2:-}" = shim ] && main=fleetcom-shim
	[ -f "$1" ] && [ -x "$1" ] || return 1
	magic=$(LC_ALL=C head -c 4 -- "$1" | LC_ALL=C od -An -tx1 | tr -d ' \n')
	case $magic in 7f454c46 | cffaedfe | cefaedfe) ;; *) return 1 ;; esac
	LC_ALL=C grep -aq -e "$(printf 'path\tgithub\\.com/fleetcom/fleetcom/cmd/%s$' "$main")" -- "$1"
}

# remove undoes an install: the shims (through the binary, which knows
# them), the manual pages, the binary, the init lines of the startup files;
# with purge, the saved sessions and caches too. Only what is fleetcom's
# is touched: a binary that is not fleetcom is neither run nor removed, and
# a store or cache that does not hold fleetcom's layout stays.
remove() {
	local prefix=$1 purge=$2 bin own=0 status=0
	bin=$prefix/bin/fleetcom
	case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
	if is_fleetcom "$bin"; then
		own=1
	elif [ -e "$bin" ] || [ -L "$bin" ]; then
		warn "$bin is not a fleetcom binary: left in place, not run"
	else
		warn "no fleetcom in $prefix/bin: nothing to remove there"
	fi
	if [ "$own" = 1 ] && paths_of "$bin"; then :; else paths_here; fi

	if [ "$own" = 1 ]; then
		"$bin" shims remove || warn "removing the shims failed (see above)"
	else
		remove_links "$P_SHIMS"
	fi
	local page=$prefix/share/man/man1/fleetcom.1
	if [ -f "$page" ] && [ "$(head -c 13 -- "$page")" = '.TH FLEETCOM ' ]; then
		rm -f -- "$page"
		rmdir -- "$prefix/share/man/man1" "$prefix/share/man" 2>/dev/null || true
	fi
	if [ "$own" = 1 ]; then
		rm -f -- "$bin"
		printf 'removed %s\n' "$bin"
	fi
	local shimbin=${bin%/fleetcom}/fleetcom-shim
	if is_fleetcom "$shimbin" shim; then
		rm -f -- "$shimbin"
		printf 'removed %s\n' "$shimbin"
	elif [ -e "$shimbin" ] || [ -L "$shimbin" ]; then
		warn "$shimbin is not fleetcom's shim binary: left in place"
	fi

	startup_files
	local file
	for file in ${STARTUP_FILES[@]+"${STARTUP_FILES[@]}"}; do
		clean_rc "$file" || status=1
	done

	if [ "$purge" = 1 ]; then
		purge_dir "$P_STORE" store "the saved sessions"
		purge_dir "$P_CACHE" cache "the caches"
		[ -z "$P_RUNTIME" ] || rmdir -- "$P_RUNTIME" 2>/dev/null || true
		rmdir -- "$P_CONFIG" 2>/dev/null || true
	elif [ -d "$P_STORE" ]; then
		printf 'kept the saved sessions in %s (./install.sh --uninstall --purge removes them)\n' "$P_STORE"
	fi
	# Folders of fleetcom's own left empty: never anything else.
	rmdir -- "$P_SHIMS" 2>/dev/null || true
	rmdir -- "$P_DATA" 2>/dev/null || true
	return "$status"
}

# remove_links removes, without a fleetcom binary to ask, the links of a
# shim directory that lead to a file named fleetcom or fleetcom-shim (the
# rule fleetcom shims remove follows), and nothing else.
remove_links() {
	local link
	[ -d "$1" ] || return 0
	for link in "$1"/* "$1"/.[!.]*; do
		[ -L "$link" ] || continue
		case $(basename -- "$(readlink -- "$link")") in
		fleetcom | fleetcom-shim) rm -f -- "$link" ;;
		esac
	done
}

# purge_dir removes a store or cache directory when it holds fleetcom's
# layout, and says why not otherwise.
purge_dir() {
	local dir=$1 what=$2 label=$3
	[ -e "$dir" ] || [ -L "$dir" ] || return 0
	if [ "$(basename -- "$dir")" != fleetcom ] || [ -L "$dir" ] || [ ! -d "$dir" ]; then
		warn "$dir is not fleetcom's $what: left in place"
		return 0
	fi
	local odd
	if odd=$(odd_entry "$dir" "$what"); then
		warn "$dir $odd: left in place; remove it by hand if it is fleetcom's $what"
		return 0
	fi
	rm -rf -- "$dir"
	printf 'removed %s (%s)\n' "$label" "$dir"
}

# odd_entry says how dir differs from fleetcom's layout (and fails when it
# does not). The store holds records/, dirs/
# and locks/ (with drift/, forgotten/ and the agents' index folders); the
# cache holds the binaries.json probe cache, its temp files, and capture
# namespaces (<pid>-<hex>/) when no runtime directory is set.
odd_entry() {
	local e name
	if [ "$2" = store ]; then
		[ -d "$1/records" ] && [ -d "$1/locks" ] || { printf '%s' "holds no records/ and locks/, as fleetcom's store does"; return 0; }
		return 1
	fi
	for e in "$1"/* "$1"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		name=$(basename -- "$e")
		case $name in
		binaries.json | .binaries.json.tmp-*) [ -f "$e" ] && [ ! -L "$e" ] && continue ;;
		[0-9]*-[0-9a-f]*) [ -d "$e" ] && [ ! -L "$e" ] && continue ;;
		esac
		printf '%s' "holds $name, which is not fleetcom's"
		return 0
	done
	return 1
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
