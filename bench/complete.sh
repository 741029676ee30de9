#!/usr/bin/env bash
# Times `fleetcom __complete resume ''`, the command a shell runs on
# `fleetcom resume <TAB>`, in a directory holding 10 of 10,000 saved
# sessions (1,000 directories), paired round by round by bench/pair with a
# static Go hello world (the anchor) and `fleetcom version` (the binary's
# own start-up). The goal is a median of at most 20 ms.
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

	cd -- "$cwd"
	export XDG_STATE_HOME="$tmp/state"
	echo "candidates offered: $("$tmp/fleetcom" __complete resume '' | wc -l) (3 tools, 10 sessions)"
	"$tmp/pair" -n "$rounds" -title "fleetcom resume <TAB>, 10,000 sessions ($rounds rounds)" \
		-labels "Go hello world,fleetcom version,fleetcom __complete resume ''" \
		-- "$tmp/hello-go" -- "$tmp/fleetcom" version -- "$tmp/fleetcom" __complete resume ''
}

main "$@"
