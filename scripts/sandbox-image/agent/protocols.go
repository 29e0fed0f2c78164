package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

type object = map[string]interface{}

// stream writes one JSON object per line, unbuffered, so a reader sees each as it happens.
type stream struct {
	out       io.Writer
	session   string
	model     string
	cwd       string
	plan      bool
	started   time.Time
	messageNo int
}

func (s *stream) emit(v object) {
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(object{"type": "error", "message": err.Error()})
	}
	_, _ = s.out.Write(append(data, '\n'))
}

func (s *stream) nextID(prefix string) string {
	s.messageNo++
	return fmt.Sprintf("%s_%d", prefix, s.messageNo)
}

func (s *stream) elapsedMs() int64 { return time.Since(s.started).Milliseconds() }

func newEncoder(opts options, session, cwd string, out io.Writer) encoder {
	model := opts.model
	if model == "" {
		model = opts.protocol + "-default"
	}
	base := stream{out: out, session: session, model: model, cwd: cwd, plan: opts.plan, started: time.Now()}
	switch opts.protocol {
	case "agent_1":
		return &agent1{base}
	case "agent_2":
		return &agent2{base}
	case "agent_3":
		return &agent3{base}
	case "agent_4":
		return &agent4{base}
	default:
		return &agent5{stream: base}
	}
}

// agent_1: `-p --output-format stream-json --verbose` messages (system, assistant, user, result).
type agent1 struct{ stream }

func (e *agent1) message(role string, content ...object) {
	msg := object{"role": role, "content": content}
	if role == "assistant" {
		msg["id"], msg["type"], msg["model"] = e.nextID("msg"), "message", e.model
	}
	e.emit(object{"type": role, "message": msg, "parent_tool_use_id": nil, "session_id": e.session})
}

func (e *agent1) start(string) {
	mode := "bypassPermissions"
	if e.plan {
		mode = "plan"
	}
	e.emit(object{"type": "system", "subtype": "init", "session_id": e.session, "cwd": e.cwd, "model": e.model,
		"permissionMode": mode, "tools": []string{"Bash", "Write"}})
}
func (e *agent1) thinking(t string) {
	e.message("assistant", object{"type": "thinking", "thinking": t})
}
func (e *agent1) text(t string) { e.message("assistant", object{"type": "text", "text": t}) }
func (e *agent1) toolStarted(c toolCall) {
	name, input := "Bash", object{"command": c.command}
	if c.kind == "write" {
		name, input = "Write", object{"file_path": c.path, "content": c.content}
	}
	e.message("assistant", object{"type": "tool_use", "id": c.id, "name": name, "input": input})
}
func (e *agent1) toolFinished(c toolCall, output string, code int) {
	e.message("user", object{"type": "tool_result", "tool_use_id": c.id, "content": output, "is_error": code != 0})
}
func (e *agent1) finish(ok bool, text, errMsg string) {
	result := object{"type": "result", "duration_ms": e.elapsedMs(), "num_turns": 1, "session_id": e.session, "total_cost_usd": 0}
	if ok {
		result["subtype"], result["is_error"], result["result"] = "success", false, text
	} else {
		result["subtype"], result["is_error"], result["result"], result["errors"] = "error_during_execution", true, errMsg, []string{errMsg}
	}
	e.emit(result)
}

// agent_2: `exec --json` thread events (thread.started, item.*, turn.completed|failed).
type agent2 struct{ stream }

func (e *agent2) item(event string, item object) { e.emit(object{"type": event, "item": item}) }
func (e *agent2) start(string) {
	e.emit(object{"type": "thread.started", "thread_id": e.session})
	e.emit(object{"type": "turn.started"})
}
func (e *agent2) thinking(t string) {
	e.item("item.completed", object{"id": e.nextID("item"), "type": "reasoning", "text": t})
}
func (e *agent2) text(t string) {
	e.item("item.completed", object{"id": e.nextID("item"), "type": "agent_message", "text": t})
}
func (e *agent2) toolStarted(c toolCall) {
	if c.kind == "shell" {
		e.item("item.started", object{"id": c.id, "type": "command_execution", "command": c.command,
			"aggregated_output": "", "exit_code": nil, "status": "in_progress"})
	}
}
func (e *agent2) toolFinished(c toolCall, output string, code int) {
	status := "completed"
	if code != 0 {
		status = "failed"
	}
	if c.kind == "write" {
		kind := "update"
		if c.created {
			kind = "add"
		}
		e.item("item.completed", object{"id": c.id, "type": "file_change", "status": status,
			"changes": []object{{"path": c.path, "kind": kind}}})
		return
	}
	e.item("item.completed", object{"id": c.id, "type": "command_execution", "command": c.command,
		"aggregated_output": output, "exit_code": code, "status": status})
}
func (e *agent2) finish(ok bool, _, errMsg string) {
	if ok {
		e.emit(object{"type": "turn.completed", "usage": object{"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0}})
		return
	}
	e.emit(object{"type": "error", "message": errMsg})
	e.emit(object{"type": "turn.failed", "error": object{"message": errMsg}})
}

// agent_3: `-p --output-format stream-json` (system, user, thinking, assistant, tool_call, result).
type agent3 struct{ stream }

func (e *agent3) start(prompt string) {
	mode := "default"
	if e.plan {
		mode = "plan"
	}
	e.emit(object{"type": "system", "subtype": "init", "apiKeySource": "env", "cwd": e.cwd, "session_id": e.session,
		"model": e.model, "permissionMode": mode})
	e.emit(object{"type": "user", "session_id": e.session,
		"message": object{"role": "user", "content": []object{{"type": "text", "text": prompt}}}})
}
func (e *agent3) thinking(t string) {
	e.emit(object{"type": "thinking", "subtype": "delta", "text": t, "session_id": e.session})
	e.emit(object{"type": "thinking", "subtype": "completed", "session_id": e.session})
}
func (e *agent3) text(t string) {
	e.emit(object{"type": "assistant", "session_id": e.session,
		"message": object{"role": "assistant", "content": []object{{"type": "text", "text": t}}}})
}
func (e *agent3) call(c toolCall, subtype string, result object) {
	key, args := "shellToolCall", object{"command": c.command, "workingDirectory": e.cwd}
	if c.kind == "write" {
		key, args = "writeToolCall", object{"path": c.path, "fileText": c.content}
	}
	body := object{"args": args}
	if result != nil {
		body["result"] = result
	}
	e.emit(object{"type": "tool_call", "subtype": subtype, "call_id": c.id, "tool_call": object{key: body}, "session_id": e.session})
}
func (e *agent3) toolStarted(c toolCall) { e.call(c, "started", nil) }
func (e *agent3) toolFinished(c toolCall, output string, code int) {
	outcome := "success"
	if code != 0 {
		outcome = "failure"
	}
	detail := object{"command": c.command, "exitCode": code, "stdout": output, "stderr": ""}
	if c.kind == "write" {
		detail = object{"path": c.path, "linesCreated": strings.Count(c.content, "\n"), "fileSize": len(c.content), "message": output}
	}
	e.call(c, "completed", object{outcome: detail})
}
func (e *agent3) finish(ok bool, text, errMsg string) {
	result := object{"type": "result", "duration_ms": e.elapsedMs(), "duration_api_ms": e.elapsedMs(),
		"session_id": e.session, "request_id": e.nextID("req")}
	if ok {
		result["subtype"], result["is_error"], result["result"] = "success", false, text
	} else {
		result["subtype"], result["is_error"], result["result"] = "error", true, errMsg
	}
	e.emit(result)
}
