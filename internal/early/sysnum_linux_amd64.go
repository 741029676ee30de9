package early

// The kernel's system call numbers on amd64 (sys_raw.go).
const (
	sysReadNum    = 0
	sysCloseNum   = 3
	sysGetpidNum  = 39
	sysExecve     = 59
	sysOpenat     = 257
	sysReadlinkat = 267
	sysFaccessat  = 269
	sysStatx      = 332
)
