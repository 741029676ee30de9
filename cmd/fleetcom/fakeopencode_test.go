package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

func init() {
	registerFake(fake{role: "fake-opencode", tool: "opencode", dir: "real", main: fakeOpencode, vars: []string{"OPENCODE_CONFIG_CONTENT"},
		pkg: fakePackage{"opencode-ai", "1.18.33", "bin/opencode.exe"}})
}

// fakeOpencode behaves like opencode 1.18.33 (e2e/README.md): its data
// directory is $XDG_DATA_HOME/opencode (else ~/.local/share/opencode), and
// every conversation is rows of opencode.db there, written here with the
// sqlite3 program in the schema opencode's migrations make. No session
// exists before the first prompt, which creates it (its title: the
// prompt); /new starts another at the next prompt. -s <id> continues a
// session (exit 1 when there is none), wherever it is run from. The
// plugins OPENCODE_CONFIG_CONTENT names as file:// URLs are loaded (one
// that is not there fails the start), and each gets the events the real
// one gives fleetcom's plugin, written here as that plugin writes them to
// $FLEETCOM_CAPTURE_FILE (harness holds the plugin itself to the same
// lines, under node). At /exit, a session that exists is named:
// "Session <title>" and "Continue opencode -s <id>".
//
// Commands of its own: /permit asks for a permission and waits for the
// next line, as the TUI's dialog does; a prompt holding HOLD is answered
// after the next line. `opencode run MESSAGE` is one turn of a new session.
func fakeOpencode() int {
	if printVersion("1.18.33") {
		return 0
	}
	logArgv("opencode")
	o := &ocFake{data: ocDataDir(), cwd: physicalWd()}
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "run" {
		// opencode run MESSAGE: one turn of a new session, no TUI.
		if !o.loadPlugins() {
			return 1
		}
		o.prompt(strings.Join(args[1:], " "))
		return 0
	}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--help", "-h":
			fmt.Println("opencode [project]\n  -c, --continue  continue the last session\n  -s, --session   session id to continue")
			return 0
		case "-s", "--session":
			if i+1 < len(args) {
				i++
				o.resume = args[i]
			}
		}
	}
	if !o.loadPlugins() {
		return 1
	}
	if o.resume != "" {
		title, ok := o.lookup(o.resume)
		if !ok {
			fmt.Fprintln(os.Stderr, "Error: Session not found")
			return 1
		}
		o.id, o.title = o.resume, title
	}
	fmt.Print("\x1b[1mopencode\x1b[0m ready\r\n")
	t := &tui{onPrompt: o.prompt}
	o.t = t
	t.onCmd = func(cmd, arg string) bool {
		switch cmd {
		case "/new":
			o.id, o.title = "", ""
			fmt.Print("new session\r\n")
		case "/permit":
			o.status("busy")
			o.note(map[string]string{"event": "permission.asked", "id": o.current()})
			o.frame("Permission required: bash\r\n")
			if answer, ok := t.next(); ok {
				o.note(map[string]string{"event": "permission.replied", "id": o.current()})
				o.status("idle")
				o.frame(fmt.Sprintf("permission %s\r\n", answer))
			}
		default:
			return false
		}
		return true
	}
	code, signaled := t.run()
	if !signaled && o.id != "" {
		fmt.Printf("\r\n  \x1b[90mSession   \x1b[0m\x1b[1m%s\x1b[0m\r\n  \x1b[90mContinue  \x1b[0m\x1b[1mopencode -s %s\x1b[0m\r\n\r\n", o.title, o.id)
	}
	return code
}

// ocFake is one run of the fake.
type ocFake struct {
	data, cwd, resume string
	id, title         string // the session open now; "" before its first prompt
	plugin            bool   // a plugin is loaded: its lines go to the capture file
	t                 *tui
}

// ocDataDir is opencode's data directory.
func ocDataDir() string {
	if v := os.Getenv("XDG_DATA_HOME"); v != "" {
		return filepath.Join(v, "opencode")
	}
	return filepath.Join(os.Getenv("HOME"), ".local", "share", "opencode")
}

// loadPlugins loads what OPENCODE_CONFIG_CONTENT names: content that is not
// JSON, or a file:// plugin that is not there, fails the start.
func (o *ocFake) loadPlugins() bool {
	content := os.Getenv("OPENCODE_CONFIG_CONTENT")
	if content == "" {
		return true
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal([]byte(content), &cfg); err != nil {
		fmt.Fprintf(os.Stderr, "Error: Config file at OPENCODE_CONFIG_CONTENT is not valid JSON: %v\n", err)
		return false
	}
	var plugins []string
	json.Unmarshal(cfg["plugin"], &plugins) // one that is no list loads nothing here
	for _, p := range plugins {
		u, err := url.Parse(p)
		if err != nil || u.Scheme != "file" {
			continue
		}
		if _, err := os.Stat(u.Path); err != nil {
			fmt.Fprintf(os.Stderr, "Error: failed to load plugin %s: %v\n", p, err)
			return false
		}
		fmt.Printf("plugin %s\r\n", filepath.Base(u.Path))
		o.plugin = true
	}
	return true
}

// note writes one line as fleetcom's plugin does: to a regular capture
// file only, never creating it, never blocking.
func (o *ocFake) note(line map[string]string) {
	f := os.Getenv("FLEETCOM_CAPTURE_FILE")
	if !o.plugin || f == "" {
		return
	}
	fd, err := syscall.Open(f, syscall.O_WRONLY|syscall.O_APPEND|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return
	}
	b, _ := json.Marshal(line)
	syscall.Write(fd, append(b, '\n'))
}

func (o *ocFake) current() string { return o.id }

func (o *ocFake) status(s string) {
	o.note(map[string]string{"event": "session.status", "id": o.current(), "status": s})
}

// prompt answers a prompt, creating the session at the first one.
func (o *ocFake) prompt(text string) {
	now := time.Now().UnixMilli()
	var sql strings.Builder
	created := o.id == ""
	if created {
		o.id, o.title = ocNewID(), text
		fmt.Fprintf(&sql, "INSERT INTO session (id, project_id, slug, directory, path, title, version, time_created, time_updated) VALUES (%s, 'global', 'fake-slug', %s, '', %s, '1.18.33', %d, %d);\n",
			sqlQ(o.id), sqlQ(o.cwd), sqlQ("New session - "+time.UnixMilli(now).UTC().Format("2006-01-02T15:04:05.000Z")), now, now)
	}
	for i, m := range []struct{ role, text string }{{"user", text}, {"assistant", "ACK " + text}} {
		mid := fmt.Sprintf("msg_%x%s", now+int64(i), ocBase62(14))
		fmt.Fprintf(&sql, "INSERT INTO message VALUES (%s, %s, %d, %d, %s);\n", sqlQ(mid), sqlQ(o.id), now+int64(i), now+int64(i),
			sqlQ(fmt.Sprintf(`{"role":%q,"time":{"created":%d}}`, m.role, now)))
		part, _ := json.Marshal(map[string]string{"type": "text", "text": m.text})
		fmt.Fprintf(&sql, "INSERT INTO part VALUES (%s, %s, %s, %d, %d, %s);\n", sqlQ("prt_"+mid[4:]), sqlQ(mid), sqlQ(o.id), now, now, sqlQ(string(part)))
	}
	// The title request comes back before the answer.
	fmt.Fprintf(&sql, "UPDATE session SET title = %s, time_updated = %d WHERE id = %s;\n", sqlQ(o.title), now, sqlQ(o.id))
	if err := ocSQL(o.data, sql.String()); err != nil {
		fmt.Printf("fake opencode: %v\r\n", err)
		return
	}
	if created {
		o.note(map[string]string{"event": "session.created", "id": o.id, "parent": "", "directory": o.cwd})
	}
	o.status("busy")
	if strings.Contains(text, "HOLD") && o.t != nil {
		// The answer is held until the next line, as the fake API holds it.
		o.frame("thinking\r\n")
		o.t.next()
	}
	// The TUI draws the turn's end (its footer) in its next frame after
	// the status goes idle.
	fmt.Printf("ACK %s\r\n", text)
	o.status("idle")
	o.frame("\x1b[2m▣ Build · fake\x1b[0m\r\n")
}

// frame draws text as the TUI's next frame does: opencode's renderer
// draws at most every ocFrame, so what changed in between (a plugin's
// line) comes before the draw that shows it.
func (o *ocFake) frame(text string) {
	time.Sleep(ocFrame)
	fmt.Print(text)
}

// ocFrame is a frame of the fake's TUI.
const ocFrame = 30 * time.Millisecond

// lookup returns the title of session id, and whether there is one.
func (o *ocFake) lookup(id string) (string, bool) {
	if _, err := os.Stat(filepath.Join(o.data, "opencode.db")); err != nil {
		return "", false
	}
	out, err := exec.Command("sqlite3", "-readonly", "-init", os.DevNull, filepath.Join(o.data, "opencode.db"),
		"SELECT title FROM session WHERE id = "+sqlQ(id)).Output()
	if err != nil || len(out) == 0 {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// ocSQL runs statements on the data directory's database, making it (in
// WAL mode, with opencode's tables) the first time.
func ocSQL(data, statements string) error {
	db := filepath.Join(data, "opencode.db")
	if _, err := os.Stat(db); err != nil {
		statements = opencodetest.Schema + statements
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return err
	}
	cmd := exec.Command("sqlite3", "-batch", "-bail", "-init", os.DevNull, db)
	cmd.Stdin = strings.NewReader("PRAGMA busy_timeout = 5000;\n" + statements)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sqlite3: %v: %s", err, out)
	}
	return nil
}

func sqlQ(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// ocNewID makes an ID as opencode does: "ses_", the time inverted as 12
// hex digits, 14 characters of base 62.
func ocNewID() string {
	t := uint64(time.Now().UnixMilli())*4096 + uint64(rand.IntN(4096))
	return fmt.Sprintf("ses_%012x", ^t&(1<<48-1)) + ocBase62(14)
}

func ocBase62(n int) string {
	const digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[rand.IntN(len(digits))]
	}
	return string(b)
}
