#include "textflag.h"

#define SYS_exit 60

// func cloneCall(trap, a1, a2, a3 uintptr, j *job, entry uintptr) (r1, errno uintptr)
//
// The new process comes back from the system call on the stack the arguments
// gave it, with the caller's registers: j and entry are kept in R12 and R13,
// which the kernel leaves alone. It calls entry with j in AX, as Go's
// internal calling convention passes it, X15 zero as that convention
// expects, and the g register zero: nothing it runs may use the caller's
// goroutine, and a use faults at once rather than corrupting it.
TEXT ·cloneCall(SB),NOSPLIT|NOFRAME,$0-64
	MOVQ	a1+8(FP), DI
	MOVQ	a2+16(FP), SI
	MOVQ	a3+24(FP), DX
	MOVQ	$0, R10
	MOVQ	$0, R8
	MOVQ	$0, R9
	MOVQ	j+32(FP), R12
	MOVQ	entry+40(FP), R13
	MOVQ	trap+0(FP), AX
	SYSCALL
	CMPQ	AX, $0
	JEQ	child
	CMPQ	AX, $0xfffffffffffff001
	JLS	ok
	MOVQ	$-1, r1+48(FP)
	NEGQ	AX
	MOVQ	AX, errno+56(FP)
	RET
ok:
	MOVQ	AX, r1+48(FP)
	MOVQ	$0, errno+56(FP)
	RET
child:
	ANDQ	$~15, SP
	SUBQ	$16, SP
	MOVQ	R12, AX
	XORPS	X15, X15
	XORL	R14, R14
	CALL	R13
	MOVL	$111, DI
	MOVL	$SYS_exit, AX
	SYSCALL
	JMP	-3(PC)
