// Package bounded runs the programs fleetcom only asks something of (tmux,
// ssh, sqlite3, an agent's --version, lsof, ps) so that no wait on them is
// without an end.
//
// Killing a program at a deadline is not enough to end the wait for it.
// exec.Cmd's Wait also waits until every copy of the program's output pipes
// is closed, and other processes may hold copies: a tmux client hands its
// descriptors to the tmux server, which keeps them while it is frozen; ssh
// starts a ProxyCommand or a control master that inherit its pipes; a
// wrapper script forks. Run therefore starts each program in a process
// group of its own, kills the whole group when the caller's context is done
// (and once the program is over, so nothing it started outlives it), and
// bounds the wait for the pipes after the program has ended or been killed
// (WaitDelay, Grace).
//
// Only for programs that read the terminal nothing: a process group of its
// own is not the terminal's foreground group, so a program that reads or
// sets up the terminal would be stopped (SIGTTIN, SIGTTOU). fzf and the
// agent CLIs are not run through here.
//
// It imports nothing of fleetcom.
package bounded
