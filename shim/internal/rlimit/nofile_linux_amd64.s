#include "textflag.h"

#define SYS_prlimit64 302
#define RLIMIT_NOFILE 7

// func getNofile(lim *[2]uint64) uintptr
TEXT ·getNofile(SB),NOSPLIT,$0-16
	MOVQ	$0, DI // this process
	MOVQ	$RLIMIT_NOFILE, SI
	MOVQ	$0, DX // nothing new
	MOVQ	lim+0(FP), R10 // the old limit
	MOVQ	$SYS_prlimit64, AX
	SYSCALL
	NEGQ	AX
	MOVQ	AX, ret+8(FP)
	RET
