//go:build unix

package web

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own: Debian's chromium is
// a script whose browser processes outlive a kill of the script alone.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's whole process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
