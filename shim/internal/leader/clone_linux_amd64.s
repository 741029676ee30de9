#include "textflag.h"

#define SYS_exit 60

// CLONE makes the clone system call trap+0(FP) with arguments a1 to a3 and,
// in the new process, calls ENTRY(j). The new process returns from the system
// call on the stack the arguments gave it, with the caller's registers: j is
// kept in R12, which the kernel leaves alone, and passed on the new stack.
// Two functions, not one with the entry as an argument, so that the linker
// sees the calls and checks that they fit in their stacks.
#define CLONE(ENTRY) \
	MOVQ	a1+8(FP), DI \
	MOVQ	a2+16(FP), SI \
	MOVQ	a3+24(FP), DX \
	MOVQ	$0, R10 \
	MOVQ	$0, R8 \
	MOVQ	$0, R9 \
	MOVQ	j+32(FP), R12 \
	MOVQ	trap+0(FP), AX \
	SYSCALL \
	CMPQ	AX, $0 \
	JEQ	child \
	CMPQ	AX, $0xfffffffffffff001 \
	JLS	ok \
	MOVQ	$-1, r1+40(FP) \
	NEGQ	AX \
	MOVQ	AX, errno+48(FP) \
	RET \
ok: \
	MOVQ	AX, r1+40(FP) \
	MOVQ	$0, errno+48(FP) \
	RET \
child: \
	ANDQ	$~15, SP \
	SUBQ	$16, SP \
	MOVQ	R12, 0(SP) \
	CALL	ENTRY(SB) \
	MOVL	$111, DI \
	MOVL	$SYS_exit, AX \
	SYSCALL \
	JMP	-3(PC)

// func cloneLeader(trap, a1, a2, a3 uintptr, j *job) (r1, errno uintptr)
TEXT ·cloneLeader(SB),NOSPLIT|NOFRAME,$0-56
	CLONE(·leadMain)

// func cloneProgram(trap, a1, a2, a3 uintptr, j *job) (r1, errno uintptr)
TEXT ·cloneProgram(SB),NOSPLIT|NOFRAME,$0-56
	CLONE(·programMain)
