package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The workspace's identity as its container was started with it.
type environment struct {
	apiURL      string
	workspaceID string
	secret      string
}

func readEnvironment(getenv func(string) string) *environment {
	return &environment{
		apiURL:      strings.TrimRight(getenv("HANGAR_API_URL"), "/"),
		workspaceID: getenv("HANGAR_WORKSPACE_ID"),
		secret:      getenv("HANGAR_ENGINE_SECRET"),
	}
}

func (e *environment) check() error {
	var missing []string
	for _, v := range []struct{ name, value string }{{"HANGAR_API_URL", e.apiURL}, {"HANGAR_WORKSPACE_ID", e.workspaceID}, {"HANGAR_ENGINE_SECRET", e.secret}} {
		if v.value == "" {
			missing = append(missing, v.name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not inside a Hangar workspace: %s not set", strings.Join(missing, ", "))
	}
	return nil
}

var client = &http.Client{Timeout: 60 * time.Second}

// apiError is Hangar's Error body: {error, details}.
type apiError struct {
	Status  int
	Message string `json:"error"`
	Details string `json:"details"`
}

func (e *apiError) Error() string {
	if e.Details != "" {
		return fmt.Sprintf("%s (HTTP %d): %s", e.Message, e.Status, e.Details)
	}
	return fmt.Sprintf("%s (HTTP %d)", e.Message, e.Status)
}

// call sends a request as this workspace and decodes a JSON answer into out (when not nil).
// body is JSON-encoded unless it is an io.Reader, which is sent as is with contentType.
func (e *environment) call(method, path string, body interface{}, contentType string, out interface{}) error {
	if err := e.check(); err != nil {
		return err
	}
	var reader io.Reader
	switch b := body.(type) {
	case nil:
	case io.Reader:
		reader = b
	default:
		encoded, err := json.Marshal(b)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(encoded)
		contentType = "application/json"
	}
	req, err := http.NewRequest(method, e.apiURL+path, reader)
	if err != nil {
		return err
	}
	// A streamed body that knows its length (a file) is sent with Content-Length.
	if sized, ok := body.(interface{ Size() int64 }); ok {
		req.ContentLength = sized.Size()
	}
	req.Header.Set("Authorization", "Bearer "+e.secret)
	req.Header.Set("X-Workspace-Id", e.workspaceID)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("reaching Hangar at %s: %w", e.apiURL, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if err != nil {
		return err
	}
	if res.StatusCode >= 300 {
		failure := &apiError{Status: res.StatusCode}
		if json.Unmarshal(raw, failure) != nil || failure.Message == "" {
			failure.Message = strings.TrimSpace(string(raw))
			if failure.Message == "" {
				failure.Message = res.Status
			}
		}
		return failure
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return errors.New("Hangar answered something that is not JSON: " + err.Error())
	}
	return nil
}
