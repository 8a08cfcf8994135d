/* analyzer/frontend/extract_asm.h — inline assembly statements in the walk
 * of a function (extract_asm.c): the fence one makes and the memory its
 * operands name. */
#ifndef KCSAN_EXTRACT_ASM_H
#define KCSAN_EXTRACT_ASM_H

#include "libclang.h"

struct ectx;

/* Walks the asm statement C of the function being walked: its operands'
 * expressions, the memory they name, the fence it makes. */
void walk_asm(struct ectx *x, CXCursor c);
/* Drops what walk_asm keeps of the function walked before. */
void forget_asm(struct ectx *x);

#endif
