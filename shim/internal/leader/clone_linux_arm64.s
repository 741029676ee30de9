#include "textflag.h"

#define SYS_exit 93

// func cloneCall(trap, a1, a2, a3 uintptr, j *job, entry uintptr) (r1, errno uintptr)
//
// The new process comes back from the system call on the stack the arguments
// gave it, with the caller's registers: j and entry are kept in R19 and R20,
// which the kernel leaves alone. It calls entry with j in R0, as Go's
// internal calling convention passes it, and the g register zero: nothing it
// runs may use the caller's goroutine, and a use faults at once rather than
// corrupting it.
TEXT ·cloneCall(SB),NOSPLIT|NOFRAME,$0-64
	MOVD	a1+8(FP), R0
	MOVD	a2+16(FP), R1
	MOVD	a3+24(FP), R2
	MOVD	$0, R3
	MOVD	$0, R4
	MOVD	$0, R5
	MOVD	j+32(FP), R19
	MOVD	entry+40(FP), R20
	MOVD	trap+0(FP), R8
	SVC
	CMP	$0, R0
	BEQ	child
	CMN	$4095, R0
	BCC	ok
	MOVD	$-1, R4
	MOVD	R4, r1+48(FP)
	NEG	R0, R0
	MOVD	R0, errno+56(FP)
	RET
ok:
	MOVD	R0, r1+48(FP)
	MOVD	ZR, errno+56(FP)
	RET
child:
	MOVD	RSP, R0
	AND	$~15, R0
	SUB	$32, R0
	MOVD	R0, RSP
	MOVD	R19, R0
	MOVD	ZR, g
	CALL	(R20)
	MOVD	$111, R0
	MOVD	$SYS_exit, R8
	SVC
	B	-3(PC)
