package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A stand-in Hangar that records uploads and answers like the real media routes.
func fakeHangar(t *testing.T, uploads *[]map[string]string) *httptest.Server {
	t.Helper()
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" || r.Header.Get("X-Workspace-Id") != "ws-1" {
			w.WriteHeader(401)
			io.WriteString(w, `{"error":"Invalid or missing API key","details":null}`)
			return
		}
		switch {
		case r.Method == "POST" && r.URL.Path == "/v1/replica/ws-1/media":
			body, _ := io.ReadAll(r.Body)
			name := r.URL.Query().Get("filename")
			*uploads = append(*uploads, map[string]string{"name": name, "kind": r.URL.Query().Get("kind"), "body": string(body), "length": r.Header.Get("Content-Length")})
			if name == "huge.bin" {
				w.WriteHeader(413)
				io.WriteString(w, `{"error":"Media file too large","details":"the limit is 10 bytes"}`)
				return
			}
			w.WriteHeader(201)
			json.NewEncoder(w).Encode(map[string]interface{}{"media": map[string]interface{}{"id": "m1", "filename": name}, "markdown": "![" + name + "](<https://hangar.test/m1?token=t>)"})
		case r.Method == "GET" && r.URL.Path == "/v1/replica/ws-1/media":
			io.WriteString(w, `{"media":[{"id":"m1","filename":"shot.png","kind":"image","size_bytes":3,"created_at":"2026-01-01T00:00:00.000Z"}],"total":1}`)
		default:
			w.WriteHeader(404)
		}
	}))
}

func TestUploadPrintsAMarkdownEmbedPerFile(t *testing.T) {
	var uploads []map[string]string
	server := fakeHangar(t, &uploads)
	defer server.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "shot.png"), []byte("png"), 0o644)
	os.WriteFile(filepath.Join(dir, "clip.mov"), []byte("movie"), 0o644)
	env := &environment{apiURL: server.URL, workspaceID: "ws-1", secret: "s3cret"}
	var out, errOut bytes.Buffer
	code := dispatch([]string{"media", "upload", "--kind", "video", filepath.Join(dir, "shot.png"), filepath.Join(dir, "clip.mov")}, env, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	want := "![shot.png](<https://hangar.test/m1?token=t>)\n![clip.mov](<https://hangar.test/m1?token=t>)\n"
	if out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
	if len(uploads) != 2 || uploads[0]["body"] != "png" || uploads[0]["length"] != "3" || uploads[1]["kind"] != "video" {
		t.Fatalf("uploads %v", uploads)
	}
}

func TestUploadReportsEachFailureAndExitsNonZero(t *testing.T) {
	var uploads []map[string]string
	server := fakeHangar(t, &uploads)
	defer server.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "huge.bin"), []byte("0123456789abc"), 0o644)
	os.WriteFile(filepath.Join(dir, "ok.txt"), []byte("ok"), 0o644)
	env := &environment{apiURL: server.URL, workspaceID: "ws-1", secret: "s3cret"}
	var out, errOut bytes.Buffer
	code := dispatch([]string{"media", "upload", filepath.Join(dir, "huge.bin"), filepath.Join(dir, "missing.png"), filepath.Join(dir, "ok.txt")}, env, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "Media file too large (HTTP 413)") || !strings.Contains(errOut.String(), "missing.png") {
		t.Fatalf("stderr %q", errOut.String())
	}
	if out.String() != "![ok.txt](<https://hangar.test/m1?token=t>)\n" {
		t.Fatalf("stdout %q", out.String())
	}
}

func TestUploadRefusesAnUnknownKind(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"media", "upload", "--kind", "pdf", "x"}, &environment{}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
}

func TestListPrintsTheWorkspacesFiles(t *testing.T) {
	var uploads []map[string]string
	server := fakeHangar(t, &uploads)
	defer server.Close()
	var out, errOut bytes.Buffer
	env := &environment{apiURL: server.URL, workspaceID: "ws-1", secret: "s3cret"}
	if code := dispatch([]string{"media", "list"}, env, &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if out.String() != "m1\timage\t3\t2026-01-01T00:00:00.000Z\tshot.png\n" {
		t.Fatalf("stdout %q", out.String())
	}
}
