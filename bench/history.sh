#!/usr/bin/env bash
# Times fleetcom's reading commands against big conversation histories:
# synthetic stores in each agent's own format (bench/genstore), each command
# paired round by round by bench/pair with the same command on an empty
# home, so the ratio is what the history costs.
#
#   bench/history.sh                         the default scenarios (below)
#   HISTORY_ONLY=claude10k bench/history.sh  only those named (comma- or space-separated; "all": every one)
#   HISTORY_ROUNDS=N                         rounds per table (default: by the scenario's size)
#   WATCH_SECONDS=N                          how long status --watch is watched (status scenario; default 20)
#   HISTORY_CACHE=DIR                        where the generated stores are kept between runs
#                                            (default: ~/.cache/fleetcom-bench/history)
#   FLEETCOM_BIN=/path/to/fleetcom           measure that binary instead of building ./cmd/fleetcom
#
# Per scenario, in its directory work/project-0000: `resume`, `list`,
# `list --all`, TAB (`__complete resume ''`), the built-in picker's first
# row (`pick`, and `pick --all` where records exist; paired with the same
# picker over a home of one conversation, as an empty home draws none),
# and, when the binary has them, `search WORD` (a word planted in one
# conversation) and `index`. `resume` and `search` exit 1 on an empty home,
# so both sides of those two run under `sh -c '…; exit 0'`. The status
# scenario pairs `status` with 50 live runs of ordinary transcripts and 50
# whose titles sit behind sub-agent lines or in a 300 MiB rollout, and
# the share of one CPU `status --watch` takes with each set.
#
# A store is generated once per scenario and generator source, and reused;
# each run works on a copy of its fleetcom state (commands may adopt a
# conversation), never on the cache itself.

set -euo pipefail

# Scenario name -> genstore flags.
declare -A FLAGS=(
	[claude100]="-claude 100"
	[claude2k]="-claude 2000"
	[claude10k]="-claude 10000"
	[claude10k-recorded]="-claude 10000 -records"
	[claude10k-dirs]="-claude 10000 -claude-dirs 500 -records"
	[claude-sidechain]="-claude-sidechain 1"
	[claude5g]="-claude 10000 -claude-kb 420"
	[codex]="-codex 2000 -codex-big-mb 300 -codex-names 20000"
	[gemini100]="-gemini 100"
	[gemini2k]="-gemini 2000"
	[gemini-big]="-gemini-big-mb 100"
	[grok-copilot]="-grok 2000 -copilot 2000"
	[opencode5k]="-opencode 5000 -opencode-messages 2000000"
	[status]="-claude 45 -claude-sidechain 5 -codex 20 -codex-big-mb 300 -gemini 10 -grok 10 -copilot 10 -opencode 10 -dirs 5"
	[one]="-claude 1 -records"
)
DEFAULT="claude100 claude2k claude10k claude10k-recorded claude10k-dirs claude-sidechain gemini100 gemini2k opencode5k"
ALL="$DEFAULT claude5g codex gemini-big grok-copilot status"

# rounds SCENARIO: rounds per table, fewer for the slow ones.
rounds() {
	if [[ -n ${HISTORY_ROUNDS:-} ]]; then
		echo "$HISTORY_ROUNDS"
		return
	fi
	case $1 in
	claude100 | gemini100) echo 30 ;;
	claude2k | gemini2k | opencode5k | codex | grok-copilot | status) echo 10 ;;
	*) echo 5 ;;
	esac
}

main() {
	local root
	root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleetcom-history.XXXXXX")
	pids=()
	trap cleanup EXIT
	cache=${HISTORY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fleetcom-bench/history}
	mkdir -p "$cache"
	# Only scratch homes are read: the machine's own agent stores stay out.
	unset CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME GROK_HOME COPILOT_HOME OPENCODE_CONFIG_CONTENT FLEETCOM_RUNTIME_DIR

	cd -- "$root"
	echo "building static binaries"
	if [[ -n ${FLEETCOM_BIN:-} ]]; then
		FC=$FLEETCOM_BIN
	else
		CGO_ENABLED=0 go build -trimpath -o "$tmp/fleetcom" ./cmd/fleetcom
		FC=$tmp/fleetcom
	fi
	CGO_ENABLED=0 go build -trimpath -o "$tmp/pair" ./bench/pair
	CGO_ENABLED=0 go build -trimpath -o "$tmp/genstore" ./bench/genstore
	mkdir "$tmp/holder"
	CGO_ENABLED=0 go build -trimpath -o "$tmp/holder/fleetcom" ./bench/holder
	echo "fleetcom: $FC ($(file -L "$FC" | grep -o 'statically linked' || echo 'NOT statically linked')), $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
	genkey=$(cat bench/genstore/*.go | sha256sum | cut -c1-12)
	help=$("$FC" help 2>&1 || true)
	has_search=0 has_index=0
	grep -q 'fleetcom search' <<<"$help" && has_search=1
	grep -q 'fleetcom index' <<<"$help" && has_index=1

	local list=${HISTORY_ONLY:-$DEFAULT}
	list=${list//,/ }
	[[ $list == all ]] && list=$ALL
	for s in $list; do
		[[ -n ${FLAGS[$s]:-} ]] || {
			echo "history.sh: unknown scenario $s (known: ${!FLAGS[*]})" >&2
			exit 2
		}
	done

	mkdir -p "$tmp/empty/home" "$tmp/empty/state" "$tmp/empty/data" "$tmp/empty/work/project-0000" "$tmp/config" "$tmp/elsewhere"
	summary=$tmp/summary.tsv
	: >"$summary"
	local one
	one=$(world one)
	for s in $list; do
		scenario "$s" "$(world "$s")" "$one"
	done
	echo
	echo "## summary: median on the history, on the empty home (the picker: a home of one conversation), paired ratio"
	{
		printf 'what\thistory\tempty\tratio\n'
		cat "$summary"
	} | column -t -s $'\t'
	echo "load at the end: $(uptime | sed 's/.*load average/load average/')"
}

cleanup() {
	if ((${#pids[@]} > 0)); then kill "${pids[@]}" 2>/dev/null || true; fi
	rm -rf -- "$tmp"
}

# world NAME: the cached store of a scenario, generated when missing or
# made with other flags. The stores name their own paths, so it is
# generated in place; genstore writes manifest.tsv last, and the flags file
# follows it: a store without both is made again.
world() {
	local name=$1 dir="$cache/$1-$genkey"
	if [[ ! -f $dir/manifest.tsv || $(cat "$dir/genstore.flags" 2>/dev/null) != "${FLAGS[$name]}" ]]; then
		echo "generating $name (genstore ${FLAGS[$name]})" >&2
		rm -rf -- "$dir"
		# shellcheck disable=SC2086 # the flags are words
		"$tmp/genstore" -root "$dir" ${FLAGS[$name]} >&2
		echo "${FLAGS[$name]}" >"$dir/genstore.flags"
	fi
	echo "$dir"
}

# envof WORLD STATE: the environment of a command run against WORLD with
# its fleetcom state in STATE.
envof() {
	echo "HOME=$1/home" "XDG_STATE_HOME=$2" "XDG_DATA_HOME=$1/data" "XDG_CONFIG_HOME=$tmp/config" \
		"XDG_CACHE_HOME=$2/cache" "XDG_RUNTIME_DIR=$tmp/run" "TERM=xterm-256color" "FLEETCOM_FZF=-"
}

# paired TITLE LABEL-A LABEL-B [pair flags] -- A... -- B...: one pair run,
# its table printed and its medians added to the summary.
paired() {
	local title=$1 a=$2 b=$3 out
	shift 3
	out=$("$tmp/pair" -title "$title" -labels "$a,$b" "$@") || {
		echo "$out"
		echo "history.sh: pair failed: $title" >&2
		return 0
	}
	echo "$out"
	awk -v a="$a" -v b="$b" -v t="$title" '$1 == a { ma = $3 " " $4 } $1 == b { mb = $3 " " $4; r = $8 }
		END { printf "%s\t%s\t%s\t%s\n", t, mb, ma, r }' <<<"$out" >>"$summary"
}

scenario() {
	local name=$1 w=$2 one=$3 n st ost dir
	n=$(rounds "$name")
	st=$tmp/state-$name ost=$tmp/state-one-$name
	rm -rf -- "$st" "$ost" "$tmp/empty/state"
	cp -a "$w/state" "$st"
	cp -a "$one/state" "$ost"
	mkdir -p "$tmp/empty/state" "$tmp/run"
	chmod 700 "$tmp/run"
	dir=$w/work/project-0000
	local conv size
	conv=$(($(wc -l <"$w/manifest.tsv") - 1))
	size=$(du -sh "$w/" | cut -f1)
	echo
	echo "# $name: $conv conversations ($size on disk; genstore ${FLAGS[$name]}), $n rounds"
	echo "load: $(uptime | sed 's/.*load average/load average/')"
	local E W O
	read -ra E <<<"$(envof "$tmp/empty" "$tmp/empty/state")"
	read -ra W <<<"$(envof "$w" "$st")"
	read -ra O <<<"$(envof "$one" "$ost")"
	if [[ $name == status ]]; then
		status_bench "$w" "$n"
		return
	fi
	cd -- "$dir"
	if ((has_index)); then
		# The first command that reads the index builds it: that is timed
		# once, here, with what it read; every table after it is warm.
		local t0 t1
		t0=$(date +%s%N)
		env "${W[@]}" "$FC" index >"$tmp/index.out" 2>&1 || true
		t1=$(date +%s%N)
		echo "cold build: $(((t1 - t0) / 1000000)) ms; $(tail -n 1 "$tmp/index.out")"
		printf '%s\t%s ms\t-\t-\n' "$name: cold build (fleetcom index)" "$(((t1 - t0) / 1000000))" >>"$summary"
	fi
	local exit0=(sh -c '"$@"; exit 0' sh)
	paired "$name: resume" empty "$name" -n "$n" -- "${E[@]}" "${exit0[@]}" "$FC" resume -- "${W[@]}" "${exit0[@]}" "$FC" resume
	paired "$name: list" empty "$name" -n "$n" -- "${E[@]}" "$FC" list -- "${W[@]}" "$FC" list
	paired "$name: list --all" empty "$name" -n "$n" -- "${E[@]}" "$FC" list --all -- "${W[@]}" "$FC" list --all
	paired "$name: TAB (__complete resume '')" empty "$name" -n "$n" -- "${E[@]}" "$FC" __complete resume '' -- "${W[@]}" "$FC" __complete resume ''
	# The picker's first row: the selected row is drawn in reverse video.
	local first='\x1b\[7m> '
	paired "$name: pick, first row" one "$name" -n "$n" -pty -until "$first" \
		-- "${O[@]}" "$FC" pick -C "$one/work/project-0000" -- "${W[@]}" "$FC" pick
	if [[ -n $(ls -A "$w/state/fleetcom/records" 2>/dev/null) ]]; then
		paired "$name: pick --all, first row" one "$name" -n "$n" -pty -until "$first" \
			-- "${O[@]}" "$FC" pick --all -- "${W[@]}" "$FC" pick --all
	fi
	if [[ $name == claude10k-recorded || $name == opencode5k ]]; then
		cd -- "$tmp/elsewhere"
		paired "$name: resume, in a directory with none" empty "$name" -n "$n" -- "${E[@]}" "${exit0[@]}" "$FC" resume -- "${W[@]}" "${exit0[@]}" "$FC" resume
		paired "$name: list, in a directory with none" empty "$name" -n "$n" -- "${E[@]}" "$FC" list -- "${W[@]}" "$FC" list
		cd -- "$dir"
	fi
	if ((has_index)); then
		paired "$name: index (refresh)" empty "$name" -n "$n" -- "${E[@]}" "$FC" index -- "${W[@]}" "$FC" index
	fi
	if ((has_search)); then
		local word
		word=$(awk -F'\t' 'NR > 1 { n[$1]++ } END { for (m in n) print n[m], m }' "$w/markers.tsv" | sort -n | awk 'NR == 1 { print $2 }')
		if [[ -n $word ]]; then
			paired "$name: search $word" empty "$name" -n "$n" -- "${E[@]}" "${exit0[@]}" "$FC" search "$word" -- "${W[@]}" "${exit0[@]}" "$FC" search "$word"
		fi
	fi
}

# status_bench WORLD ROUNDS: status with 50 live runs, of ordinary
# conversations and of odd ones, paired with status on an empty home.
status_bench() {
	local w=$1 n=$2 boot
	boot=$(cat /proc/sys/kernel/random/boot_id)
	mkdir -p "$tmp/live-plain/fleetcom/live" "$tmp/live-odd/fleetcom/live"
	# tool id dir home, ordinary first, then the odd shapes
	awk -F'\t' 'NR > 1 && $8 == "-" { print $1, $2, $3, $9 }' "$w/manifest.tsv" | head -50 >"$tmp/plain.txt"
	{
		awk -F'\t' 'NR > 1 && $8 != "-" { print $1, $2, $3, $9 }' "$w/manifest.tsv"
		cat "$tmp/plain.txt"
	} | head -50 >"$tmp/odd.txt"
	# status counts a run only while its CLI is the child of its shim, a
	# fleetcom: the holder (bench/holder) stands for the shims, its sleeps
	# for the CLIs.
	"$tmp/holder/fleetcom" 100 >"$tmp/holder/pids" 2>/dev/null &
	local holder=$!
	pids+=("$holder")
	while (($(wc -l <"$tmp/holder/pids") < 100)); do sleep 0.1; done
	local kind i=0 tool id cwd home pid start
	local -a kids
	mapfile -t kids <"$tmp/holder/pids"
	for kind in plain odd; do
		while read -r tool id cwd home; do
			pid=${kids[i]}
			start=$(cut -d' ' -f22 "/proc/$pid/stat")
			printf '{"tool":"%s","id":"%s","cwd":"%s","home":"%s","state":"waiting","since":"2026-12-01T10:00:%02dZ","started":"2026-12-01T09:00:00Z","pid":%s,"pid_start":"%s","boot":"%s","shim_pid":%s,"tty":"/dev/pts/%d","tmux":null}\n' \
				"$tool" "$id" "$cwd" "$home" $((i % 60)) "$pid" "$start" "$boot" "$holder" $((i % 100)) \
				>"$tmp/live-$kind/fleetcom/live/${boot:0:8}-$pid-$start.json"
			i=$((i + 1))
		done <"$tmp/$kind.txt"
	done
	echo "odd shapes among the 50: $(awk -F'\t' 'NR > 1 && $8 != "-" { print $1 "(" $8 ", " int($6 / 1048576) " MiB)" }' "$w/manifest.tsv" | sort | uniq -c | paste -sd' ')"
	cd -- "$tmp/elsewhere"
	local P=("HOME=$w/home" "XDG_DATA_HOME=$w/data" "XDG_CONFIG_HOME=$tmp/config" "XDG_RUNTIME_DIR=$tmp/run")
	echo "runs shown: $(env "${P[@]}" XDG_STATE_HOME="$tmp/live-odd" "$FC" status --json | grep -c '"tool"') (of 50)"
	"$tmp/pair" -n "$n" -title "status, 50 live runs" -labels "empty,plain,odd" \
		-- "${E[@]}" "$FC" status \
		-- "${P[@]}" "XDG_STATE_HOME=$tmp/live-plain" "$FC" status \
		-- "${P[@]}" "XDG_STATE_HOME=$tmp/live-odd" "$FC" status | tee "$tmp/status.out"
	awk -v t="status: 50 live runs, odd shapes" '$1 == "empty" { ma = $3 " " $4 } $1 == "odd" { mb = $3 " " $4; r = $8 }
		END { printf "%s\t%s\t%s\t%s\n", t, mb, ma, r }' "$tmp/status.out" >>"$summary"
	local kind cpu
	for kind in plain odd; do
		cpu=$(watch_cpu "$tmp/live-$kind" "${P[@]}")
		echo "status --watch, 50 live runs ($kind): $cpu of one CPU over ${WATCH_SECONDS:-20} s"
		printf '%s\t%s\t-\t-\n' "status --watch: 50 live runs, $kind" "$cpu CPU" >>"$summary"
	done
}

# watch_cpu STATE ENV...: the share of one CPU that `status --watch` takes
# on a terminal (script's PTY), over WATCH_SECONDS (default 20) after its
# first two seconds, from its utime and stime in /proc.
watch_cpu() {
	local state=$1 secs=${WATCH_SECONDS:-20} exe p pid= t0 t1
	shift
	exe=$(readlink -f "$FC")
	sleep $((secs + 10)) | env "$@" XDG_STATE_HOME="$state" TERM=xterm-256color script -qec "$FC status --watch" /dev/null >/dev/null 2>&1 &
	local feeder=$!
	sleep 2
	for p in $(pgrep -f -- "status --watch"); do
		[[ $(readlink -f "/proc/$p/exe" 2>/dev/null) == "$exe" ]] && pid=$p
	done
	if [[ -z $pid ]]; then
		echo "? (status --watch did not start)"
		return
	fi
	t0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	sleep "$secs"
	t1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
	kill "$pid" 2>/dev/null || true
	wait "$feeder" 2>/dev/null || true
	awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" -v s="$secs" 'BEGIN { printf "%.2f%%", 100 * (b - a) / hz / s }'
}

main "$@"
