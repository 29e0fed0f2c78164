package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// The files of a turn's directory (see main.go).
const (
	lockFile    = "lock"
	startedFile = "started"
	stdinFile   = "stdin"
	outFile     = "out"
	errFile     = "err"
	exitFile    = "exit"
)

// What `started` holds: the runner's pid, which is also its session id (it is a session leader).
type startedRecord struct {
	Pid int    `json:"pid"`
	At  string `json:"at"`
}

// What `exit` holds.
type exitRecord struct {
	Code   int    `json:"code"`
	Signal string `json:"signal,omitempty"`
	Error  string `json:"error,omitempty"`
}

// turnDir checks a turn directory argument: absolute and clean, so that `forget` removes
// nothing but what it was given.
func turnDir(arg string) (string, error) {
	if arg == "" || !filepath.IsAbs(arg) || filepath.Clean(arg) != arg || arg == "/" {
		return "", fmt.Errorf("the turn directory must be an absolute, clean path: %q", arg)
	}
	return arg, nil
}

// commandDir reads a command's DIR argument and makes the flag set for the arguments after it;
// false, after saying why, when DIR is missing or not a clean absolute path.
func commandDir(name string, args []string, stderr io.Writer) (string, *flag.FlagSet, bool) {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "hangar-turn %s: DIR is required\n", name)
		return "", nil, false
	}
	dir, err := turnDir(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "hangar-turn %s: %v\n", name, err)
		return "", nil, false
	}
	flags := flag.NewFlagSet(name, flag.ContinueOnError)
	flags.SetOutput(stderr)
	return dir, flags, true
}

// printJSON writes `value` as one JSON line: what the commands answer the worker.
func printJSON(w io.Writer, value any) {
	line, _ := json.Marshal(value)
	fmt.Fprintln(w, string(line))
}

// writeOnce writes a JSON record under `name` in `dir` by renaming a complete temporary file
// into place, so a reader sees the whole record or none of it.
func writeOnce(dir, name string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "."+name+".tmp")
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

// readRecord reads a JSON record; os.ErrNotExist when there is none yet.
func readRecord(dir, name string, into any) error {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// lockTurn takes the turn's lock without waiting: held until the returned file is closed or
// the process ends (however it ends). ok is false when another process holds it.
func lockTurn(dir string) (file *os.File, ok bool, err error) {
	file, err = os.OpenFile(filepath.Join(dir, lockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := syscall.Flock(int(file.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		file.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return file, true, nil
}

// runnerGone says whether the turn's runner has ended: nobody holds its lock any more.
func runnerGone(dir string) (bool, error) {
	file, ok, err := lockTurn(dir)
	if err != nil || !ok {
		return false, err
	}
	file.Close()
	return true, nil
}
