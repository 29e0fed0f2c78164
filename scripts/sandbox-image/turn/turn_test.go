package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is also the command: `start` runs its runner as os.Executable().
func TestMain(m *testing.M) {
	if os.Getenv("HANGAR_TURN_AS_COMMAND") == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type ran struct {
	code   int
	stdout string
	stderr string
}

// command runs this program as a separate process, as a workspace exec runs it.
func command(t *testing.T, stdin string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "HANGAR_TURN_AS_COMMAND=1")
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return ran{code, stdout.String(), stderr.String()}
}

type started struct {
	Sid   int  `json:"sid"`
	Fresh bool `json:"fresh"`
}

func start(t *testing.T, dir string, stdin string, args ...string) started {
	t.Helper()
	r := command(t, stdin, append([]string{"start", dir}, args...)...)
	if r.code != 0 {
		t.Fatalf("start exited %d: %s", r.code, r.stderr)
	}
	var s started
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s.Sid <= 0 {
		t.Fatalf("start printed %q (%v)", r.stdout, err)
	}
	return s
}

// followed follows the turn to its end: what it copied, and how it ended.
func followed(t *testing.T, dir string, from int) (string, followEnd) {
	t.Helper()
	r := command(t, "", "follow", dir, "--from", strconv.Itoa(from))
	if r.code != 0 {
		t.Fatalf("follow exited %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	var end followEnd
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &end); err != nil {
		t.Fatalf("follow's last stderr line %q: %v", lines[len(lines)-1], err)
	}
	return r.stdout, end
}

func turnIn(t *testing.T) string {
	return filepath.Join(t.TempDir(), "turns", "m1")
}

func TestAStartedTurnIsFollowedToItsExit(t *testing.T) {
	dir := turnIn(t)
	s := start(t, dir, "", "--cwd", "/", "--", "sh", "-c", "echo one; echo two >&2; pwd; echo three; exit 7")
	if !s.Fresh {
		t.Fatal("the first start did not start the turn")
	}
	out, end := followed(t, dir, 0)
	if out != "one\n/\nthree\n" {
		t.Fatalf("followed %q", out)
	}
	if end.State != "exited" || end.Code == nil || *end.Code != 7 {
		t.Fatalf("ended %+v", end)
	}
	stderr, _ := os.ReadFile(filepath.Join(dir, errFile))
	if string(stderr) != "two\n" {
		t.Fatalf("stderr file %q", stderr)
	}
	// From an offset: only what comes after it, as a worker that takes over reads it.
	out, _ = followed(t, dir, len("one\n/\n"))
	if out != "three\n" {
		t.Fatalf("followed from an offset %q", out)
	}
}

func TestATurnStartsOnceHoweverOftenItIsStarted(t *testing.T) {
	dir := turnIn(t)
	counter := filepath.Join(filepath.Dir(dir), "count")
	script := "echo ran >> " + counter + "; sleep 0.3; echo done"
	first := start(t, dir, "", "--", "sh", "-c", script)
	second := start(t, dir, "", "--", "sh", "-c", script)
	if !first.Fresh || second.Fresh || second.Sid != first.Sid {
		t.Fatalf("first %+v, second %+v", first, second)
	}
	out, end := followed(t, dir, 0)
	if out != "done\n" || end.State != "exited" || *end.Code != 0 {
		t.Fatalf("followed %q, %+v", out, end)
	}
	third := start(t, dir, "", "--", "sh", "-c", script)
	if third.Fresh || third.Sid != first.Sid {
		t.Fatalf("a start after the end: %+v", third)
	}
	count, _ := os.ReadFile(counter)
	if string(count) != "ran\n" {
		t.Fatalf("the command ran %q", count)
	}
}

func TestStdinIsKeptForTheAgent(t *testing.T) {
	dir := turnIn(t)
	start(t, dir, "a long prompt\n", "--stdin", "--", "cat")
	out, end := followed(t, dir, 0)
	if out != "a long prompt\n" || *end.Code != 0 {
		t.Fatalf("followed %q, %+v", out, end)
	}
}

func TestARunnerKilledWithoutAnExitIsLost(t *testing.T) {
	dir := turnIn(t)
	s := start(t, dir, "", "--", "sh", "-c", "echo before; sleep 30")
	// The whole session, as a container stop or an out-of-memory kill takes it.
	waitFor(t, "the agent's first line", func() bool {
		data, _ := os.ReadFile(filepath.Join(dir, outFile))
		return string(data) == "before\n"
	})
	if err := syscall.Kill(-s.Sid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	out, end := followed(t, dir, 0)
	if out != "before\n" || end.State != "lost" {
		t.Fatalf("followed %q, %+v", out, end)
	}
}

func TestExitsAreReportedAsAShellReportsThem(t *testing.T) {
	dir := turnIn(t)
	start(t, dir, "", "--", "sh", "-c", "kill -TERM $$")
	_, end := followed(t, dir, 0)
	if end.State != "exited" || *end.Code != 128+int(syscall.SIGTERM) || end.Signal != "terminated" {
		t.Fatalf("killed by a signal: %+v", end)
	}
	dir = turnIn(t)
	start(t, dir, "", "--", "no-such-agent-cli")
	_, end = followed(t, dir, 0)
	if end.State != "exited" || *end.Code != 127 {
		t.Fatalf("not found: %+v", end)
	}
}

func TestFollowingATurnThatNeverStarted(t *testing.T) {
	_, end := followed(t, turnIn(t), 0)
	if end.State != "missing" {
		t.Fatalf("ended %+v", end)
	}
}

func TestForgetRemovesOnlyEndedTurns(t *testing.T) {
	dir := turnIn(t)
	s := start(t, dir, "", "--", "sleep", "30")
	if r := command(t, "", "forget", dir); r.code != 1 || !exists(dir) {
		t.Fatalf("forget of a running turn: %+v", r)
	}
	syscall.Kill(-s.Sid, syscall.SIGKILL)
	waitFor(t, "the runner to end", func() bool {
		gone, _ := runnerGone(dir)
		return gone
	})
	if r := command(t, "", "forget", dir); r.code != 0 || exists(dir) {
		t.Fatalf("forget of an ended turn: %+v", r)
	}
	if r := command(t, "", "forget", "relative/dir"); r.code != 2 {
		t.Fatalf("forget of a relative path: %+v", r)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestAStartPrunesTurnsEndedLongAgo(t *testing.T) {
	old := turnIn(t)
	start(t, old, "", "--", "true")
	followed(t, old, 0)
	running := filepath.Join(filepath.Dir(old), "m2")
	s := start(t, running, "", "--", "sleep", "30")
	defer syscall.Kill(-s.Sid, syscall.SIGKILL)
	recent := filepath.Join(filepath.Dir(old), "m3")
	start(t, recent, "", "--", "true")
	followed(t, recent, 0)
	dayAgo := time.Now().Add(-25 * time.Hour)
	for _, dir := range []string{old, running} {
		if err := os.Chtimes(dir, dayAgo, dayAgo); err != nil {
			t.Fatal(err)
		}
	}
	start(t, filepath.Join(filepath.Dir(old), "m4"), "", "--", "true")
	if exists(old) || !exists(running) || !exists(recent) {
		t.Fatalf("after the prune: ended long ago %v, running %v, ended recently %v", exists(old), exists(running), exists(recent))
	}
}

func TestConnectJoinsStdioToAServerOnTheWorkspaceAddress(t *testing.T) {
	address, err := ownAddress()
	if err != nil {
		t.Skip("this machine has no non-loopback IPv4 address")
	}
	server, err := net.Listen("tcp", net.JoinHostPort(address, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	go func() {
		conn, err := server.Accept()
		if err != nil {
			return
		}
		request, _ := io.ReadAll(conn)
		conn.Write(append([]byte("echo: "), request...))
		conn.Close()
	}()
	port := strconv.Itoa(server.Addr().(*net.TCPAddr).Port)
	r := command(t, "ping\n", "connect", port)
	if r.code != 0 || r.stdout != "echo: ping\n" || r.stderr != "connected\n" {
		t.Fatalf("connect: %+v", r)
	}
	// Nothing listening: refused, and nothing on stdout.
	server.Close()
	r = command(t, "", "connect", port)
	if r.code != 3 || r.stdout != "" || !strings.HasPrefix(r.stderr, "refused:") {
		t.Fatalf("connect to nothing: %+v", r)
	}
}
