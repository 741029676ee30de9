package shim

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// signaller is the named agent's reader of its terminal's words.
func signaller(t testing.TB, name string) harness.Signaller {
	t.Helper()
	a, ok := agents.Named(name)
	if !ok {
		t.Fatalf("no agent %s", name)
	}
	s, ok := a.Behaviour.(harness.Signaller)
	if !ok {
		t.Fatalf("%s reads no words of its terminal", name)
	}
	return s
}

// codexOutput is what Codex 0.171.0 wrote around an approval prompt,
// shortened: its state, its flashing title, and its drawing between.
var codexOutput = "\x1b[?2026h\x1b[47;3Hnow PERMIT\x1b[?2026l" +
	"\x1b]7501;state=working:app=codex\x1b\\" +
	"\x1b]0;\xe2\xa0\x87 now PERMIT | p\x07\x1b[44;3H\x1b[2mWorking\x1b[44;11H(0s" +
	"\x1b]7501;state=blocked:app=codex:kind=permission\x1b\\" +
	"\x1b[9;3H\x1b[1mRunning\x1b]0;[ ! ] Action Required | p\x07\x1b]0;[ . ] Action Required | p\x07" +
	"\x1b]7501;state=working:app=codex\x1b\\\x1b[14;1H\x1b[2m\xe2\x80\xa2 \x1b[22mACK" +
	"\x1b]7501;state=done:app=codex\x1b\\"

func scanAll(sig harness.Signaller, chunks ...string) []said {
	var got []said
	o := &oscScan{sig: sig, tell: func(s said) { got = append(got, s) }}
	for _, c := range chunks {
		o.scan([]byte(c))
	}
	return got
}

func TestOSCScan(t *testing.T) {
	sig := signaller(t, "codex")
	want := []said{{harness.Working, ""}, {harness.NeedsYou, "approval request"}, {harness.Working, ""}, {harness.Waiting, ""}}
	eq := func(got []said) bool {
		if len(got) != len(want) {
			return false
		}
		for i := range got {
			if got[i] != want[i] {
				return false
			}
		}
		return true
	}
	if got := scanAll(sig, codexOutput); !eq(got) {
		t.Fatalf("whole: %v, want %v", got, want)
	}
	// Cut anywhere, and cut twice: a command split between chunks is
	// still read, once.
	for i := 0; i <= len(codexOutput); i++ {
		for j := i; j <= len(codexOutput); j += 7 {
			if got := scanAll(sig, codexOutput[:i], codexOutput[i:j], codexOutput[j:]); !eq(got) {
				t.Fatalf("cut at %d and %d: %v, want %v", i, j, got, want)
			}
		}
	}
	// Byte by byte.
	var chunks []string
	for i := range len(codexOutput) {
		chunks = append(chunks, codexOutput[i:i+1])
	}
	if got := scanAll(sig, chunks...); !eq(got) {
		t.Fatalf("byte by byte: %v", got)
	}
}

func TestOSCScanBounds(t *testing.T) {
	sig := signaller(t, "codex")
	long := "\x1b]7501;state=blocked:app=codex:" + strings.Repeat("x=y:", oscMax) + "\x07"
	if got := scanAll(sig, long); len(got) != 0 {
		t.Errorf("a command longer than %d read: %v", oscMax, got)
	}
	if got := scanAll(sig, long[:100], long[100:]); len(got) != 0 {
		t.Errorf("a command longer than %d, cut, read: %v", oscMax, got)
	}
	// A command cut by another sequence says nothing past the cut, and
	// what follows is read.
	if got := scanAll(sig, "\x1b]7501;state=work\x1b[2J\x1b]7501;state=done:app=codex\x07"); len(got) != 1 || got[0].state != harness.Waiting {
		t.Errorf("cut command: %v", got)
	}
	// The same state said twice is told once.
	title := "\x1b]0;\xe2\x9c\x8b  Action Required (p)   \x07"
	if got := scanAll(signaller(t, "gemini"), title, "drawing", title); len(got) != 1 || got[0].state != harness.NeedsYou {
		t.Errorf("repeated title: %v", got)
	}
	// Scanning allocates nothing once its buffer exists.
	o := &oscScan{sig: sig, tell: func(said) {}}
	in := []byte(codexOutput)
	o.scan(in[:40])
	o.scan(in[40:])
	if n := testing.AllocsPerRun(100, func() { o.scan(in[:40]); o.scan(in[40:]) }); n != 0 {
		t.Errorf("%v allocations per scan", n)
	}
}

// TestLiveSignal: a run without hooks whose CLI says its state on its
// terminal shows needs-you at an approval prompt, and leaves it when the
// CLI says it works again, with no Enter typed (Codex takes y).
func TestLiveSignal(t *testing.T) {
	l, d, clk := newTestLive(t, nil, nil)
	l.signals(signaller(t, "codex"))
	l.start(os.Getpid(), liveID)
	quietUntil(t, clk, d, harness.Waiting)
	i := bytes.Index([]byte(codexOutput), []byte("\x1b[9;3H"))
	l.words([]byte(codexOutput[:i]))
	if r := liveState(t, d, harness.NeedsYou); r.Why != "approval request" || r.Hooked {
		t.Errorf("live file %+v", r)
	}
	rest := codexOutput[i:]
	j := strings.Index(rest, "\x1b]7501;state=done")
	l.words([]byte(rest[:j]))
	liveState(t, d, harness.Working)
	l.words([]byte(rest[j:]))
	liveState(t, d, harness.Waiting)
}

// A run with hooks is decided by them: its terminal's words are not read.
func TestLiveSignalHooked(t *testing.T) {
	a, _ := agents.Named("codex")
	l, _, _ := newTestLive(t, a.Behaviour.(harness.Stater), nil)
	l.signals(signaller(t, "codex"))
	if l.osc != nil {
		t.Error("a hooked run reads its terminal's words")
	}
}

// BenchmarkOSCScan is the copy loop's added work per chunk for a CLI whose
// terminal is read for its state, over Codex's own output.
// "codex" is Codex's own drawing, dense with state and title changes;
// "frames" is full-screen redraws with no operating system command, as
// the PTY throughput benchmarks send.
func BenchmarkOSCScan(b *testing.B) {
	frame := "\x1b[H\x1b[1;31mfleetcom \x1b[0m" + strings.Repeat("frame text ", 6) + "\x1b[K\r\n"
	for _, c := range []struct{ name, data string }{{"codex", codexOutput}, {"frames", frame}} {
		b.Run(c.name, func(b *testing.B) {
			chunk := []byte(strings.Repeat(c.data, 16384/len(c.data)+1)[:16384])
			o := &oscScan{sig: signaller(b, "codex"), tell: func(said) {}}
			b.SetBytes(int64(len(chunk)))
			for b.Loop() {
				o.scan(chunk)
			}
		})
	}
}

// However the output is cut into chunks, the scan tells the same states.
func FuzzOSCScan(f *testing.F) {
	f.Add([]byte(codexOutput), uint16(34), uint16(200))
	f.Add([]byte("\x1b]0;\xe2\x9c\x8b  Action Required (p)\x07\x1b]0;\xe2\x97\x87  Ready (p)\x1b\\"), uint16(3), uint16(9))
	f.Add([]byte("\x1b]0;"+strings.Repeat("x", oscMax+10)+"\x07\x1b]7501;state=done:app=codex\x07"), uint16(300), uint16(520))
	sigs := []harness.Signaller{signaller(f, "codex"), signaller(f, "gemini")}
	f.Fuzz(func(t *testing.T, data []byte, i, j uint16) {
		a, b := min(int(i), len(data)), min(int(j), len(data))
		if a > b {
			a, b = b, a
		}
		for _, sig := range sigs {
			whole := scanAll(sig, string(data))
			cut := scanAll(sig, string(data[:a]), string(data[a:b]), string(data[b:]))
			if len(whole) != len(cut) {
				t.Fatalf("whole %v, cut at %d and %d %v", whole, a, b, cut)
			}
			for k := range whole {
				if whole[k] != cut[k] {
					t.Fatalf("whole %v, cut at %d and %d %v", whole, a, b, cut)
				}
			}
		}
	})
}
