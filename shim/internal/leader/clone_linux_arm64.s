#include "textflag.h"

#define SYS_exit 93

// CLONE makes the clone system call trap+0(FP) with arguments a1 to a3 and,
// in the new process, calls ENTRY(j). The new process returns from the system
// call on the stack the arguments gave it, with the caller's registers: j is
// kept in R19, which the kernel leaves alone, and passed on the new stack.
// Two functions, not one with the entry as an argument, so that the linker
// sees the calls and checks that they fit in their stacks.
#define CLONE(ENTRY) \
	MOVD	a1+8(FP), R0 \
	MOVD	a2+16(FP), R1 \
	MOVD	a3+24(FP), R2 \
	MOVD	$0, R3 \
	MOVD	$0, R4 \
	MOVD	$0, R5 \
	MOVD	j+32(FP), R19 \
	MOVD	trap+0(FP), R8 \
	SVC \
	CMP	$0, R0 \
	BEQ	child \
	CMN	$4095, R0 \
	BCC	ok \
	MOVD	$-1, R4 \
	MOVD	R4, r1+40(FP) \
	NEG	R0, R0 \
	MOVD	R0, errno+48(FP) \
	RET \
ok: \
	MOVD	R0, r1+40(FP) \
	MOVD	ZR, errno+48(FP) \
	RET \
child: \
	MOVD	RSP, R0 \
	AND	$~15, R0 \
	SUB	$32, R0 \
	MOVD	R0, RSP \
	MOVD	R19, 8(RSP) \
	CALL	ENTRY(SB) \
	MOVD	$111, R0 \
	MOVD	$SYS_exit, R8 \
	SVC \
	B	-3(PC)

// func cloneLeader(trap, a1, a2, a3 uintptr, j *job) (r1, errno uintptr)
TEXT ·cloneLeader(SB),NOSPLIT|NOFRAME,$0-56
	CLONE(·leadMain)

// func cloneProgram(trap, a1, a2, a3 uintptr, j *job) (r1, errno uintptr)
TEXT ·cloneProgram(SB),NOSPLIT|NOFRAME,$0-56
	CLONE(·programMain)
