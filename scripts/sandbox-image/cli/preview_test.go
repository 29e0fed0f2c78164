package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPreviewArgsParse(t *testing.T) {
	cases := []struct {
		args []string
		want previewRequest
	}{
		{[]string{"create", "3000"}, previewRequest{action: "create", port: 3000}},
		{[]string{"create", "--authenticated", "8080"}, previewRequest{action: "create", port: 8080, authenticated: true}},
		{[]string{"create", "1", "--json"}, previewRequest{action: "create", port: 1, json: true}},
		{[]string{"create", "65535"}, previewRequest{action: "create", port: 65535}},
		{[]string{"list"}, previewRequest{action: "list"}},
		{[]string{"list", "--json"}, previewRequest{action: "list", json: true}},
		{[]string{"delete", "443"}, previewRequest{action: "delete", port: 443}},
	}
	for _, c := range cases {
		got, err := parsePreviewArgs(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if *got != c.want {
			t.Fatalf("%v: got %+v, want %+v", c.args, *got, c.want)
		}
	}
}

func TestPreviewArgsRejectBadInput(t *testing.T) {
	cases := map[string][]string{
		"subcommand is required": {},
		"unknown subcommand":     {"open", "3000"},
		"exactly one port":       {"create"},
		"not a number":           {"create", "abc"},
		"1 to 65535":             {"create", "0"},
		"from 1 to 65535":        {"delete", "65536"},
		"takes no arguments":     {"list", "3000"},
		"unknown option":         {"create", "3000", "--public"},
		"--authenticated":        {"delete", "3000", "--authenticated"},
		"two ports":              {"create", "3000", "3001"},
	}
	for want, args := range cases {
		_, err := parsePreviewArgs(args)
		if err == nil {
			t.Fatalf("%v: accepted", args)
		}
		if want != "two ports" && !strings.Contains(err.Error(), want) {
			t.Fatalf("%v: error %q does not say %q", args, err, want)
		}
	}
}

func TestPreviewCommandsCallTheWorkspaceAPI(t *testing.T) {
	var seen []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen = append(seen, r.Method+" "+r.URL.Path+" "+strings.TrimSpace(string(body))+" "+r.Header.Get("X-Workspace-Id")+" "+r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		switch r.Method {
		case "POST":
			w.WriteHeader(201)
			json.NewEncoder(w).Encode(map[string]interface{}{"preview": previewRecord{Port: 3000, URL: "http://h/preview/abc/", Authenticated: true}})
		case "GET":
			json.NewEncoder(w).Encode(map[string]interface{}{"previews": []previewRecord{{Port: 3000, URL: "http://h/preview/abc/"}}})
		case "DELETE":
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"Preview not found","details":null}`))
		}
	}))
	defer server.Close()
	env := &environment{apiURL: server.URL, workspaceID: "ws-1", secret: "s3cret"}

	var out, errOut bytes.Buffer
	if code := dispatch([]string{"preview", "create", "3000", "--authenticated"}, env, &out, &errOut); code != 0 {
		t.Fatalf("create exit %d: %s", code, errOut.String())
	}
	if strings.TrimSpace(out.String()) != "http://h/preview/abc/" {
		t.Fatalf("create printed %q", out.String())
	}
	out.Reset()
	if code := dispatch([]string{"preview", "list"}, env, &out, &errOut); code != 0 || !strings.Contains(out.String(), "3000  public  http://h/preview/abc/") {
		t.Fatalf("list exit %d printed %q", code, out.String())
	}
	errOut.Reset()
	if code := dispatch([]string{"preview", "delete", "3000"}, env, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "Preview not found (HTTP 404)") {
		t.Fatalf("delete exit %d stderr %q", code, errOut.String())
	}
	want := []string{
		`POST /v1/workspaces/ws-1/previews {"authenticated":true,"port":3000} ws-1 Bearer s3cret`,
		`GET /v1/workspaces/ws-1/previews  ws-1 Bearer s3cret`,
		`DELETE /v1/previews/3000  ws-1 Bearer s3cret`,
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}
