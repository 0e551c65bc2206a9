//go:build unix

package ai

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the bot in a process group of its own, so that killing it
// also kills what it started (a script's children would otherwise keep its
// output open).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the bot and everything in its process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
