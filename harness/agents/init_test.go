package agents

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestNoInitWork: the list and each agent are data the linker lays out,
// so a start of the binary runs nothing and allocates nothing for them.
// The runtime's init trace of this test binary (which links the list and
// every agent) names each package whose initialisation does any work; none
// of these may be among them.
func TestNoInitWork(t *testing.T) {
	if os.Getenv("FLEETCOM_INIT_TRACE") == "1" {
		return // the traced run itself
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoInitWork$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "FLEETCOM_INIT_TRACE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the traced run failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "init runtime @") {
		t.Fatalf("no init trace:\n%s", out)
	}
	static := map[string]bool{module + "/harness/agents": true}
	for p := range agentPackages(t) {
		static[p] = true
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" && static[f[1]] {
			t.Errorf("%s does init work: %s", f[1], line)
		}
	}
}
