package claude

// Claude Code's hooks, given inline with --settings on every instrumented run
// (claude.go says why inline). Every hook is gated on $FLEETCOM_CAPTURE_FILE:
// without it (a resume line Claude printed, run later by hand) each one
// reads its payload and does nothing. The capture file must be a regular
// file and not a symlink, so a swapped-in FIFO never blocks Claude, and a
// payload is only ever data on a pipe, never shell text.
//
//   - SessionStart and SessionEnd append their payload, newlines removed, as
//     one line: the conversation's ID (ParseCapture) and how it ended.
//   - The others append one fixed line naming their event (States): the
//     payloads of tool and stop events can be large (a tool's output, the
//     last answer), and nothing in them is needed.
//
// Measured on 2.1.197 and 2.1.332 (e2e/README.md, "Live state"): in the TUI,
// UserPromptSubmit fires as a prompt is sent, PermissionRequest as a
// permission prompt shows, Notification (permission_prompt) about six
// seconds later, PostToolUse once a tool ran, Stop when the turn ends, and
// SessionEnd (reason clear, prompt_input_exit, ...) when a conversation
// ends. Interrupting a turn with Esc fires none of them: Claude's own record
// of its running sessions (View) says so.
//
// settingsDoc is written out rather than marshalled: it is the same for
// every run. TestSettingsHook decodes it and runs every hook.
const settingsDoc = `{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then { tr -d '\\r\\n'; echo; } >>\"$f\"; else cat >/dev/null; fi; exit 0"
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"UserPromptSubmit\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "PermissionRequest": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PermissionRequest\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "Notification": [
      {
        "matcher": "permission_prompt",
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Notification\",\"notification_type\":\"permission_prompt\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      },
      {
        "matcher": "elicitation_dialog",
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Notification\",\"notification_type\":\"elicitation_dialog\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PostToolUse\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "matcher": "*",
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PostToolUseFailure\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Stop\"}' >>\"$f\"; fi; exit 0"
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then { tr -d '\\r\\n'; echo; } >>\"$f\"; else cat >/dev/null; fi; exit 0"
          }
        ]
      }
    ]
  }
}
`

// inlineSettings is settingsDoc on one line, for --settings. It
// is written out too (TestSettingsHook holds it to json.Compact of
// settingsDoc): compacting it on every run cost a shim start the first
// use of encoding/json's scanner.
func inlineSettings() string { return settingsInline }

const settingsInline = `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then { tr -d '\\r\\n'; echo; } >>\"$f\"; else cat >/dev/null; fi; exit 0"}]}],"UserPromptSubmit":[{"hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"UserPromptSubmit\"}' >>\"$f\"; fi; exit 0"}]}],"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PermissionRequest\"}' >>\"$f\"; fi; exit 0"}]}],"Notification":[{"matcher":"permission_prompt","hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Notification\",\"notification_type\":\"permission_prompt\"}' >>\"$f\"; fi; exit 0"}]},{"matcher":"elicitation_dialog","hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Notification\",\"notification_type\":\"elicitation_dialog\"}' >>\"$f\"; fi; exit 0"}]}],"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PostToolUse\"}' >>\"$f\"; fi; exit 0"}]}],"PostToolUseFailure":[{"matcher":"*","hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PostToolUseFailure\"}' >>\"$f\"; fi; exit 0"}]}],"Stop":[{"hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Stop\"}' >>\"$f\"; fi; exit 0"}]}],"SessionEnd":[{"hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then { tr -d '\\r\\n'; echo; } >>\"$f\"; else cat >/dev/null; fi; exit 0"}]}]}}`

// captureSettings is the SessionStart hook alone, for a run whose user
// turned state hooks off ([claude] hooks = false): the conversation's ID is
// still captured. It is settingsDoc' SessionStart entry.
const captureSettings = `{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then { tr -d '\\r\\n'; echo; } >>\"$f\"; else cat >/dev/null; fi; exit 0"}]}]}}`
