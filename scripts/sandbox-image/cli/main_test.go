package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUnknownCommandIsAnError(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := dispatch([]string{"nope"}, &environment{}, &out, &errOut); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errOut.String(), `unknown command "nope"`) {
		t.Fatalf("stderr %q", errOut.String())
	}
}

func TestOutsideAWorkspaceTheCallSaysWhatIsMissing(t *testing.T) {
	err := readEnvironment(func(string) string { return "" }).call("GET", "/v1/x", nil, "", nil)
	if err == nil || !strings.Contains(err.Error(), "HANGAR_ENGINE_SECRET") {
		t.Fatalf("error %v", err)
	}
}
