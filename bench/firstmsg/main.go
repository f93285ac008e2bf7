// Command firstmsg measures how MCP servers over stdio answer the first
// message a client may open with: the legacy initialize (2025-06-18), or
// server/discover with the envelope of revision 2026-07-28. For each
// server and each opening it starts the server, sends the one message at
// once, and prints how long the answer took and its start, or that none
// came within the wait. It is how rubric's order of attempts was chosen
// (bench/README.md): an opening that a server of either kind does not
// answer would cost a timeout.
//
//	go run ./bench/firstmsg -- NAME=COMMAND [ARGS...] -- NAME=COMMAND ...
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

var openings = []struct{ name, line string }{
	{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"firstmsg","version":"1"}}}`},
	{"server/discover", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"firstmsg","version":"1"}}}}`},
}

func main() {
	wait := flag.Duration("wait", 10*time.Second, "how long to wait for an answer")
	flag.Parse()
	var servers [][]string
	for _, a := range flag.Args() {
		if a == "--" {
			continue
		}
		if name, cmd, ok := strings.Cut(a, "="); ok && !strings.Contains(name, "/") {
			servers = append(servers, []string{name, cmd})
			continue
		}
		if len(servers) == 0 {
			fmt.Fprintln(os.Stderr, "usage: firstmsg [-wait D] -- NAME=COMMAND [ARGS...] -- ...")
			os.Exit(2)
		}
		servers[len(servers)-1] = append(servers[len(servers)-1], a)
	}
	for _, s := range servers {
		for _, o := range openings {
			took, answer := probe(s[1:], o.line, *wait)
			fmt.Printf("%-20s %-16s %8s  %s\n", s[0], o.name, took, answer)
		}
	}
}

// probe starts argv, writes line and waits for the answer with id 1.
func probe(argv []string, line string, wait time.Duration) (string, string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return "-", err.Error()
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	start := time.Now()
	fmt.Fprintln(in, line)
	got := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m struct{ ID json.RawMessage }
			if json.Unmarshal(sc.Bytes(), &m) == nil && string(m.ID) == "1" {
				got <- sc.Text()
				return
			}
		}
		close(got)
	}()
	select {
	case a, ok := <-got:
		if !ok {
			return "-", "stdout ended without an answer"
		}
		if len(a) > 110 {
			a = a[:110] + "…"
		}
		return time.Since(start).Round(time.Millisecond).String(), a
	case <-time.After(wait):
		return "-", fmt.Sprintf("no answer within %s", wait)
	}
}
