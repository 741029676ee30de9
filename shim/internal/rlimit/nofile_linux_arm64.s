#include "textflag.h"

#define SYS_prlimit64 261
#define RLIMIT_NOFILE 7

// func getNofile(lim *[2]uint64) uintptr
TEXT ·getNofile(SB),NOSPLIT,$0-16
	MOVD	$0, R0 // this process
	MOVD	$RLIMIT_NOFILE, R1
	MOVD	$0, R2 // nothing new
	MOVD	lim+0(FP), R3 // the old limit
	MOVD	$SYS_prlimit64, R8
	SVC
	NEG	R0, R0
	MOVD	R0, ret+8(FP)
	RET
