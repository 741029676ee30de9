package copilot

// The plugin fleetcom gives each run (hooks.go), as Copilot reads its
// plugin.json. Constants rather than embedded files: the Spec whose assets
// they are is then data the linker lays out, and a shim's start runs
// nothing to build it.

// plugin has every hook fleetcom reads.
const plugin = `{
  "name": "fleetcom",
  "description": "fleetcom: which session this run has open, and what it is doing (a no-op unless FLEETCOM_CAPTURE_FILE is set)",
  "version": "1.0.0",
  "hooks": {
    "SessionStart": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; p=$(tr -d '\\r\\n'); id=${p#*'\"session_id\":\"'}; id=${id%%'\"'*}; case $id in ''|*[!0-9a-f-]*) id=;; esac; if [ -n \"$id\" ] && [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then printf '{\"hook_event_name\":\"SessionStart\",\"session_id\":\"%s\"}\\n' \"$id\" >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ],
    "UserPromptSubmit": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"UserPromptSubmit\"}' >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ],
    "Notification": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; p=$(tr -d '\\r\\n'); case $p in *'\"notification_type\":\"permission_prompt\"'*) t=permission_prompt;; *'\"notification_type\":\"elicitation_dialog\"'*) t=elicitation_dialog;; *) t=;; esac; if [ -n \"$t\" ] && [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then printf '{\"hook_event_name\":\"Notification\",\"notification_type\":\"%s\"}\\n' \"$t\" >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ],
    "PostToolUse": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"PostToolUse\"}' >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ],
    "Stop": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then echo '{\"hook_event_name\":\"Stop\"}' >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ],
    "SessionEnd": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; p=$(tr -d '\\r\\n'); id=${p#*'\"session_id\":\"'}; id=${id%%'\"'*}; case $id in ''|*[!0-9a-f-]*) id=;; esac; r=${p#*'\"reason\":\"'}; r=${r%%'\"'*}; case $r in *[!a-z_]*) r=;; esac; if [ -n \"$id\" ] && [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then printf '{\"hook_event_name\":\"SessionEnd\",\"session_id\":\"%s\",\"reason\":\"%s\"}\\n' \"$id\" \"$r\" >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ]
  }
}
`

// capturePlugin has SessionStart alone, for a run whose user turned state
// hooks off.
const capturePlugin = `{
  "name": "fleetcom",
  "description": "fleetcom: which session this run has open (a no-op unless FLEETCOM_CAPTURE_FILE is set)",
  "version": "1.0.0",
  "hooks": {
    "SessionStart": [
      {
        "type": "command",
        "bash": "f=${FLEETCOM_CAPTURE_FILE:-}; p=$(tr -d '\\r\\n'); id=${p#*'\"session_id\":\"'}; id=${id%%'\"'*}; case $id in ''|*[!0-9a-f-]*) id=;; esac; if [ -n \"$id\" ] && [ -n \"$f\" ] && [ -f \"$f\" ] && [ ! -h \"$f\" ]; then printf '{\"hook_event_name\":\"SessionStart\",\"session_id\":\"%s\"}\\n' \"$id\" >>\"$f\"; fi; exit 0",
        "timeoutSec": 10
      }
    ]
  }
}
`
