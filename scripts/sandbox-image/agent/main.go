// Command hangar-test-agent is a deterministic stand-in for the coding-agent CLIs, baked into
// the sandbox image so integration tests run real agent turns in real containers without a
// model provider. It takes the command line an adapter builds for the real CLI plus
// `--protocol agent_N`, acts on directive lines of the prompt (see usage) and streams that
// CLI's JSON lines on stdout.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

const usage = `hangar-test-agent: a deterministic coding agent for Hangar's tests.

Usage: hangar-test-agent [the adapter's arguments...] [--] [prompt] --protocol agent_N

It speaks the JSON-lines protocol of agent_1..agent_5 and reads the prompt from its
arguments, or from stdin when there is none (or it is "-"). Each prompt line is one step:
  !write <path> <text...>  write text (plus a newline) to path, relative to the cwd
  !run <command>           run the command with bash -c in the cwd, report it as a tool call
  !commit <message>        git add -A && git commit -m <message>
  !sleep <ms>              wait
  !fail <message>          end the turn with an error result (exit 1)
  !echo-env <NAME>         say NAME=set or NAME=unset (never the value)
  !model                   say model=<the model flag, or default>
  !flags                   say every flag it understood
  anything else            echoed back as assistant text
The first assistant message is "turn N (M earlier)": this session's N-th turn. Sessions
live in ~/.hangar-test-agent/<session>.json; the adapter's resume flag continues one.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, arg := range args {
		if arg == "--" {
			break
		}
		if arg == "--help" || arg == "-h" {
			fmt.Fprint(stdout, usage)
			return 0
		}
	}
	opts, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "hangar-test-agent: %v\n", err)
		return 2
	}
	if opts.prompt == "" || opts.prompt == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "hangar-test-agent: reading the prompt from stdin: %v\n", err)
			return 2
		}
		opts.prompt = string(data)
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "hangar-test-agent: %v\n", err)
		return 2
	}
	return newAgent(opts, cwd, stdout).turn()
}

type options struct {
	protocol  string
	model     string
	thinking  string
	plan      bool
	goal      bool
	fast      bool
	resume    string
	sessionID string
	prompt    string
}

// Flags that take a value, across the five CLIs' command lines.
var valueFlags = map[string]bool{
	"--output-format": true, "--format": true, "--model": true, "-m": true,
	"--permission-mode": true, "--mode": true, "--agent": true, "--sandbox": true, "-s": true,
	"--effort": true, "--reasoning-effort": true, "--variant": true, "--thinking": true,
	"--resume": true, "-r": true, "--session": true, "--session-id": true,
	"-c": true, "--config": true, "--cd": true, "-C": true, "--protocol": true,
	// Settings the adapters pass from the environment: instructions, MCP, provider.
	"--append-system-prompt": true, "--system-prompt": true, "--mcp-config": true, "--settings": true,
	"--provider": true, "--api-key": true, "--add-dir": true, "--allowedTools": true, "--disallowedTools": true,
	"--max-turns": true, "--tools": true, "--skill": true, "--extension": true, "--models": true,
}

func parseArgs(args []string) (options, error) {
	var opts options
	// The executable override appends `--protocol agent_N` after the prompt.
	if n := len(args); n >= 2 && args[n-2] == "--protocol" {
		opts.protocol = args[n-1]
		args = args[:n-2]
	}
	var positional []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			positional = append(positional, arg)
			continue
		}
		name, value, inline := strings.Cut(arg, "=")
		if !valueFlags[name] {
			opts.setSwitch(name)
			continue
		}
		if !inline {
			if i+1 >= len(args) {
				return opts, fmt.Errorf("flag %s needs a value", name)
			}
			i++
			value = args[i]
		}
		opts.setValue(name, value)
	}
	switch opts.protocol {
	case "agent_1", "agent_3", "agent_5":
	case "agent_2":
		if len(positional) > 0 && positional[0] == "exec" {
			positional = positional[1:]
		}
		if len(positional) >= 2 && positional[0] == "resume" {
			opts.resume = positional[1]
			positional = positional[2:]
		}
	case "agent_4":
		if len(positional) > 0 && positional[0] == "run" {
			positional = positional[1:]
		}
	case "":
		return opts, fmt.Errorf("--protocol agent_1..agent_5 is required")
	default:
		return opts, fmt.Errorf("unknown protocol %q", opts.protocol)
	}
	opts.prompt = strings.Join(positional, " ")
	return opts, nil
}

func (o *options) setSwitch(name string) {
	switch name {
	case "--fast":
		o.fast = true
	case "--goal":
		o.goal = true
	case "--plan":
		o.plan = true
	}
}

func (o *options) setValue(name, value string) {
	switch name {
	case "--protocol":
		o.protocol = value
	case "--model", "-m":
		o.model = value
	case "--effort", "--reasoning-effort", "--variant", "--thinking":
		o.thinking = value
	case "--permission-mode", "--mode", "--agent":
		o.plan = o.plan || value == "plan"
	case "--sandbox", "-s":
		o.plan = o.plan || value == "read-only"
	case "--resume", "-r", "--session":
		o.resume = value
	case "--session-id":
		o.sessionID = value
	case "-c", "--config":
		key, v, _ := strings.Cut(value, "=")
		v = strings.Trim(v, `"'`)
		switch key {
		case "model":
			o.model = v
		case "model_reasoning_effort":
			o.thinking = v
		case "service_tier":
			o.fast = o.fast || v == "fast"
		case "goal_mode":
			o.goal = o.goal || v == "true"
		}
	}
}
