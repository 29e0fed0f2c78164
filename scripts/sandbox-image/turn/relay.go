package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Where the relay listens in every workspace. Hangar's worker points the agents' gateway URL
// here (HANGAR_TURN_RELAY_ADDRESS in src/sandbox/workspace/supervisedTurns.ts says the same).
const defaultRelayAddress = "127.0.0.1:7431"

const (
	statusPath = "/.hangar-turn-relay"
	// Only the AI gateway's calls are relayed: the rest of Hangar's API is reached directly.
	gatewayPrefix = "/v1/ai-gateway/"
	// A call's body is kept to send again; larger ones are refused (the gateway takes less).
	maxHeldBody = 64 << 20
)

type relayStatusBody struct {
	Upstream string `json:"upstream"`
	// Calls waiting now for the upstream to answer again.
	Held   int64 `json:"held"`
	Served int64 `json:"served"`
}

func relayCommand(args []string, stderr io.Writer) int {
	flags := flag.NewFlagSet("relay", flag.ContinueOnError)
	flags.SetOutput(stderr)
	upstream := flags.String("upstream", "", "Hangar's API as the workspace reaches it")
	listen := flags.String("listen", defaultRelayAddress, "the address to listen on")
	hold := flags.Duration("hold", 15*time.Minute, "how long a call waits for an upstream that cannot be reached")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	target, err := url.Parse(*upstream)
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		fmt.Fprintf(stderr, "hangar-turn relay: --upstream must be an http(s) URL, not %q\n", *upstream)
		return 2
	}
	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		// Another relay (or something else) has the address.
		fmt.Fprintln(stderr, "hangar-turn relay:", err)
		return exitLostRace
	}
	// It lives as long as the container: a turn's agent may call at any time, however long it
	// worked on its own before.
	r := newRelay(*upstream, target, *hold)
	server := &http.Server{Handler: r, ReadHeaderTimeout: 30 * time.Second}
	r.leave = func() { go server.Shutdown(context.Background()) }
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "hangar-turn relay:", err)
		return 1
	}
	return 0
}

// relay forwards the agent's calls to Hangar's AI gateway, streaming the answers as they come.
type relay struct {
	// The upstream as it was given, which `ensureRelay` compares.
	upstream string
	proxy    *httputil.ReverseProxy
	held     atomic.Int64
	served   atomic.Int64
	leave    func()
}

func newRelay(upstream string, target *url.URL, hold time.Duration) *relay {
	r := &relay{upstream: upstream}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DialContext = (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	r.proxy = &httputil.ReverseProxy{
		Director: func(out *http.Request) {
			out.URL.Scheme, out.URL.Host = target.Scheme, target.Host
			out.URL.Path = strings.TrimSuffix(target.Path, "/") + out.URL.Path
			out.URL.RawPath = ""
			out.Host = ""
			// Nothing of the workspace's loopback is the gateway's business.
			out.Header["X-Forwarded-For"] = nil
		},
		FlushInterval: -1,
		Transport:     &holdingTransport{base: transport, hold: hold, held: &r.held},
		ErrorHandler: func(w http.ResponseWriter, req *http.Request, err error) {
			writeJSON(w, http.StatusBadGateway, map[string]string{"error": "gateway_unreachable", "details": "Hangar's AI gateway could not be reached: " + err.Error()})
		},
	}
	return r
}

func (r *relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch {
	case req.URL.Path == statusPath && req.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, relayStatusBody{Upstream: r.upstream, Held: r.held.Load(), Served: r.served.Load()})
		return
	case req.URL.Path == statusPath+"/exit" && req.Method == http.MethodPost:
		writeJSON(w, http.StatusAccepted, map[string]string{"state": "leaving"})
		r.leave()
		return
	case !strings.HasPrefix(req.URL.Path, gatewayPrefix):
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "details": "this relay forwards only " + gatewayPrefix})
		return
	}
	defer r.served.Add(1)
	r.proxy.ServeHTTP(w, req)
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// holdingTransport sends a call again while the upstream cannot be reached (refused, reset,
// unreachable: no answer began), for up to `hold`; an answer of any status is passed on as it is.
type holdingTransport struct {
	base http.RoundTripper
	hold time.Duration
	held *atomic.Int64
}

func (t *holdingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		read, err := io.ReadAll(io.LimitReader(req.Body, maxHeldBody+1))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(read) > maxHeldBody {
			return nil, fmt.Errorf("the request body is over %d bytes", maxHeldBody)
		}
		body = read
	}
	deadline := time.Now().Add(t.hold)
	wait := 250 * time.Millisecond
	holding := false
	defer func() {
		if holding {
			t.held.Add(-1)
		}
	}()
	for {
		attempt := req.Clone(req.Context())
		if body != nil {
			attempt.Body = io.NopCloser(bytes.NewReader(body))
			attempt.ContentLength = int64(len(body))
		}
		resp, err := t.base.RoundTrip(attempt)
		if err == nil {
			return resp, nil
		}
		if req.Context().Err() != nil || time.Now().Add(wait).After(deadline) {
			return nil, err
		}
		if !holding {
			holding = true
			t.held.Add(1)
		}
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(wait):
		}
		if wait *= 2; wait > 5*time.Second {
			wait = 5 * time.Second
		}
	}
}

var statusClient = &http.Client{Timeout: 2 * time.Second}

func relayStatus(listen string) (relayStatusBody, error) {
	var status relayStatusBody
	resp, err := statusClient.Get("http://" + listen + statusPath)
	if err != nil {
		return status, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return status, fmt.Errorf("%s answers %s", listen, resp.Status)
	}
	return status, json.NewDecoder(resp.Body).Decode(&status)
}

// ensureRelay makes sure a relay to `upstream` listens on `listen`: the one there already, or
// a new one (in a session of its own, so that stopping a turn does not stop it).
func ensureRelay(listen, upstream string) error {
	status, err := relayStatus(listen)
	if err == nil && status.Upstream == upstream {
		return nil
	}
	if err == nil {
		// A relay to another upstream (Hangar's address changed): it leaves for this one.
		if resp, err := statusClient.Post("http://"+listen+statusPath+"/exit", "application/json", nil); err == nil {
			resp.Body.Close()
		}
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if _, err := relayStatus(listen); err != nil {
				break
			}
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, "relay", "--upstream", upstream, "--listen", listen)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	var last error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(25 * time.Millisecond) {
		status, err := relayStatus(listen)
		if err == nil && status.Upstream == upstream {
			return nil
		}
		last = err
		if err == nil {
			last = fmt.Errorf("%s relays to %s", listen, status.Upstream)
		}
	}
	return last
}

func relayStatusCommand(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("relay-status", flag.ContinueOnError)
	flags.SetOutput(stderr)
	listen := flags.String("listen", defaultRelayAddress, "the relay's address")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	status, err := relayStatus(*listen)
	if err != nil {
		fmt.Fprintln(stderr, "hangar-turn relay-status:", err)
		return 1
	}
	printJSON(stdout, status)
	return 0
}
