#!/usr/bin/env bash
# Times `fleetcom status` with 50 live runs (the target: at most 50 ms,
# about three process starts), paired round by round by bench/pair with its
# anchors: three process starts (sh running true twice) and a static Go
# hello world. The runs are 50 sleeping processes with live files as shims
# write them, mixed over the agents; 10 of them sit in panes of a tmux
# server of the script's own, so status asks tmux once, as it does for a
# real fleet.
#
#   bench/status.sh [ROUNDS]    (default 300)
#
# A second store holds the same 50 runs with none in tmux: the difference
# is the one question status asks of the tmux server.

set -euo pipefail

main() {
	local rounds=${1:-300}
	local root
	root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleetcom-status-bench.XXXXXX")
	pids=()
	cleanup() {
		if ((${#pids[@]} > 0)); then kill "${pids[@]}" 2>/dev/null || true; fi
		tmux -S "$tmp/tmux.sock" kill-server 2>/dev/null || true
		rm -rf -- "$tmp"
	}
	trap cleanup EXIT

	echo "building static binaries"
	cd -- "$root"
	CGO_ENABLED=0 go build -trimpath -o "$tmp/fleetcom" ./cmd/fleetcom
	CGO_ENABLED=0 go build -trimpath -o "$tmp/pair" ./bench/pair
	mkdir "$tmp/hello"
	printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$tmp/hello/main.go"
	(cd -- "$tmp/hello" && CGO_ENABLED=0 go build -trimpath -o "$tmp/hello-go" main.go)
	# status counts a run only while its CLI is the child of its shim, a
	# fleetcom: the sleeps stand for the CLIs, and the holder, built as a
	# program named fleetcom, for their shims.
	mkdir "$tmp/holder"
	CGO_ENABLED=0 go build -trimpath -o "$tmp/holder/fleetcom" ./bench/holder

	local live="$tmp/state/fleetcom/live" plain="$tmp/plain/fleetcom/live" boot b8 pane
	mkdir -p "$live" "$plain" "$tmp/home/.claude" "$tmp/home/.codex" "$tmp/home/.grok"
	boot=$(cat /proc/sys/kernel/random/boot_id)
	b8=${boot:0:8}
	tmux -S "$tmp/tmux.sock" new-session -d -x 80 -y 24 sleep 3600
	pane=$(tmux -S "$tmp/tmux.sock" display-message -p '#{pane_id}')
	local tools=(claude codex grok) states=(working waiting needs-you starting)
	echo "writing 50 live runs"
	"$tmp/holder/fleetcom" >"$tmp/holder/pids" 2>/dev/null &
	local holder=$!
	pids+=("$holder")
	while (($(wc -l <"$tmp/holder/pids") < 50)); do sleep 0.1; done
	local runs
	mapfile -t runs <"$tmp/holder/pids"
	pids+=("${runs[@]}")
	for i in $(seq 0 49); do
		local pid=${runs[i]} start tmuxjson=null
		start=$(cut -d' ' -f22 "/proc/$pid/stat")
		((i < 10)) && tmuxjson="{\"socket\":\"$tmp/tmux.sock\",\"pane\":\"$pane\",\"target\":\"\"}"
		for dir in "$live" "$plain"; do
			printf '{"tool":"%s","id":"0f8b2c3e-4d5a-4b6c-8d7e-%012d","cwd":"/srv/project-%d","home":"%s/home/.%s","state":"%s","since":"2026-12-01T10:00:%02dZ","started":"2026-12-01T09:00:00Z","pid":%s,"pid_start":"%s","boot":"%s","shim_pid":%s,"tty":"/dev/pts/%d","tmux":%s}\n' \
				"${tools[i % 3]}" "$i" "$i" "$tmp" "${tools[i % 3]}" "${states[i % 4]}" "$i" "$pid" "$start" "$boot" "$holder" "$i" "$tmuxjson" \
				>"$dir/$b8-$pid-$start.json"
			tmuxjson=null
		done
	done
	export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
	echo "runs shown: $("$tmp/fleetcom" status --json | grep -c '"tool"') (of 50)"
	"$tmp/pair" -n "$rounds" -title "fleetcom status, 50 live runs ($rounds rounds)" \
		-labels "three process starts,Go hello world,fleetcom status --json,fleetcom status,status --json (no tmux)" \
		-- sh -c 'true; /bin/true; /bin/true' \
		-- "$tmp/hello-go" \
		-- "$tmp/fleetcom" status --json \
		-- "$tmp/fleetcom" status \
		-- "XDG_STATE_HOME=$tmp/plain" "$tmp/fleetcom" status --json
}

main "$@"
