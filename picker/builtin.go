package picker

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// escWait is how long a lone ESC waits for the rest of a sequence before it
// counts as the Esc key. Terminals send a key's sequence in one write; the
// wait only covers a sequence split in transit (ssh, a loaded machine).
const escWait = 100 * time.Millisecond

// Signals while the built-in picker is open. The terminal is raw, so the
// keyboard sends no signals: Ctrl-C and Ctrl-Z are keys. What arrives was
// sent on purpose:
//   - SIGINT, SIGTERM, SIGHUP: the terminal is restored and Pick returns a
//     *SignalError, for the caller to re-raise after its own cleanup
//     (nothing in a library may end the process). One that arrives while
//     the terminal is being restored after a choice is reported the same way.
//   - SIGTSTP: the terminal is restored and the process stops (SIGSTOP); on
//     SIGCONT the picker takes the terminal back and redraws. A SIGCONT
//     after any other stop redraws too. In an orphaned process group, where
//     no shell could continue it, SIGTSTP is ignored, as the kernel does.
//   - SIGWINCH: redraw at the new size.
//
// A signal that was ignored when the picker opened (nohup) stays ignored.
var watched = []os.Signal{
	syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP,
	syscall.SIGTSTP, syscall.SIGCONT, syscall.SIGWINCH,
}

// afterFrame, when set (by tests only), runs after each frame is drawn.
var afterFrame func()

// builtin runs the built-in picker on the terminal in/out.
func builtin(rows []Row, o Options, in, out *os.File) (idx []int, err error) {
	if os.Getenv("TERM") == "dumb" {
		return nil, fmt.Errorf("%w: TERM=dumb cannot show a picker", ErrNoTerminal)
	}
	m := newModel(newTable(o.Header, rows))
	m.multi = o.Multi
	if o.Text != nil {
		m.keys = make([]string, len(rows))
		for i, r := range rows {
			m.keys[i] = r.Key
		}
	}
	m.setFilter(o.Query)
	more := o.More
	m.loading = more != nil
	done := make(chan struct{})
	defer close(done)
	text := asker{o: o, done: done, answers: make(chan answer, 1)}
	defer text.stop()

	sigc := make(chan os.Signal, 8)
	for _, s := range watched {
		if !signal.Ignored(s) {
			signal.Notify(sigc, s)
		}
	}
	defer func() {
		signal.Stop(sigc)
		for err == nil || err == ErrCancelled {
			select {
			case s := <-sigc:
				if s == syscall.SIGINT || s == syscall.SIGTERM || s == syscall.SIGHUP {
					idx, err = nil, &SignalError{s.(syscall.Signal)}
				}
			default:
				return
			}
		}
	}()

	scr, err := openScreen(in, out)
	if err != nil {
		return nil, err
	}
	defer scr.leave()
	rd, err := startReader(int(in.Fd()))
	if err != nil {
		return nil, err
	}
	defer rd.stop()

	var dec decoder
	var esc *time.Timer
	var escC <-chan time.Time
	defer func() {
		if esc != nil {
			esc.Stop()
		}
	}()
	w, h := scr.size()
	draw := func() error {
		if !scr.on {
			return nil // stopped, or about to: the terminal is not the picker's
		}
		err := scr.write(m.frame(w, h))
		if afterFrame != nil {
			afterFrame()
		}
		return err
	}
	if err := draw(); err != nil {
		return nil, err
	}
	text.typed(string(m.filter))
	for {
		var keys []key
		select {
		case <-text.c:
			text.ask(string(m.filter))
			continue
		case a := <-text.answers:
			m.found(a.filter, a.keys, listRows(h))
		case batch, ok := <-more:
			if !ok {
				more, m.loading = nil, false
				break
			}
			if err := checkKeys(batch); err != nil {
				return nil, err
			}
			m.add(batch)
		case b := <-rd.bytes:
			keys = dec.feed(b)
			if dec.waiting() {
				if esc == nil {
					esc = time.NewTimer(escWait)
				} else {
					esc.Reset(escWait)
				}
				escC = esc.C
			} else {
				escC = nil
			}
		case <-escC:
			keys, escC = dec.flush(), nil
		case err := <-rd.errs:
			return nil, err
		case s := <-sigc:
			switch s {
			case syscall.SIGWINCH:
				w, h = scr.size()
			case syscall.SIGTSTP:
				if orphaned() {
					continue
				}
				scr.leave()
				if syscall.Kill(os.Getpid(), syscall.SIGSTOP) == nil {
					continue // SIGCONT follows, and redraws
				}
				if err := scr.enter(); err != nil {
					return nil, err
				}
			case syscall.SIGCONT:
				if err := scr.enter(); err != nil {
					return nil, err
				}
				w, h = scr.size()
			default:
				return nil, &SignalError{s.(syscall.Signal)}
			}
		}
		for _, k := range keys {
			switch m.press(k, listRows(h)) {
			case chosen:
				return m.chosen(), nil
			case cancelled:
				return nil, ErrCancelled
			}
		}
		text.typed(string(m.filter))
		if err := draw(); err != nil {
			return nil, err
		}
	}
}

// textWait is how long typing pauses before Options.Text is asked about
// the filter: a question per key would queue searches the next key makes
// stale.
const textWait = 150 * time.Millisecond

// answer is what Options.Text returned for a filter.
type answer struct {
	filter string
	keys   []string
}

// asker asks Options.Text in the background: once the filter has stayed
// the same for textWait (c fires), about that filter, unless it was asked
// already. Answers come on answers; those for a filter since changed are
// dropped by the model (found).
type asker struct {
	o       Options
	done    <-chan struct{}
	answers chan answer
	timer   *time.Timer
	c       <-chan time.Time
	asked   string
}

// typed says the filter is now f.
func (a *asker) typed(f string) {
	if a.o.Text == nil || f == a.asked {
		return
	}
	if a.timer == nil {
		a.timer = time.NewTimer(textWait)
	} else {
		a.timer.Reset(textWait)
	}
	a.c = a.timer.C
}

// ask asks about f, in the background.
func (a *asker) ask(f string) {
	a.c, a.asked = nil, f
	if strings.TrimSpace(f) == "" {
		return // nothing to look for; the columns alone decide
	}
	go func() {
		keys := a.o.Text(f)
		select {
		case a.answers <- answer{f, keys}:
		case <-a.done:
		}
	}()
}

func (a *asker) stop() {
	if a.timer != nil {
		a.timer.Stop()
	}
}

// screen is the terminal while the picker owns it: raw, on the alternate
// screen. leave puts it back as it was found and may be called any number
// of times.
type screen struct {
	fd    int // the input side, whose modes are changed
	out   *os.File
	saved *term.State
	on    bool
}

func openScreen(in, out *os.File) (*screen, error) {
	fd := int(in.Fd())
	saved, err := term.GetState(fd)
	if err != nil {
		return nil, fmt.Errorf("read terminal modes: %w", err)
	}
	s := &screen{fd: fd, out: out, saved: saved}
	if err := s.enter(); err != nil {
		s.leave()
		return nil, err
	}
	return s, nil
}

// enter makes the terminal raw and switches to the alternate screen; it is
// also how the picker takes the terminal back after a stop.
func (s *screen) enter() error {
	if _, err := term.MakeRaw(s.fd); err != nil {
		return fmt.Errorf("set terminal modes: %w", err)
	}
	s.on = true
	return s.write([]byte(enterSeq))
}

func (s *screen) leave() {
	if !s.on {
		return
	}
	s.on = false
	_, _ = s.out.Write([]byte(leaveSeq))
	_ = term.Restore(s.fd, s.saved)
}

func (s *screen) write(b []byte) error {
	if _, err := s.out.Write(b); err != nil {
		return fmt.Errorf("write terminal: %w", err)
	}
	return nil
}

// size is the terminal's size, or 80×24 when it does not say.
func (s *screen) size() (int, int) {
	w, h, err := term.GetSize(int(s.out.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return 80, 24
	}
	return w, h
}

// orphaned tells from the parent alone whether the process group is
// orphaned: a parent in the same session (a shell with job control, or a
// process of the same job) can continue a stopped job; one in another
// session cannot.
func orphaned() bool {
	parent := os.Getppid()
	psid, err := unix.Getsid(parent)
	if err != nil {
		return true
	}
	sid, err := unix.Getsid(0)
	return err != nil || psid != sid
}
