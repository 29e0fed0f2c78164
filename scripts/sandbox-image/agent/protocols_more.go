package main

import "time"

// agent_4: `run --format json` parts (step_start, text, reasoning, tool_use, step_finish, error).
type agent4 struct{ stream }

func (e *agent4) part(kind string, part object) {
	now := time.Now().UnixMilli()
	part["id"], part["sessionID"], part["messageID"] = e.nextID("prt"), e.session, "msg_1"
	e.emit(object{"type": kind, "timestamp": now, "sessionID": e.session, "part": part})
}
func (e *agent4) start(string) { e.part("step_start", object{"type": "step-start"}) }
func (e *agent4) thinking(t string) {
	e.part("reasoning", object{"type": "reasoning", "text": t})
}
func (e *agent4) text(t string) {
	now := time.Now().UnixMilli()
	e.part("text", object{"type": "text", "text": t, "time": object{"start": now, "end": now}})
}
func (e *agent4) toolStarted(toolCall) {}
func (e *agent4) toolFinished(c toolCall, output string, code int) {
	tool, input := "bash", object{"command": c.command}
	if c.kind == "write" {
		tool, input = "write", object{"filePath": c.path, "content": c.content}
	}
	state := object{"status": "completed", "input": input, "output": output, "title": tool, "metadata": object{"exit": code}}
	if code != 0 {
		state = object{"status": "error", "input": input, "error": output, "metadata": object{"exit": code}}
	}
	e.part("tool_use", object{"type": "tool", "callID": c.id, "tool": tool, "state": state})
}
func (e *agent4) finish(ok bool, _, errMsg string) {
	if ok {
		e.part("step_finish", object{"type": "step-finish", "reason": "stop", "cost": 0,
			"tokens": object{"input": 0, "output": 0, "reasoning": 0}})
		return
	}
	e.emit(object{"type": "error", "timestamp": time.Now().UnixMilli(), "sessionID": e.session,
		"error": object{"name": "UnknownError", "data": object{"message": errMsg}}})
}

// agent_5: `--mode json` agent events (session, agent_start, message_*, tool_execution_*, agent_end).
type agent5 struct {
	stream
	messages []object
}

func (e *agent5) start(string) {
	e.emit(object{"type": "session", "version": 3, "id": e.session, "timestamp": time.Now().UTC().Format(time.RFC3339Nano), "cwd": e.cwd})
	e.emit(object{"type": "agent_start"})
	e.emit(object{"type": "turn_start"})
}
func (e *agent5) message(content object, stopReason, errMsg string) {
	msg := object{"role": "assistant", "content": []object{}, "model": e.model, "stopReason": stopReason, "timestamp": time.Now().UnixMilli()}
	if content != nil {
		msg["content"] = []object{content}
	}
	if errMsg != "" {
		msg["errorMessage"] = errMsg
	}
	e.messages = append(e.messages, msg)
	e.emit(object{"type": "message_start", "message": object{"role": "assistant", "content": []object{}}})
	e.emit(object{"type": "message_end", "message": msg})
}
func (e *agent5) thinking(t string) { e.message(object{"type": "thinking", "thinking": t}, "stop", "") }
func (e *agent5) text(t string)     { e.message(object{"type": "text", "text": t}, "stop", "") }
func (e *agent5) tool(c toolCall) (string, object) {
	if c.kind == "write" {
		return "write", object{"path": c.path, "content": c.content}
	}
	return "bash", object{"command": c.command}
}
func (e *agent5) toolStarted(c toolCall) {
	name, args := e.tool(c)
	e.emit(object{"type": "tool_execution_start", "toolCallId": c.id, "toolName": name, "args": args})
}
func (e *agent5) toolFinished(c toolCall, output string, code int) {
	name, _ := e.tool(c)
	e.emit(object{"type": "tool_execution_end", "toolCallId": c.id, "toolName": name, "isError": code != 0,
		"result": object{"content": []object{{"type": "text", "text": output}}, "details": object{"exitCode": code}}})
}
func (e *agent5) finish(ok bool, _, errMsg string) {
	if !ok {
		e.message(nil, "error", errMsg)
	}
	e.emit(object{"type": "turn_end"})
	e.emit(object{"type": "agent_end", "messages": e.messages})
}
