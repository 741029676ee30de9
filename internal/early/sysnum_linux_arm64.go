package early

// The kernel's system call numbers on arm64 (sys_raw.go).
const (
	sysFaccessat  = 48
	sysOpenat     = 56
	sysCloseNum   = 57
	sysReadNum    = 63
	sysReadlinkat = 78
	sysGetpidNum  = 172
	sysExecve     = 221
	sysStatx      = 291
)
