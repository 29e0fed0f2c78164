// Command hangar is the in-workspace CLI: code running in a Hangar workspace (the agent, a
// hook, a terminal) uses it to reach Hangar's API as its own workspace, with the engine secret
// the workspace was started with (HANGAR_API_URL, HANGAR_WORKSPACE_ID, HANGAR_ENGINE_SECRET).
// Each command group lives in its own file and registers itself in `commands`.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// A command group: `hangar <name> <args...>`.
type command struct {
	summary string
	run     func(args []string, env *environment, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("command registered twice: " + name)
	}
	commands[name] = c
}

func main() {
	os.Exit(dispatch(os.Args[1:], readEnvironment(os.Getenv), os.Stdout, os.Stderr))
}

func dispatch(args []string, env *environment, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "hangar: unknown command %q\n\n", args[0])
		printUsage(stderr)
		return 2
	}
	return c.run(args[1:], env, stdout, stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "hangar: Hangar's API from inside this workspace.")
	fmt.Fprintln(w, "\nUsage: hangar <command> [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-10s %s\n", name, commands[name].summary)
	}
	fmt.Fprintln(w, "\nRun `hangar <command> --help` for a command's arguments.")
}
