package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// How long `start` waits for its runner to record the start.
const startDeadline = 30 * time.Second

// startCommand starts the turn in DIR once: a second start of the same DIR (a worker that took
// over before it knew the first one had started it) starts nothing and answers the same runner.
func startCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	dir, flags, ok := commandDir("start", args, stderr)
	if !ok {
		return 2
	}
	cwd := flags.String("cwd", "", "the agent's working directory")
	withStdin := flags.Bool("stdin", false, "keep this command's stdin as the agent's")
	relay := flags.String("relay", "", "the upstream of the model-call relay the agent reaches")
	if err := flags.Parse(args[1:]); err != nil {
		return 2
	}
	argv := flags.Args()
	if len(argv) == 0 {
		fmt.Fprintln(stderr, "hangar-turn start: a command is required after --")
		return 2
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintln(stderr, "hangar-turn start:", err)
		return 1
	}
	pruneEnded(filepath.Dir(dir), dir)
	var started startedRecord
	if readRecord(dir, startedFile, &started) == nil {
		return answer(stdout, started, false)
	}
	if *withStdin && !exists(filepath.Join(dir, stdinFile)) {
		if err := keepStdin(dir, stdin); err != nil {
			fmt.Fprintln(stderr, "hangar-turn start: keeping stdin:", err)
			return 1
		}
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "hangar-turn start:", err)
		return 1
	}
	runArgs := []string{"run", dir, "--cwd", *cwd, "--relay", *relay, "--"}
	runner := exec.Command(self, append(runArgs, argv...)...)
	// Its own session, no terminal and no stdio of this command: the exec that started it
	// (and the worker reading that exec) may go away without touching it.
	runner.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := runner.Start(); err != nil {
		fmt.Fprintln(stderr, "hangar-turn start:", err)
		return 1
	}
	exited := make(chan struct{})
	go func() {
		runner.Wait()
		close(exited)
	}()
	// The runner records the start before the agent runs; a runner that lost the race to
	// another start of the same turn exits, and that one's record is the answer.
	deadline := time.Now().Add(startDeadline)
	for time.Now().Before(deadline) {
		if readRecord(dir, startedFile, &started) == nil {
			return answer(stdout, started, started.Pid == runner.Process.Pid)
		}
		select {
		case <-exited:
			if readRecord(dir, startedFile, &started) == nil {
				return answer(stdout, started, started.Pid == runner.Process.Pid)
			}
			if runner.ProcessState.ExitCode() != exitLostRace {
				fmt.Fprintf(stderr, "hangar-turn start: the runner exited (%s) before the turn started; see %s\n", runner.ProcessState, filepath.Join(dir, errFile))
				return 1
			}
		case <-time.After(20 * time.Millisecond):
		}
	}
	fmt.Fprintln(stderr, "hangar-turn start: the turn did not start within", startDeadline)
	return 1
}

func answer(stdout io.Writer, started startedRecord, fresh bool) int {
	printJSON(stdout, map[string]any{"sid": started.Pid, "fresh": fresh})
	return 0
}

// keepStdin saves this command's stdin whole, before anything is detached from it.
func keepStdin(dir string, stdin io.Reader) error {
	tmp := filepath.Join(dir, "."+stdinFile+".tmp")
	file, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(file, stdin); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, stdinFile))
}

// How long a turn's directory is kept once its runner is gone, when no worker removed it.
const keepEnded = 24 * time.Hour

// pruneEnded removes, beside `keep`, the directories of turns whose runner is gone and that
// started more than a day ago: a worker removes its turn's directory once the turn is recorded,
// unless it was lost just then or the turn was killed.
func pruneEnded(parent, keep string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, entry := range entries {
		path := filepath.Join(parent, entry.Name())
		if !entry.IsDir() || path == keep {
			continue
		}
		info, err := entry.Info()
		if err != nil || time.Since(info.ModTime()) < keepEnded {
			continue
		}
		if gone, err := runnerGone(path); err == nil && gone {
			os.RemoveAll(path)
		}
	}
}

// The runner's exit code when another runner holds the turn or it had already started.
const exitLostRace = 3

// runCommand is the turn's runner: it takes the lock for its whole life, records the start
// (once ever), runs the agent with its output in the turn's files, and records the exit.
func runCommand(args []string, stderr io.Writer) int {
	dir, flags, ok := commandDir("run", args, stderr)
	if !ok {
		return 2
	}
	cwd := flags.String("cwd", "", "")
	relay := flags.String("relay", "", "")
	if err := flags.Parse(args[1:]); err != nil || len(flags.Args()) == 0 {
		return 2
	}
	argv := flags.Args()
	lock, ok, err := lockTurn(dir)
	if err != nil {
		fmt.Fprintln(stderr, "hangar-turn run:", err)
		return 1
	}
	if !ok {
		return exitLostRace
	}
	defer lock.Close()
	if exists(filepath.Join(dir, startedFile)) {
		return exitLostRace
	}
	errOut, err := os.OpenFile(filepath.Join(dir, errFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 1
	}
	defer errOut.Close()
	out, err := os.OpenFile(filepath.Join(dir, outFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(errOut, "hangar-turn run:", err)
		return 1
	}
	defer out.Close()
	in, err := os.Open(filepath.Join(dir, stdinFile))
	if errors.Is(err, fs.ErrNotExist) {
		in, err = os.Open(os.DevNull)
	}
	if err != nil {
		fmt.Fprintln(errOut, "hangar-turn run:", err)
		return 1
	}
	defer in.Close()
	if *relay != "" {
		if err := ensureRelay(defaultRelayAddress, *relay); err != nil {
			fmt.Fprintln(errOut, "hangar-turn: the model-call relay is not running:", err)
		}
		// Started again should it end while the agent works (killed, or out of memory).
		go keepRelay(defaultRelayAddress, *relay, errOut)
	}
	if err := writeOnce(dir, startedFile, startedRecord{Pid: os.Getpid(), At: time.Now().UTC().Format(time.RFC3339Nano)}); err != nil {
		fmt.Fprintln(errOut, "hangar-turn run:", err)
		return 1
	}
	agent := exec.Command(argv[0], argv[1:]...)
	agent.Dir = *cwd
	agent.Stdin, agent.Stdout, agent.Stderr = in, out, errOut
	ended := exitRecord{}
	if err := agent.Start(); err != nil {
		// As a shell reports them: 127 for a command not found, 126 for one that cannot run.
		ended.Code = 126
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			ended.Code = 127
		}
		ended.Error = err.Error()
		fmt.Fprintln(errOut, "hangar-turn:", err)
	} else {
		agent.Wait()
		ended = exitOf(agent.ProcessState)
	}
	if err := writeOnce(dir, exitFile, ended); err != nil {
		fmt.Fprintln(errOut, "hangar-turn run:", err)
		return 1
	}
	return 0
}

// How often a running turn checks that its relay still answers.
const relayCheckEvery = 5 * time.Second

func keepRelay(listen, upstream string, log io.Writer) {
	for range time.Tick(relayCheckEvery) {
		// A relay to another upstream is left alone: it is another turn's, started after a
		// change of Hangar's address, and the two would only replace each other.
		if _, err := relayStatus(listen); err == nil {
			continue
		}
		if err := ensureRelay(listen, upstream); err != nil {
			fmt.Fprintln(log, "hangar-turn: the model-call relay could not be started again:", err)
		}
	}
}

// exitOf is the agent's exit as a shell reports it: its code, or 128 + the signal that ended it.
func exitOf(state *os.ProcessState) exitRecord {
	if status, ok := state.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		return exitRecord{Code: 128 + int(status.Signal()), Signal: status.Signal().String()}
	}
	return exitRecord{Code: state.ExitCode()}
}

// forgetCommand removes a turn's directory once its end is recorded.
func forgetCommand(args []string, stderr io.Writer) int {
	dir, _, ok := commandDir("forget", args, stderr)
	if !ok || len(args) != 1 {
		return 2
	}
	if gone, _ := runnerGone(dir); !gone && exists(dir) {
		fmt.Fprintln(stderr, "hangar-turn forget: the turn is still running")
		return 1
	}
	if err := os.RemoveAll(dir); err != nil {
		fmt.Fprintln(stderr, "hangar-turn forget:", err)
		return 1
	}
	return 0
}
