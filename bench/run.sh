#!/usr/bin/env bash
# Paired whole-command comparisons of fleetcom with its anchors (bench/anchors).
#
#   bench/run.sh              full run (a few minutes)
#   BENCH_QUICK=1 bench/run.sh  smoke run (well under a minute)
#   FLEETCOM_BIN=/path/to/fleetcom bench/run.sh   use that binary
#   BENCH_ONLY=ab bench/run.sh  only the sections named (a to e)
#   BENCH_ROUNDS=600 bench/run.sh  rounds of (a) and (b) (300; 30 quick)
#   FLEETCOM_BASE=/path/to/old/fleetcom bench/run.sh
#                             also run that binary in (a) and (b), as "base",
#                             and give every row's ratio to it
#
# Without FLEETCOM_BIN, ./cmd/fleetcom and ./cmd/fleetcom-shim are built
# static when they exist; the shim rows run the program the shims link to
# (fleetcom-shim when it sits beside fleetcom, as installed). Without
# a fleetcom binary the comparisons that need one are skipped, and the PTY ones
# run on spawnprobe, which calls shim.Spawn directly (the PTY core alone). Every
# table comes from bench/pair, which alternates the commands round by round:
# "vs" is the ratio of medians to the first command, "paired" the median of the
# per-round ratios. Single figures on this shared machine drift by 10-30%; only
# the ratios from one table are comparable.
set -euo pipefail

cd "$(dirname "$0")/.."
T=$(mktemp -d "${TMPDIR:-/tmp}/fleetcom-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

if [ "${BENCH_QUICK:-0}" = 1 ]; then
	N_START=30 BULK=$((20 << 20)) FRAMES=$((10 << 20)) ROUNDS=2 KEYS=300 RSS_BYTES=$((100 << 20))
else
	N_START=300 BULK=$((200 << 20)) FRAMES=$((100 << 20)) ROUNDS=5 KEYS=3000 RSS_BYTES=$((1 << 30))
fi

N_START=${BENCH_ROUNDS:-$N_START}

say() { printf '%s\n' "$*"; }

# want SECTION: whether BENCH_ONLY (default: all) asks for a section.
want() { [[ ${BENCH_ONLY:-abcde} == *"$1"* ]]; }

# --- build -----------------------------------------------------------------
mkdir -p "$T/bin" "$T/real" "$T/exec" "$T/proxy" "$T/shims" "$T/rec" \
	"$T/xdg/data" "$T/xdg/state" "$T/xdg/config" "$T/xdg/cache" "$T/home"
# The runtime dir is a tmpfs on a desktop (/run/user/<uid>); /dev/shm stands
# in for it here. The store stays on the project's disk, like the anchor's
# record.
RUNDIR=$T/xdg/run
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	RUNDIR=$(mktemp -d /dev/shm/fleetcom-bench-run.XXXXXX)
fi
mkdir -p "$RUNDIR"
chmod 700 "$RUNDIR"
trap 'rm -rf "$T" "$RUNDIR"' EXIT INT TERM
gcc -O2 -o "$T/real/claude" bench/anchors/realcli/realcli.c
for p in pair anchors/execshim anchors/ptyproxy anchors/spawnprobe; do
	CGO_ENABLED=0 go build -trimpath -o "$T/bin/$(basename "$p")" "./bench/$p"
done
ln -s "$T/bin/execshim" "$T/exec/claude"
ln -s "$T/bin/ptyproxy" "$T/proxy/claude"

# The shim rows run the program the shims are installed to: fleetcom-shim
# when it sits beside fleetcom (as install.sh and a release put it), else
# fleetcom itself. shimof FC prints it.
shimof() {
	if [ -x "$(dirname "$1")/fleetcom-shim" ]; then
		printf '%s' "$(dirname "$1")/fleetcom-shim"
	else
		printf '%s' "$1"
	fi
}

FC=""
if [ -n "${FLEETCOM_BIN:-}" ]; then
	FC=$FLEETCOM_BIN
elif [ -d cmd/fleetcom ] && ls cmd/fleetcom/*.go >/dev/null 2>&1; then
	if CGO_ENABLED=0 go build -trimpath -o "$T/bin/fleetcom" ./cmd/fleetcom 2>"$T/build.err"; then
		FC=$T/bin/fleetcom
		if [ -d cmd/fleetcom-shim ] && ! CGO_ENABLED=0 go build -trimpath -o "$T/bin/fleetcom-shim" ./cmd/fleetcom-shim 2>"$T/build.err"; then
			say "note: ./cmd/fleetcom-shim does not build; the shims run fleetcom:"
			sed 's/^/  /' "$T/build.err" | head -5
		fi
	else
		say "note: ./cmd/fleetcom does not build; skipping the fleetcom rows:"
		sed 's/^/  /' "$T/build.err" | head -5
	fi
fi
if [ -n "$FC" ]; then
	SHIM=$(shimof "$FC")
	ln -s "$SHIM" "$T/shims/claude"
	if file -L "$SHIM" | grep -q 'statically linked'; then
		say "fleetcom shim: $SHIM (statically linked)"
	else
		say "WARNING: $SHIM is not statically linked: $(file -L "$SHIM" | cut -d: -f2)"
	fi
fi
say "spawnprobe: $(file -L "$T/bin/spawnprobe" | grep -o 'statically linked' || echo 'NOT static')"
BASE=""
if [ -n "$FC" ] && [ -n "${FLEETCOM_BASE:-}" ]; then
	# Two files of the same bytes have started up to 9 % apart here, one
	# of them long in the page cache: both builds run from fresh copies.
	# Each build's shim program is copied, under its own name, into a
	# folder of its own.
	mkdir -p "$T/base" "$T/run" "$T/shims-base"
	BASE=$T/base/$(basename "$(shimof "$FLEETCOM_BASE")")
	cp "$(shimof "$FLEETCOM_BASE")" "$BASE"
	RUNSHIM=$T/run/$(basename "$SHIM")
	cp "$SHIM" "$RUNSHIM"
	ln -sf "$RUNSHIM" "$T/shims/claude"
	ln -s "$BASE" "$T/shims-base/claude"
	say "base: $FLEETCOM_BASE (its shims run $(shimof "$FLEETCOM_BASE"))"
fi

PAIR=$T/bin/pair
PROBE=$T/bin/spawnprobe
REAL=$T/real/claude
# A fleetcom shim run keeps everything under scratch.
FCENV=("FLEETCOM_SHIM_DIR=$T/shims" "XDG_DATA_HOME=$T/xdg/data" "XDG_STATE_HOME=$T/xdg/state"
	"XDG_CONFIG_HOME=$T/xdg/config" "XDG_CACHE_HOME=$T/xdg/cache" "XDG_RUNTIME_DIR=$RUNDIR"
	"HOME=$T/home" "CLAUDE_CONFIG_DIR=$T/home/.claude" "PATH=$T/shims:$T/real:$PATH")
PROXYENV=("PATH=$T/proxy:$T/real:$PATH" "PTYPROXY_DIR=$T/rec")

# pairwith ARGS... -- FLEETCOM-ARGS: runs pair on ARGS, plus a fleetcom shim
# command when there is a fleetcom binary. The split is the last "--".
pairwith() {
	local args=("$@") i last=0
	for i in "${!args[@]}"; do [[ ${args[$i]} == -- ]] && last=$i; done
	local rest=("${args[@]:0:last}") fcargs=("${args[@]:last+1}")
	if [[ -n $FC ]]; then
		rest+=(-- "${FCENV[@]}" "${fcargs[@]}")
	fi
	"$PAIR" "${rest[@]}"
}

# pairbase ARGS... -- FLEETCOM-ARGS: pairwith, and with FLEETCOM_BASE the
# base binary's shim too, as the last command ("base"), every round in a
# random order; the labels must end in fleetcom.
pairbase() {
	if [[ -z $BASE ]]; then
		pairwith "$@"
		return
	fi
	local args=("$@") i last=0
	for i in "${!args[@]}"; do [[ ${args[$i]} == -- ]] && last=$i; done
	local fcargs=("${args[@]:last+1}") baseenv=("${FCENV[@]}")
	for i in "${!baseenv[@]}"; do
		case ${baseenv[$i]} in
		FLEETCOM_SHIM_DIR=*) baseenv[i]=FLEETCOM_SHIM_DIR=$T/shims-base ;;
		PATH=*) baseenv[i]=PATH=$T/shims-base:$T/real:$PATH ;;
		esac
	done
	for i in "${!args[@]}"; do
		[[ ${args[$i]} == -labels ]] && args[i+1]+=,base
	done
	"$PAIR" -vs base -shuffle "${args[@]:0:last}" -- "${FCENV[@]}" "${fcargs[@]}" -- "${baseenv[@]}" "${fcargs[@]}"
}

if want a; then
	say ""
	say "# (a) opaque path: claude -p hi (target: fleetcom <= 1.10x execshim)"
	pairbase -n "$N_START" -labels execshim,direct,fleetcom \
		-- "PATH=$T/exec:$T/real:$PATH" claude -p hi \
		-- "PATH=$T/real:$PATH" claude -p hi \
		-- claude -p hi
fi

if want b; then
	say ""
	say "# (b) accepted path: bare claude on a PTY (target: fleetcom <= 1.15x ptyproxy+record)"
	pairbase -n "$N_START" -pty -labels ptyproxy+record,spawnprobe+record,fleetcom \
		-- "${PROXYENV[@]}" claude \
		-- "SPAWNPROBE_RECORD=$T/rec/probe.json" "$PROBE" "$REAL" \
		-- claude
fi

if want c; then
	for mode in "bulk $BULK 65536" "frames $FRAMES 16384"; do
		read -r kind bytes each <<<"$mode"
		say ""
		say "# (c) PTY throughput, $kind: $((bytes >> 20)) MiB in $each-byte writes (target: spawnprobe/fleetcom >= 0.95x script, cpu <= 1.15x)"
		pairwith -n "$ROUNDS" -warmup 1 -pty -rusage -bytes "$bytes" -labels script,spawnprobe,ptyproxy,fleetcom \
			-- script -qec "$REAL $mode" /dev/null \
			-- "$PROBE" "$REAL" $mode \
			-- "FLEETCOM_ANCHOR=$mode" "${PROXYENV[@]}" claude \
			-- "FLEETCOM_ANCHOR=$mode" claude
	done
fi

if want c && [ -n "$FC" ]; then
	# The same frames through a shim that reads what its CLI writes of its
	# state (operating system commands, shim/osc.go): fleetcom as codex,
	# whose terminal is read, against fleetcom as claude, whose is not.
	ln -sf "$(readlink "$T/shims/claude")" "$T/shims/codex"
	ln -sf "$REAL" "$T/real/codex"
	say ""
	say "# (c) PTY throughput, frames, a CLI whose terminal is read for its state (target: fleetcom-codex <= 1.03x fleetcom, cpu too)"
	"$PAIR" -n "$ROUNDS" -warmup 1 -pty -rusage -bytes "$FRAMES" -labels fleetcom,fleetcom-codex \
		-- "${FCENV[@]}" "FLEETCOM_ANCHOR=frames $FRAMES 16384" claude \
		-- "${FCENV[@]}" "CODEX_HOME=$T/home/.codex" "FLEETCOM_ANCHOR=frames $FRAMES 16384" codex
fi

if want d; then
	say ""
	say "# (d) keystroke round trip, one byte out and back (target: median <= script, p99 < 0.5 ms)"
	pairwith -keys "$KEYS" -warmup 20 -labels script,direct,spawnprobe,ptyproxy,fleetcom \
		-- script -qec "$REAL echo" /dev/null \
		-- "$REAL" echo \
		-- "$PROBE" "$REAL" echo \
		-- FLEETCOM_ANCHOR=echo "${PROXYENV[@]}" claude \
		-- FLEETCOM_ANCHOR=echo claude
fi

if want e; then
	say ""
	say "# (e) peak RSS over $((RSS_BYTES >> 20)) MiB of output (target: <= 20 MiB)"
	pairwith -n 1 -warmup 0 -pty -rusage -bytes "$RSS_BYTES" -labels script,spawnprobe,fleetcom \
		-- script -qec "$REAL bulk $RSS_BYTES 65536" /dev/null \
		-- "$PROBE" "$REAL" bulk "$RSS_BYTES" 65536 \
		-- "FLEETCOM_ANCHOR=bulk $RSS_BYTES 65536" claude
fi
