package codex

// notifyScript is fleetcom's notifier, the asset a Codex run is given
// (notify.go): a constant rather than an embedded file, so that the Spec
// whose asset it is stays data the linker lays out, and a shim's start
// runs nothing to build it.
const notifyScript = `#!/bin/sh
# fleetcom codex notifier
#
# Codex runs this after each turn with one JSON document as the last argument.
# It appends that document as one line to $FLEETCOM_CAPTURE_FILE, then runs the
# user's own notifier (argv in $FLEETCOM_NOTIFY_CHAIN, one element per line)
# with the same document appended. Nothing here evaluates the payload or the
# chain, nothing waits on the chained notifier, and the exit status is always 0
# so a capture problem never becomes a Codex problem.

# Deaf to SIGHUP from the first line on, and so is everything started from
# here: when Codex exits, the kernel hangs up its terminal's foreground
# process group, which this script and the user's notifier belong to, and
# Codex may exit the moment it has started us. An ignored signal stays
# ignored across fork and exec, so the chain below is covered before it
# runs a single line of its own.
trap '' HUP

# The payload is the last argument; "for" without "in" walks "$@" and leaves it.
notify_payload=
for notify_payload do :; done
[ "$#" -gt 0 ] || exit 0

notify_marker='# fleetcom codex notifier'

# Capture: only into an existing regular file that is not a symlink, so a FIFO
# or a redirected link can neither block Codex nor receive the payload. The
# line is built in a temp file and appended by one cat, which keeps concurrent
# notifications from interleaving inside a line.
notify_cap=${FLEETCOM_CAPTURE_FILE-}
case $notify_cap in
'') ;;
/*) ;;
*) notify_cap=./$notify_cap ;;
esac
if [ -n "$notify_cap" ] && [ ! -L "$notify_cap" ] && [ -f "$notify_cap" ]; then
	if notify_tmp=$(mktemp "$notify_cap.XXXXXX" 2>/dev/null); then
		if printf '%s' "$notify_payload" | LC_ALL=C tr -d '\r\n' >"$notify_tmp" 2>/dev/null &&
			printf '\n' >>"$notify_tmp" 2>/dev/null &&
			[ ! -L "$notify_cap" ] && [ -f "$notify_cap" ]; then
			cat "$notify_tmp" >>"$notify_cap" 2>/dev/null
		fi
		rm -f "$notify_tmp"
	fi
fi

# notify_is_fleetcom reports whether program $1 is this script or another copy
# of it, so a chain can never call back into fleetcom's notifier.
notify_is_fleetcom() {
	[ "$1" = "$0" ] && return 0
	case $1 in
	*/*) notify_prog=$1 ;;
	*) notify_prog=$(command -v "$1" 2>/dev/null) || return 1 ;;
	esac
	[ -f "$notify_prog" ] && [ -r "$notify_prog" ] || return 1
	dd if="$notify_prog" bs=512 count=1 2>/dev/null | grep -qxF "$notify_marker"
}

# Chain: split on newlines only, with globbing off, so every element reaches
# the program literally. The chained program gets none of fleetcom's per-run
# variables: it sees what it would see without fleetcom, and a copy of this
# script reached through it finds no chain to follow.
notify_chain=${FLEETCOM_NOTIFY_CHAIN-}
unset FLEETCOM_NOTIFY_CHAIN FLEETCOM_CAPTURE_FILE
if [ -n "$notify_chain" ]; then
	set -f
	IFS='
'
	set -- $notify_chain
	case ${1-} in
	'' | -*) ;; # nothing to run, or a name exec would take for an option
	*)
		if ! notify_is_fleetcom "$1"; then
			# Detached, and deaf to SIGHUP like nohup (inherited from the
			# trap above): the user's notifier must finish after the
			# terminal fleetcom gave Codex hangs up.
			exec "$@" "$notify_payload" </dev/null >/dev/null 2>&1 &
		fi
		;;
	esac
fi
exit 0
`
