#include "textflag.h"
#include "funcdata.h"

// func reserve()
TEXT ·reserve(SB), 0, $65536-0
	NO_LOCAL_POINTERS
	RET
