package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A tool call the agent makes and reports: a shell command or a file write.
type toolCall struct {
	id      string
	kind    string // "shell" or "write"
	command string
	path    string
	content string
	created bool
}

// What every protocol encoder turns into its own JSON lines.
type encoder interface {
	start(prompt string)
	thinking(text string)
	text(text string)
	toolStarted(call toolCall)
	toolFinished(call toolCall, output string, exitCode int)
	finish(ok bool, text, errMsg string)
}

type agent struct {
	opts     options
	cwd      string
	out      io.Writer
	session  *session
	enc      encoder
	started  time.Time
	replies  []string
	calls    int
	lastText string
}

func newAgent(opts options, cwd string, out io.Writer) *agent {
	return &agent{opts: opts, cwd: cwd, out: out, started: time.Now()}
}

// turn runs one turn and returns the process exit code.
func (a *agent) turn() int {
	id := a.opts.resume
	if id == "" {
		id = a.opts.sessionID
	}
	if id == "" {
		id = newSessionID()
	}
	a.enc = newEncoder(a.opts, id, a.cwd, a.out)
	a.enc.start(a.opts.prompt)
	if !validSessionID(id) {
		return a.fail(fmt.Sprintf("invalid session id %q", id), false)
	}
	s, err := loadSession(id)
	if err != nil {
		return a.fail(err.Error(), false)
	}
	if s == nil && a.opts.resume != "" {
		return a.fail(fmt.Sprintf("No conversation found with session ID: %s", id), false)
	}
	if s == nil {
		s = &session{ID: id, Protocol: a.opts.protocol}
	}
	a.session = s
	earlier := len(s.Turns)
	// Saved as the turn starts, as the real CLIs save theirs as they go: a turn cut short (its
	// process killed) is in the session, which can be resumed.
	s.Turns = append(s.Turns, sessionTurn{Prompt: a.opts.prompt, At: time.Now().UTC().Format(time.RFC3339Nano)})
	if err := s.save(); err != nil {
		return a.fail(err.Error(), false)
	}
	lines := promptLines(a.opts.prompt)
	if a.opts.thinking != "" {
		a.enc.thinking(fmt.Sprintf("thinking (%s) about %d prompt lines", a.opts.thinking, len(lines)))
	}
	a.say(fmt.Sprintf("turn %d (%d earlier)", earlier+1, earlier))
	for _, line := range lines {
		if msg, failed := a.step(line); failed {
			return a.fail(msg, true)
		}
	}
	if err := a.record(true); err != nil {
		return a.fail(err.Error(), false)
	}
	a.enc.finish(true, a.lastText, "")
	return 0
}

func promptLines(prompt string) []string {
	var lines []string
	for _, line := range strings.Split(strings.ReplaceAll(prompt, "\r\n", "\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// step acts on one prompt line; a `!fail` returns its message and true.
func (a *agent) step(line string) (string, bool) {
	directive, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch directive {
	case "!write":
		path, text, _ := strings.Cut(rest, " ")
		a.write(path, text)
	case "!run":
		a.shell(rest)
	case "!commit":
		a.shell(`git add -A && git commit -q -m ` + shellQuote(rest) + ` && git log -1 --format='committed %h %s'`)
	case "!sleep":
		ms, err := strconv.Atoi(rest)
		if err != nil || ms < 0 {
			a.say(fmt.Sprintf("cannot sleep %q: not a number of milliseconds", rest))
			break
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
	case "!fail":
		if rest == "" {
			rest = "failed on purpose"
		}
		return rest, true
	case "!echo-env":
		state := "unset"
		if v, ok := os.LookupEnv(rest); ok && v != "" {
			state = "set"
		}
		a.say(rest + "=" + state)
	case "!model":
		a.say("model=" + orDefault(a.opts.model))
	case "!flags":
		a.say(a.flags())
	default:
		a.say(line)
	}
	return "", false
}

func (a *agent) flags() string {
	fields := map[string]string{
		"protocol": a.opts.protocol, "model": orDefault(a.opts.model), "thinking": orDefault(a.opts.thinking),
		"plan": strconv.FormatBool(a.opts.plan), "goal": strconv.FormatBool(a.opts.goal),
		"fast": strconv.FormatBool(a.opts.fast), "resumed": strconv.FormatBool(a.opts.resume != ""),
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + fields[k]
	}
	return strings.Join(parts, " ")
}

func orDefault(v string) string {
	if v == "" {
		return "default"
	}
	return v
}

func (a *agent) say(text string) {
	a.lastText = text
	a.replies = append(a.replies, text)
	a.enc.text(text)
}

func (a *agent) nextCall(kind string) toolCall {
	a.calls++
	return toolCall{id: fmt.Sprintf("call_%d", a.calls), kind: kind}
}

func (a *agent) write(path, text string) {
	call := a.nextCall("write")
	call.path, call.content = path, text+"\n"
	target := path
	if !filepath.IsAbs(target) {
		target = filepath.Join(a.cwd, target)
	}
	_, statErr := os.Stat(target)
	call.created = errors.Is(statErr, os.ErrNotExist)
	a.enc.toolStarted(call)
	var err error
	if path == "" {
		err = errors.New("!write needs a path")
	} else if err = os.MkdirAll(filepath.Dir(target), 0o755); err == nil {
		err = os.WriteFile(target, []byte(call.content), 0o644)
	}
	if err != nil {
		a.enc.toolFinished(call, err.Error(), 1)
		return
	}
	a.enc.toolFinished(call, fmt.Sprintf("wrote %d bytes to %s", len(call.content), path), 0)
}

func (a *agent) shell(command string) {
	call := a.nextCall("shell")
	call.command = command
	a.enc.toolStarted(call)
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir = a.cwd
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			code = exitErr.ExitCode()
		} else {
			code, out = 127, append(out, []byte(err.Error())...)
		}
	}
	a.enc.toolFinished(call, string(out), code)
}

func (a *agent) record(ok bool) error {
	if a.session == nil {
		return nil
	}
	// The turn saved as it started, now with how it ended.
	last := &a.session.Turns[len(a.session.Turns)-1]
	last.Replies, last.OK, last.At = a.replies, ok, time.Now().UTC().Format(time.RFC3339Nano)
	return a.session.save()
}

func (a *agent) fail(msg string, record bool) int {
	if record {
		if err := a.record(false); err != nil {
			msg += "; " + err.Error()
		}
	}
	a.enc.finish(false, "", msg)
	return 1
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
