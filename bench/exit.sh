#!/usr/bin/env bash
# Times a shim's whole run, its exit included, when the CLI resumed a
# conversation of an odd shape, paired round by round by bench/pair with
# the same run resuming an ordinary conversation of the same agent (the
# target: the odd one costs no more):
#
#   claude  a 100 MB transcript whose first lines are a sub-agent's
#   codex   a 320 MB rollout of tool output
#   gemini  a 113 MB session of tool output
#
# Each "CLI" is a script standing in for the real one: it runs for
# EXIT_RUN seconds (a conversation's length: the shim reads a resumed
# Gemini session ahead a second into the run), appends a turn to the
# conversation's file as the agent would, and exits. The shim then looks
# at the conversation to record it, as it does after the real CLI.
#
#   bench/exit.sh                 EXIT_ROUNDS=15 EXIT_RUN=1.5
#   EXIT_RUN=0 bench/exit.sh      the CLI exits at once: nothing read ahead
#   EXIT_ONLY="codex" bench/exit.sh
#   FLEETCOM_SHIM=/path/fleetcom-shim bench/exit.sh

set -euo pipefail

main() {
	local rounds=${EXIT_ROUNDS:-15} run=${EXIT_RUN:-1.5} only=${EXIT_ONLY:-claude codex gemini}
	local root
	root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/fleetcom-exit-bench.XXXXXX")
	trap 'rm -rf -- "$tmp"' EXIT
	unset CLAUDE_CONFIG_DIR CODEX_HOME GEMINI_CLI_HOME FLEETCOM_RUNTIME_DIR

	echo "building static binaries"
	cd -- "$root"
	mkdir -p "$tmp/bin" "$tmp/shims" "$tmp/real"
	if [[ -n ${FLEETCOM_SHIM:-} ]]; then
		cp "$FLEETCOM_SHIM" "$tmp/bin/fleetcom-shim"
	else
		CGO_ENABLED=0 go build -trimpath -o "$tmp/bin/fleetcom-shim" ./cmd/fleetcom-shim
	fi
	CGO_ENABLED=0 go build -trimpath -o "$tmp/pair" ./bench/pair
	CGO_ENABLED=0 go build -trimpath -o "$tmp/genstore" ./bench/genstore

	declare -A odd=([claude]="-claude-sidechain 1" [codex]="-codex-big-mb 300" [gemini]="-gemini-big-mb 100")
	for tool in $only; do
		[[ -n ${odd[$tool]:-} ]] || {
			echo "exit.sh: unknown agent $tool (known: ${!odd[*]})" >&2
			exit 2
		}
		ln -s "$tmp/bin/fleetcom-shim" "$tmp/shims/$tool"
		fake "$tool" >"$tmp/real/$tool"
		chmod +x "$tmp/real/$tool"
		# shellcheck disable=SC2086 # the flags are words
		"$tmp/genstore" -root "$tmp/$tool-odd" ${odd[$tool]} >/dev/null 2>&1
		"$tmp/genstore" -root "$tmp/$tool-one" "-$tool" 1 >/dev/null 2>&1
		echo
		echo "## $tool: $(cut -f8 "$tmp/$tool-odd/manifest.tsv" | tail -1), $(($(cut -f6 "$tmp/$tool-odd/manifest.tsv" | tail -1) >> 20)) MB, against one of $(($(cut -f6 "$tmp/$tool-one/manifest.tsv" | tail -1) >> 10)) KB; the CLI runs ${run} s"
		"$tmp/pair" -n "$rounds" -pty -rusage -shuffle -labels ordinary,odd \
			-- sh -c "$(runline "$tool" one "$run")" \
			-- sh -c "$(runline "$tool" odd "$run")" | tail -n 3
		echo "recorded: $(find "$tmp/state-$tool-one" "$tmp/state-$tool-odd" -path '*/records/*.json' | wc -l) of 2"
	done
}

# runline TOOL WORLD RUN: the command line of one run of the shim, in the
# world's project, resuming its conversation.
runline() {
	local tool=$1 w=$tmp/$1-$2 run=$3 id file resume=--resume
	id=$(cut -f2 "$w/manifest.tsv" | tail -1)
	file=$(cut -f10 "$w/manifest.tsv" | tail -1)
	[[ $tool == codex ]] && resume=resume
	printf 'cd %q && exec env FLEETCOM_SHIM_DIR=%q HOME=%q XDG_DATA_HOME=%q XDG_STATE_HOME=%q XDG_CACHE_HOME=%q XDG_CONFIG_HOME=%q XDG_RUNTIME_DIR=%q PATH=%q FAKE_RUN=%q FAKE_FILE=%q %q %s %q' \
		"$w/work/project-0000" "$tmp/shims" "$w/home" "$w/data" "$tmp/state-$tool-$2" "$tmp/cache-$tool-$2" "$tmp/config" "$tmp/run-$tool-$2" \
		"$tmp/shims:$tmp/real:/usr/bin:/bin" "$run" "$file" "$tmp/shims/$tool" "$resume" "$id"
}

# fake TOOL: the script standing in for the CLI: it appends one prompt, in
# the agent's own format, to the conversation's file.
fake() {
	local line
	case $1 in
	claude) line='{"type":"user","message":{"role":"user","content":"one more"},"uuid":"00000000-0000-4000-8000-%012d","timestamp":"2026-12-08T00:00:00.000Z"}' ;;
	codex) line='{"timestamp":"2026-12-08T00:00:00.000Z","type":"event_msg","payload":{"type":"user_message","message":"one more %d"}}' ;;
	gemini) line='{"id":"x%d","timestamp":"2026-12-08T00:00:00.000Z","type":"user","content":[{"text":"one more"}]}' ;;
	esac
	printf '#!/bin/sh\nsleep "$FAKE_RUN"\nprintf %q"\\\\n" "$$" >>"$FAKE_FILE"\necho bye\n' "$line"
}

main "$@"
