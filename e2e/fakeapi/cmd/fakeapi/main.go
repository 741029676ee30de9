// Command fakeapi runs the fake model API on its own, for exploring the real
// CLIs by hand: it prints the base URL, then serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

func main() { os.Exit(run()) }

func run() int {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	logPath := flag.String("log", "", "append every request to this file as JSON lines")
	body := flag.Int("body", 2048, "log at most this many bytes of each request body")
	flag.Parse()
	s, err := fakeapi.Start(*addr, *logPath)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeapi: error: %v\n", err)
		return 1
	}
	s.SetBodyLimit(*body)
	fmt.Println(s.URL())
	// SIGUSR1 lets every held reply (HOLD) finish.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1)
	for <-sig == syscall.SIGUSR1 {
		s.Release()
	}
	s.Close()
	return 0
}
