package main

// `hangar preview`: make a port of this workspace reachable at a URL (create), see which are
// (list), and stop sharing one (delete). The URL is Hangar's own: the path form on Hangar's
// base URL, or `{port}-{token}.{domain}` when the deployment has a preview domain.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

type previewRecord struct {
	Port          int    `json:"port"`
	URL           string `json:"url"`
	Authenticated bool   `json:"authenticated"`
	CreatedAt     string `json:"created_at"`
}

// What `hangar preview …` was asked to do, parsed before anything is sent.
type previewRequest struct {
	action        string // create, list or delete
	port          int
	authenticated bool
	json          bool
}

const previewUsage = `Usage:
  hangar preview create <port> [--authenticated] [--json]
      Share a port of this workspace at a URL (printed). With --authenticated, only members
      of the organization (API key, or a signed link) can open it; otherwise anyone can.
  hangar preview list [--json]
      The ports shared now and their URLs.
  hangar preview delete <port>
      Stop sharing the port; its URL and links stop working at once.
`

func parsePort(raw string) (int, error) {
	port, err := strconv.Atoi(raw)
	if err != nil || port < 1 || port > 65535 || strings.TrimSpace(raw) != raw {
		return 0, fmt.Errorf("port %q is not a number from 1 to 65535", raw)
	}
	return port, nil
}

func parsePreviewArgs(args []string) (*previewRequest, error) {
	if len(args) == 0 {
		return nil, errors.New("a subcommand is required: create, list or delete")
	}
	req := &previewRequest{action: args[0]}
	var positional []string
	for _, arg := range args[1:] {
		switch {
		case arg == "--authenticated" && req.action == "create":
			req.authenticated = true
		case arg == "--json" && req.action != "delete":
			req.json = true
		case strings.HasPrefix(arg, "-") && len(arg) > 1:
			return nil, fmt.Errorf("unknown option %s for preview %s", arg, req.action)
		default:
			positional = append(positional, arg)
		}
	}
	switch req.action {
	case "create", "delete":
		if len(positional) != 1 {
			return nil, fmt.Errorf("preview %s takes exactly one port", req.action)
		}
		port, err := parsePort(positional[0])
		if err != nil {
			return nil, err
		}
		req.port = port
	case "list":
		if len(positional) != 0 {
			return nil, errors.New("preview list takes no arguments")
		}
	default:
		return nil, fmt.Errorf("unknown subcommand %q: use create, list or delete", req.action)
	}
	return req, nil
}

func runPreview(args []string, env *environment, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, previewUsage)
		return 0
	}
	req, err := parsePreviewArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "hangar preview: %v\n\n%s", err, previewUsage)
		return 2
	}
	base := "/v1/workspaces/" + env.workspaceID + "/previews"
	switch req.action {
	case "create":
		var out struct {
			Preview previewRecord `json:"preview"`
		}
		if err := env.call("POST", base, map[string]interface{}{"port": req.port, "authenticated": req.authenticated}, "", &out); err != nil {
			fmt.Fprintf(stderr, "hangar preview create: %v\n", err)
			return 1
		}
		if req.json {
			return printJSON(stdout, stderr, out.Preview)
		}
		fmt.Fprintln(stdout, out.Preview.URL)
	case "list":
		var out struct {
			Previews []previewRecord `json:"previews"`
		}
		if err := env.call("GET", base, nil, "", &out); err != nil {
			fmt.Fprintf(stderr, "hangar preview list: %v\n", err)
			return 1
		}
		if req.json {
			return printJSON(stdout, stderr, out.Previews)
		}
		printPreviews(stdout, out.Previews)
	case "delete":
		var out struct {
			Success bool `json:"success"`
			Port    int  `json:"port"`
		}
		if err := env.call("DELETE", "/v1/previews/"+strconv.Itoa(req.port), nil, "", &out); err != nil {
			fmt.Fprintf(stderr, "hangar preview delete: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "port %d is no longer shared\n", out.Port)
	}
	return 0
}

func printPreviews(w io.Writer, previews []previewRecord) {
	if len(previews) == 0 {
		fmt.Fprintln(w, "no previews")
		return
	}
	table := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(table, "PORT\tACCESS\tURL")
	for _, p := range previews {
		access := "public"
		if p.Authenticated {
			access = "members"
		}
		fmt.Fprintf(table, "%d\t%s\t%s\n", p.Port, access, p.URL)
	}
	table.Flush()
}

func printJSON(stdout, stderr io.Writer, value interface{}) int {
	encoded, err := json.MarshalIndent(value, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "hangar preview: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, string(encoded))
	return 0
}

func init() {
	register("preview", command{summary: "share a port of this workspace at a URL (create, list, delete)", run: runPreview})
}
