// Command hangar-turn is Hangar's plumbing inside a workspace. It runs a coding agent's turn
// inside its workspace, detached from the Hangar worker that asked for it, so that the turn
// outlives that worker (a crash, a deploy, a restart of everything). The worker starts the turn
// with `start`, then reads what the agent prints with `follow` from the offset it has recorded;
// a worker that takes over after another was lost follows the same turn from where the records
// stop. `relay` holds the agent's model calls while Hangar's AI gateway cannot be reached, so a
// restart of Hangar does not fail them. `connect` carries a preview's connection to a server in
// the workspace through the engine's exec, for a worker that cannot route to the workspace.
//
// A turn is a directory (`~/.hangar/turns/<name>`, chosen by the worker):
//
//	lock     held (flock) by the turn's runner for as long as it lives
//	started  written once, before the agent starts: {"pid": N, "at": "..."}; a turn never starts twice
//	stdin    the agent's standard input, when the worker gave one
//	out      everything the agent printed on stdout, appended as it comes
//	err      its stderr
//	exit     written once the agent has exited: {"code": N, "signal": "..."}
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "start":
		return startCommand(args[1:], stdin, stdout, stderr)
	case "run":
		return runCommand(args[1:], stderr)
	case "follow":
		return followCommand(args[1:], stdout, stderr)
	case "relay":
		return relayCommand(args[1:], stderr)
	case "relay-status":
		return relayStatusCommand(args[1:], stdout, stderr)
	case "forget":
		return forgetCommand(args[1:], stderr)
	case "connect":
		return connectCommand(args[1:], stdin, stdout, stderr)
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "hangar-turn: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprint(w, `hangar-turn: an agent turn that outlives the worker that started it.

  hangar-turn start DIR [--cwd PATH] [--stdin] [--relay URL] -- COMMAND [ARGS...]
      starts COMMAND detached, once per DIR; prints {"sid": N, "fresh": true|false}
  hangar-turn follow DIR [--from OFFSET]
      copies the turn's output from OFFSET to stdout until it has exited; the last stderr line
      says how it ended: {"state": "exited", "code": N} | {"state": "lost"} | {"state": "missing"}
  hangar-turn forget DIR
      removes an ended turn's directory
  hangar-turn relay --upstream URL [--listen ADDR] [--hold DURATION] [--idle DURATION]
      forwards the agent's model calls to URL, holding them while URL cannot be reached
  hangar-turn relay-status [--listen ADDR]
      prints the relay's upstream and how many calls it holds
  hangar-turn connect PORT
      joins stdin and stdout to PORT on this workspace's own address (previews through the engine)
`)
}
