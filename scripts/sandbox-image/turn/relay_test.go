package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// A port nothing listens on (yet).
func freeAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func relayTo(t *testing.T, upstream string) (*relay, *httptest.Server) {
	t.Helper()
	target, _ := url.Parse(upstream)
	r := newRelay(upstream, target, time.Minute)
	server := httptest.NewServer(r)
	t.Cleanup(server.Close)
	return r, server
}

func TestACallIsHeldUntilTheGatewayAnswersAgain(t *testing.T) {
	addr := freeAddress(t)
	r, server := relayTo(t, "http://"+addr)
	type result struct {
		status int
		body   string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := http.Post(server.URL+"/v1/ai-gateway/agent_1/v1/messages?beta=true", "application/json", strings.NewReader(`{"model":"m"}`))
		if err != nil {
			done <- result{err: err}
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		done <- result{status: resp.StatusCode, body: string(body)}
	}()
	waitFor(t, "the call to be held", func() bool { return r.held.Load() == 1 })
	// The gateway comes back on the same address.
	listener, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	gateway := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		io.WriteString(w, req.Method+" "+req.URL.RequestURI()+" "+req.Host+" "+string(body))
	})}
	go gateway.Serve(listener)
	defer gateway.Close()
	got := <-done
	if got.err != nil || got.status != 200 || got.body != "POST /v1/ai-gateway/agent_1/v1/messages?beta=true "+addr+` {"model":"m"}` {
		t.Fatalf("relayed %+v", got)
	}
	if r.held.Load() != 0 {
		t.Fatalf("still held: %d", r.held.Load())
	}
}

func TestAnswersStreamThroughAsTheyCome(t *testing.T) {
	second := make(chan struct{})
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		<-second
		io.WriteString(w, "data: two\n\n")
	}))
	defer gateway.Close()
	_, server := relayTo(t, gateway.URL)
	resp, err := http.Get(server.URL + "/v1/ai-gateway/agent_2/v1/responses")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	reader := bufio.NewReader(resp.Body)
	if line, _ := reader.ReadString('\n'); line != "data: one\n" {
		t.Fatalf("first line %q", line)
	}
	close(second)
	rest, _ := io.ReadAll(reader)
	if string(rest) != "\ndata: two\n\n" {
		t.Fatalf("rest %q", rest)
	}
}

func TestTheRelayForwardsOnlyTheGateway(t *testing.T) {
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		t.Errorf("reached the upstream: %s", req.URL)
	}))
	defer gateway.Close()
	_, server := relayTo(t, gateway.URL)
	resp, err := http.Get(server.URL + "/v1/replica")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("answered %d", resp.StatusCode)
	}
}

func TestEnsureRelayStartsOneAndReplacesOneToAnotherUpstream(t *testing.T) {
	t.Setenv("HANGAR_TURN_AS_COMMAND", "1")
	listen := freeAddress(t)
	defer http.Post("http://"+listen+statusPath+"/exit", "application/json", nil)
	if err := ensureRelay(listen, "http://127.0.0.1:9/a"); err != nil {
		t.Fatal(err)
	}
	if err := ensureRelay(listen, "http://127.0.0.1:9/a"); err != nil {
		t.Fatal(err)
	}
	if err := ensureRelay(listen, "http://127.0.0.1:9/b"); err != nil {
		t.Fatal(err)
	}
	status, err := relayStatus(listen)
	if err != nil || status.Upstream != "http://127.0.0.1:9/b" {
		t.Fatalf("status %+v, %v", status, err)
	}
}
