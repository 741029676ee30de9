#!/usr/bin/env bash
# Times `fleetcom __complete resume ''`, the command a shell runs on
# `fleetcom resume <TAB>`, in a directory holding 10 of 10,000 saved
# sessions (1,000 directories), and again with a Codex home of 50,000
# rollouts to discover from (warm index), paired round by round by
# bench/pair with a static Go hello world (the anchor) and `fleetcom
# version` (the binary's own start-up). The goal is a median of at most
# 20 ms.
#
#   bench/complete.sh [ROUNDS]    (default 300)

set -euo pipefail

main() {
	local rounds=${1:-300}
	local root tmp
	root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleetcom-complete-bench.XXXXXX")
	trap "rm -rf -- $(printf %q "$tmp")" EXIT

	echo "building static binaries"
	cd -- "$root"
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/fleetcom" ./cmd/fleetcom
	CGO_ENABLED=0 go build -trimpath -o "$tmp/pair" ./bench/pair
	mkdir "$tmp/hello"
	printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$tmp/hello/main.go"
	(cd -- "$tmp/hello" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp/hello-go" main.go)

	echo "writing 10,000 sessions in 1,000 directories (each write is synced: this takes a while)"
	local cwd
	cwd=$(FLEETCOM_BENCH_STORE="$tmp/state/fleetcom" FLEETCOM_BENCH_WORK="$tmp/work" \
		go test -count=1 -run '^TestWriteBenchStore$' -v ./cmd/fleetcom/ | sed -n 's/^cwd //p')
	[ -d "$cwd" ] || { echo "complete.sh: building the store failed" >&2; exit 1; }
	sync # so the writes' flush does not land in the timed runs

	echo "writing a Codex home of 50,000 rollouts over two years, 2,500 of them in that directory"
	FLEETCOM_BENCH_CODEX="$tmp/codex" FLEETCOM_BENCH_CWD="$cwd" \
		go test -count=1 -run '^TestWriteBenchCodexHome$' ./cmd/fleetcom/ >/dev/null
	mkdir -p "$tmp/empty/codex" "$tmp/empty/claude" "$tmp/empty/grok" "$tmp/home"

	cd -- "$cwd"
	# Only scratch homes are read: the machine's own ~/.claude and ~/.codex
	# stay out of the figures.
	export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home" CLAUDE_CONFIG_DIR="$tmp/empty/claude" GROK_HOME="$tmp/empty/grok"
	echo "candidates offered: $(CODEX_HOME="$tmp/empty/codex" "$tmp/fleetcom" __complete resume '' | wc -l) (3 tools, 10 sessions)"
	echo "with the Codex home: $(CODEX_HOME="$tmp/codex" "$tmp/fleetcom" __complete resume '' | wc -l) (the first run builds the index)"
	"$tmp/pair" -n "$rounds" -title "fleetcom resume <TAB>, 10,000 sessions ($rounds rounds)" \
		-labels "Go hello world,fleetcom version,__complete (10k records),__complete (+50k rollouts)" \
		-- "$tmp/hello-go" \
		-- "$tmp/fleetcom" version \
		-- "CODEX_HOME=$tmp/empty/codex" "$tmp/fleetcom" __complete resume '' \
		-- "CODEX_HOME=$tmp/codex" "$tmp/fleetcom" __complete resume ''
}

main "$@"
