package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// How often a follower looks for more output, and checks that the runner still lives.
const (
	pollEvery     = 50 * time.Millisecond
	checkRunnerAt = 500 * time.Millisecond
	// A write that has not gone through in this long has no reader left (its worker is gone and
	// the pipe is full): the follower ends rather than wait for the turn's end.
	stalledWrite = 60 * time.Second
)

// How a turn ended, as `follow` reports it on its last stderr line.
type followEnd struct {
	State  string `json:"state"` // exited | lost | missing
	Code   *int   `json:"code,omitempty"`
	Signal string `json:"signal,omitempty"`
	Error  string `json:"error,omitempty"`
}

func followCommand(args []string, stdout, stderr io.Writer) int {
	dir, flags, ok := commandDir("follow", args, stderr)
	if !ok {
		return 2
	}
	from := flags.Int64("from", 0, "the byte offset to start at")
	if err := flags.Parse(args[1:]); err != nil || *from < 0 {
		return 2
	}
	end, err := follow(dir, *from, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "hangar-turn follow:", err)
		return 1
	}
	printJSON(stderr, end)
	return 0
}

// follow copies the turn's output from `from` to w until the agent has exited and everything
// it printed was copied, or its runner is gone without an exit (the container restarted, or
// something killed it).
func follow(dir string, from int64, w io.Writer) (followEnd, error) {
	if !exists(filepath.Join(dir, startedFile)) {
		return followEnd{State: "missing"}, nil
	}
	out, err := os.Open(filepath.Join(dir, outFile))
	if errors.Is(err, fs.ErrNotExist) {
		return followEnd{State: "missing"}, nil
	}
	if err != nil {
		return followEnd{}, err
	}
	defer out.Close()
	if _, err := out.Seek(from, io.SeekStart); err != nil {
		return followEnd{}, err
	}
	w = &watchedWriter{w: w}
	lastCheck := time.Now()
	for {
		if _, err := io.Copy(w, out); err != nil {
			return followEnd{}, err
		}
		// At the end of what is written: the agent may have exited (copy what it wrote last),
		// its runner may be gone without recording an exit, or it is still running.
		var ended exitRecord
		if readRecord(dir, exitFile, &ended) == nil {
			if _, err := io.Copy(w, out); err != nil {
				return followEnd{}, err
			}
			return followEnd{State: "exited", Code: &ended.Code, Signal: ended.Signal, Error: ended.Error}, nil
		}
		if time.Since(lastCheck) >= checkRunnerAt {
			lastCheck = time.Now()
			gone, err := runnerGone(dir)
			if err != nil {
				return followEnd{}, err
			}
			if gone {
				if _, err := io.Copy(w, out); err != nil {
					return followEnd{}, err
				}
				if readRecord(dir, exitFile, &ended) == nil {
					return followEnd{State: "exited", Code: &ended.Code, Signal: ended.Signal, Error: ended.Error}, nil
				}
				return followEnd{State: "lost"}, nil
			}
		}
		time.Sleep(pollEvery)
	}
}

// watchedWriter ends the process when a write blocks for stalledWrite: nobody reads any more.
type watchedWriter struct {
	w       io.Writer
	pending atomic.Int64
}

func (ww *watchedWriter) Write(p []byte) (int, error) {
	started := time.Now().UnixNano()
	ww.pending.Store(started)
	timer := time.AfterFunc(stalledWrite, func() {
		if ww.pending.Load() == started {
			os.Exit(1)
		}
	})
	n, err := ww.w.Write(p)
	timer.Stop()
	ww.pending.Store(0)
	return n, err
}
