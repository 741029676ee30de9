//go:build !linux

package main

// liveEvents: without inotify, --watch redraws once a second only.
func liveEvents(string) int { return -1 }

func drain(int) {}
