#include "textflag.h"

// func rawSyscall(trap, a1, a2, a3, a4 uintptr) (r, errno uintptr)
TEXT ·rawSyscall(SB),NOSPLIT,$0-56
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	a3+24(FP), DX
	MOVQ	a4+32(FP), R10
	MOVQ	trap+0(FP), AX
	SYSCALL
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	NEGQ	AX
	MOVQ	$-1, r+40(FP)
	MOVQ	AX, errno+48(FP)
	RET
ok:
	MOVQ	AX, r+40(FP)
	MOVQ	$0, errno+48(FP)
	RET
