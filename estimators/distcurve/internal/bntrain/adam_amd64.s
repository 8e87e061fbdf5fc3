//go:build amd64

#include "textflag.h"

// func adamAVX512(w, grad, m, v *float32, n int, c *[6]float32)
// One Adam step on n/16*16 values, 16 lanes at a time; c holds beta1,
// 1-beta1, beta2, 1-beta2, lr_t and eps. m = beta1 m + (1-beta1) g,
// v = beta2 v + (1-beta2) g g, w = w - lr_t m / (sqrt(v) + eps), each
// "x + y z" one fused multiply-add.
TEXT ·adamAVX512(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ c+40(FP), AX
	VBROADCASTSS 0(AX), Z10
	VBROADCASTSS 4(AX), Z11
	VBROADCASTSS 8(AX), Z12
	VBROADCASTSS 12(AX), Z13
	VBROADCASTSS 16(AX), Z14
	VBROADCASTSS 20(AX), Z15
	SHRQ $4, CX
	JEQ done
loop:
	VMOVUPS (SI), Z0
	VMULPS (R8), Z10, Z1
	VFMADD231PS Z0, Z11, Z1
	VMOVUPS Z1, (R8)
	VMULPS Z0, Z0, Z2
	VMULPS (R9), Z12, Z3
	VFMADD231PS Z2, Z13, Z3
	VMOVUPS Z3, (R9)
	VSQRTPS Z3, Z4
	VADDPS Z15, Z4, Z4
	VDIVPS Z4, Z1, Z5
	VMOVUPS (DI), Z6
	VFNMADD231PS Z5, Z14, Z6
	VMOVUPS Z6, (DI)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $64, R9
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
