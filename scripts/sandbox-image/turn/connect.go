package main

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// How long `connect` waits for the workspace's server to accept.
const connectTimeout = 3 * time.Second

// connectCommand joins its stdin and stdout to a TCP connection to PORT on this workspace's own
// address (as a server listening on 0.0.0.0 or on that address is reached from outside): a
// worker's preview relay reaches a workspace's server through it, by the engine's exec,
// whichever network the worker is on. The first stderr line says `connected`, or `refused` (with
// exit 3) when nothing accepts; stdout then carries only what the server sends.
func connectCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "hangar-turn connect: PORT is required")
		return 2
	}
	port, err := strconv.Atoi(args[0])
	if err != nil || port < 1 || port > 65535 {
		fmt.Fprintf(stderr, "hangar-turn connect: %q is not a port\n", args[0])
		return 2
	}
	address, err := ownAddress()
	if err != nil {
		fmt.Fprintln(stderr, "refused:", err)
		return 3
	}
	conn, err := net.DialTimeout("tcp", net.JoinHostPort(address, strconv.Itoa(port)), connectTimeout)
	if err != nil {
		fmt.Fprintln(stderr, "refused:", err)
		return 3
	}
	defer conn.Close()
	fmt.Fprintln(stderr, "connected")
	go func() {
		io.Copy(conn, stdin)
		// The client is done sending; the server may still answer.
		if tcp, ok := conn.(*net.TCPConn); ok {
			tcp.CloseWrite()
		}
	}()
	io.Copy(stdout, conn)
	return 0
}

// ownAddress is the workspace's first IPv4 address that is not loopback: the one its network
// reaches it at.
func ownAddress() (string, error) {
	addresses, err := net.InterfaceAddrs()
	if err != nil {
		return "", err
	}
	for _, a := range addresses {
		if ip, ok := a.(*net.IPNet); ok && !ip.IP.IsLoopback() && ip.IP.To4() != nil {
			return ip.IP.String(), nil
		}
	}
	return "", fmt.Errorf("the workspace has no network address")
}
