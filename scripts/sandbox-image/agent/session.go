package main

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// One chat's conversation so far, kept in the workspace's home (its volume), so it survives
// the container being stopped and started again.
type session struct {
	ID       string        `json:"id"`
	Protocol string        `json:"protocol"`
	Turns    []sessionTurn `json:"turns"`
}

type sessionTurn struct {
	Prompt  string   `json:"prompt"`
	Replies []string `json:"replies"`
	OK      bool     `json:"ok"`
	At      string   `json:"at"`
}

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

func validSessionID(id string) bool { return sessionIDPattern.MatchString(id) }

func sessionDir() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		home = "."
	}
	return filepath.Join(home, ".hangar-test-agent")
}

func sessionPath(id string) string { return filepath.Join(sessionDir(), id+".json") }

// loadSession returns nil (and no error) when the session has no file yet.
func loadSession(id string) (*session, error) {
	data, err := os.ReadFile(sessionPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading session %s: %v", id, err)
	}
	var s session
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("session %s is corrupt: %v", id, err)
	}
	return &s, nil
}

func (s *session) save() error {
	if err := os.MkdirAll(sessionDir(), 0o700); err != nil {
		return fmt.Errorf("saving session %s: %v", s.ID, err)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp := sessionPath(s.ID) + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("saving session %s: %v", s.ID, err)
	}
	return os.Rename(tmp, sessionPath(s.ID))
}

// newSessionID is a random UUID (version 4), the shape the real CLIs use.
func newSessionID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
