#include "textflag.h"

// func rawSyscall(trap, a1, a2, a3, a4 uintptr) (r, errno uintptr)
TEXT ·rawSyscall(SB),NOSPLIT,$0-56
	MOVD	a1+8(FP), R0
	MOVD	a2+16(FP), R1
	MOVD	a3+24(FP), R2
	MOVD	a4+32(FP), R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	trap+0(FP), R8
	SVC
	CMN	$4095, R0
	BCC	ok
	NEG	R0, R0
	MOVD	$-1, R4
	MOVD	R4, r+40(FP)
	MOVD	R0, errno+48(FP)
	RET
ok:
	MOVD	R0, r+40(FP)
	MOVD	ZR, errno+48(FP)
	RET
