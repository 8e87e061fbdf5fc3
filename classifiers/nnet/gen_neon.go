//go:build ignore

// gen_neon is the arm64 part of the kernel generator, run together with
// gen_avx512.go (go run gen_avx512.go gen_neon.go, which go generate does):
// genNEON writes kernel_neon_arm64.s and declsNEON kernel_neon_tiles.go,
// the routines of the neon kernel, with the names and signatures of the
// AVX-512 ones suffixed NEON, and their table neonRoutines.
//
// Layout: a NEON register holds 4 float32 lanes, so each 16-row block
// (64 bytes) is four quarters at byte offsets 0, 16, 32 and 48 of the same
// layout as the AVX-512 kernel's. Lanes are independent: a routine takes
// the quarters one after another, or several at a time, and every lane
// performs f32GoKernel's operations (kernel_f32.go) in its order, with
// FMLA (fused, one rounding) where it has fma32, FMLA on float64 lanes
// (after FCVTL) where it has math.FMA, and the IEEE FADD, FSUB, FMUL and
// FDIV elsewhere. FMAX and FMIN clamp as Go's max and min do here: the
// values are never NaN and the clamp constants never zero. The numerics
// assume the FPCR Go runs with on arm64: round to nearest, no
// flush-to-zero.
//
// Registers: 32 vector registers V0-V31 (none reserved by Go's ABI; an
// ABI0 routine may clobber all of them), general registers R0-R15 and
// R19-R20 (R16-R17 are left to the linker's veneers, R18 to the platform,
// R27 to the assembler, which uses it for VMOVQ's literal).
//
// Encodings: Go's arm64 assembler has the NEON loads and stores, VFMLA and
// VFMLS (float32 and float64 lanes), VTBL, the integer VADD and VSHL,
// but not the floating-point FADD, FSUB, FMUL, FDIV, FMAX and FMIN of
// vectors, FCVTL/FCVTL2 (float32 to float64 lanes) nor FMLA and FMUL by
// element. Those are emitted as WORD with the encoding computed here from
// the ARMv8-A encoding tables (Arm Architecture Reference Manual, C4.1:
// "Advanced SIMD three same", "Advanced SIMD two-register miscellaneous",
// "Advanced SIMD vector x indexed element"), each commented with its GNU
// disassembly; verifyNEON (go run gen_avx512.go gen_neon.go -verify
// BINARY) checks every such comment against the disassembly of an arm64
// binary that links the routines (go tool objdump -gnu, whose decoder is
// golang.org/x/arch/arm64/arm64asm).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// simdSame encodes an Advanced SIMD "three same" instruction on 128-bit
// vectors (Q = 1): 0 Q U 01110 a sz 1 Rm opcode 1 Rn Rd, where a is bit 23
// (size<1>) and sz bit 22 (0: single precision).
func simdSame(u, a, sz, opcode uint32, d, n, m int) uint32 {
	return 1<<30 | u<<29 | 0b01110<<24 | a<<23 | sz<<22 | 1<<21 |
		uint32(m)<<16 | opcode<<11 | 1<<10 | uint32(n)<<5 | uint32(d)
}

// simdMisc encodes an Advanced SIMD "two-register miscellaneous"
// instruction: 0 Q U 01110 a sz 10000 opcode 10 Rn Rd.
func simdMisc(q, u, a, sz, opcode uint32, d, n int) uint32 {
	return q<<30 | u<<29 | 0b01110<<24 | a<<23 | sz<<22 | 0b10000<<17 |
		opcode<<12 | 0b10<<10 | uint32(n)<<5 | uint32(d)
}

// simdElem encodes an Advanced SIMD "vector x indexed element" instruction
// on single-precision lanes (Q = 1, size = 10): 0 Q U 01111 size L M Rm
// opcode H 0 Rn Rd, the element index i as H:L and the register m (any of
// V0-V31 for single precision) as M:Rm.
func simdElem(u, opcode uint32, d, n, m, i int) uint32 {
	return 1<<30 | u<<29 | 0b01111<<24 | 0b10<<22 | uint32(i&1)<<21 |
		uint32(m)<<16 | opcode<<12 | uint32(i>>1)<<11 | uint32(n)<<5 | uint32(d)
}

// neonAsm writes NEON instructions on 4-lane float32 vectors (registers by
// number): the native Go assembler forms, or WORD with the encoding and
// the GNU disassembly as comment.
type neonAsm struct{ p emit }

func (a neonAsm) word(w uint32, gnu string, args ...any) {
	a.p("\tWORD $0x%08x // %s", w, fmt.Sprintf(gnu, args...))
}

func (a neonAsm) same(name string, u, aa, op uint32, d, n, m int) {
	a.word(simdSame(u, aa, 0, op, d, n, m), "%s v%d.4s, v%d.4s, v%d.4s", name, d, n, m)
}

// The three-same floating-point opcodes (U, a, opcode).
func (a neonAsm) fadd(d, n, m int) { a.same("fadd", 0, 0, 0b11010, d, n, m) } // d = n + m
func (a neonAsm) fsub(d, n, m int) { a.same("fsub", 0, 1, 0b11010, d, n, m) } // d = n - m
func (a neonAsm) fmul(d, n, m int) { a.same("fmul", 1, 0, 0b11011, d, n, m) } // d = n * m
func (a neonAsm) fdiv(d, n, m int) { a.same("fdiv", 1, 0, 0b11111, d, n, m) } // d = n / m
func (a neonAsm) fmax(d, n, m int) { a.same("fmax", 0, 0, 0b11110, d, n, m) } // d = max(n, m)
func (a neonAsm) fmin(d, n, m int) { a.same("fmin", 0, 1, 0b11110, d, n, m) } // d = min(n, m)

// fcvtl widens lanes 0-1 of n to the float64 lanes of d (exact);
// fcvtl2 widens lanes 2-3.
func (a neonAsm) fcvtl(d, n int) {
	a.word(simdMisc(0, 0, 0, 1, 0b10111, d, n), "fcvtl v%d.2d, v%d.2s", d, n)
}

func (a neonAsm) fcvtl2(d, n int) {
	a.word(simdMisc(1, 0, 0, 1, 0b10111, d, n), "fcvtl2 v%d.2d, v%d.4s", d, n)
}

// fmlaElem: d = d + n*m[i], fused (one rounding), m[i] lane i of m.
func (a neonAsm) fmlaElem(d, n, m, i int) {
	a.word(simdElem(0, 0b0001, d, n, m, i), "fmla v%d.4s, v%d.4s, v%d.s[%d]", d, n, m, i)
}

// fmulElem: d = n * m[i].
func (a neonAsm) fmulElem(d, n, m, i int) {
	a.word(simdElem(0, 0b1001, d, n, m, i), "fmul v%d.4s, v%d.4s, v%d.s[%d]", d, n, m, i)
}

// fmla: d = d + n*m, fused; fmls: d = d - n*m, fused (= fma(-n, m, d):
// negation is exact); fmla2d: fmla on float64 lanes.
func (a neonAsm) fmla(d, n, m int)   { a.p("\tVFMLA V%d.S4, V%d.S4, V%d.S4", m, n, d) }
func (a neonAsm) fmls(d, n, m int)   { a.p("\tVFMLS V%d.S4, V%d.S4, V%d.S4", m, n, d) }
func (a neonAsm) fmla2d(d, n, m int) { a.p("\tVFMLA V%d.D2, V%d.D2, V%d.D2", m, n, d) }

// mov: d = n.
func (a neonAsm) mov(d, n int) { a.p("\tVMOV V%d.B16, V%d.B16", n, d) }

// ldq loads the 16 bytes at mem into d; stq stores d there.
func (a neonAsm) ldq(d int, mem string) { a.p("\tFMOVQ %s, F%d", mem, d) }
func (a neonAsm) stq(d int, mem string) { a.p("\tFMOVQ F%d, %s", d, mem) }

// off formats a memory operand off(base).
func off(o int, base string) string { return fmt.Sprintf("%d(%s)", o, base) }

// neonConsts names the vector registers holding the constants tanh32 takes
// as operands (the clamps and the first coefficient of each Horner chain)
// and the general register k holding the address of consts (kernel_vec.go),
// from whose rows the other coefficients are loaded: each Horner step
// starts from a fresh copy of its coefficient anyway (FMLA accumulates into
// its destination), and a load is that copy.
type neonConsts struct {
	neg9, pos9, p5, q4, negOne, one int
	k                               string
}

// loadConsts loads the constants' registers from k.
func (a neonAsm) loadConsts(c neonConsts) {
	for _, r := range []struct{ reg, off int }{
		{c.neg9, cNeg9}, {c.pos9, cPos9}, {c.p5, cP5}, {c.q4, cQ4}, {c.negOne, cNegOne}, {c.one, cOne},
	} {
		a.ldq(r.reg, off(r.off, c.k))
	}
}

// tanhRegs are the registers of one tanh32 evaluation: x (argument and
// result), y = x*x, and two registers for each Horner chain, which
// alternate as the running value and the next step's fresh coefficient.
type tanhRegs struct{ x, y, pa, pb, qa, qb int }

// tanh writes tanh32 (kernel_f32.go) of every rs[i].x, the evaluations
// interleaved instruction by instruction (they are independent), and the
// P and Q chains interleaved step by step:
//
//	x = min(max(x, -9), 9);  y = x*x
//	p = fma(fma(fma(fma(fma(P5, y, P4), y, P3), y, P2), y, P1), y, P0)
//	q = fma(fma(fma(fma(Q4, y, Q3), y, Q2), y, Q1), y, 1)
//	x = min(max((x*p)/q, -1), 1)
func (a neonAsm) tanh(rs []tanhRegs, c neonConsts) {
	each := func(f func(r tanhRegs)) {
		for _, r := range rs {
			f(r)
		}
	}
	each(func(r tanhRegs) { a.fmax(r.x, r.x, c.neg9) })
	each(func(r tanhRegs) { a.fmin(r.x, r.x, c.pos9) })
	each(func(r tanhRegs) { a.fmul(r.y, r.x, r.x) })
	pCoef := []int{cP4, cP3, cP2, cP1, cP0}
	qCoef := []int{cQ3, cQ2, cQ1, cOne}
	// Step i writes b (i even) or a (i odd) of its chain: fresh
	// coefficient, then += previous value * y (the constant register
	// P5 or Q4 at step 0). P ends in pb (5 steps), Q in qa (4 steps).
	step := func(i int, coef []int, first int, ra, rb func(tanhRegs) int) {
		dst, prev := rb, ra
		if i%2 == 1 {
			dst, prev = ra, rb
		}
		each(func(r tanhRegs) { a.ldq(dst(r), off(coef[i], c.k)) })
		each(func(r tanhRegs) {
			src := first
			if i > 0 {
				src = prev(r)
			}
			a.fmla(dst(r), src, r.y)
		})
	}
	pa := func(r tanhRegs) int { return r.pa }
	pb := func(r tanhRegs) int { return r.pb }
	qa := func(r tanhRegs) int { return r.qa }
	qb := func(r tanhRegs) int { return r.qb }
	for i := range pCoef {
		step(i, pCoef, c.p5, pa, pb)
		if i < len(qCoef) {
			step(i, qCoef, c.q4, qa, qb)
		}
	}
	each(func(r tanhRegs) { a.fmul(r.x, r.x, r.pb) })
	each(func(r tanhRegs) { a.fdiv(r.x, r.x, r.qa) })
	each(func(r tanhRegs) { a.fmax(r.x, r.x, c.negOne) })
	each(func(r tanhRegs) { a.fmin(r.x, r.x, c.one) })
}

// maxCN is the widest NEON backward tile for U units: U*C accumulators,
// C columns of x and two registers for the deltas in 32, at most 8 columns.
func maxCN(u int) int { return min(8, 30/(u+1)) }

// declsNEON writes the Go declarations of the NEON routines and their table
// (neonRoutines), with maxTileUnits (declared by kernel_avx512_tiles.go on
// amd64).
func declsNEON(q emit) {
	q("// maxTileUnits is the most hidden units one call of the assembly loops handles.")
	q("const maxTileUnits = %d", maxU)
	q("")
	decls(q, "NEON", "neonRoutines", maxCN, false)
}

// emitPairsNEON is emitPairs for arm64.
func emitPairsNEON(p emit, ps pairSteps, body func()) {
	p("\tMOVD %s, R0", ps.pairs)
	p("\tCMP $0, R0")
	p("\tBLE pairsdone")
	p("pairsloop:")
	body()
	for _, st := range ps.steps {
		p("\tMOVD %s, R0", st.stride)
		p("\tMOVD %s, R1", st.ptr)
		p("\tADD R0<<1, R1, R1")
		p("\tMOVD R1, %s", st.ptr)
	}
	p("\tMOVD %s, R0", ps.pairs)
	p("\tSUBS $1, R0, R0")
	p("\tMOVD R0, %s", ps.pairs)
	p("\tBNE pairsloop")
	p("pairsdone:")
}

// genNEON writes the NEON routines (names suffixed NEON). Each performs,
// lane by lane, the operations of the AVX-512 routine of the same name
// (and of f32GoKernel) in the same order, on the quarters of the blocks:
//
//   - fwdDenseU, nibU: the 8 quarters of blocks A and B in passes of as
//     many as fit in the registers (U accumulators and an input or index
//     register each), over all columns (nibbles) per pass;
//   - nibU looks up T[m] with TBL over the 64-byte table in 4 registers:
//     each lane's index m (0..15, a uint32) becomes the byte indices
//     4m, 4m+1, 4m+2, 4m+3 (shift left 2, copy the low byte into the
//     lane's 4 bytes with a TBL by a constant, add 0, 1, 2, 3);
//   - bwdTileUxC: one pass over the blocks per quarter, the U*C
//     accumulators in registers;
//   - tanhN and predOut: the 4 quarters of a block at a time;
//   - outU, outH: one pass over the blocks per quarter, with the quarter's
//     output-bias gradient and float64 losses in registers (the gradients
//     of the output weights and hidden biases, in memory, are per lane, so
//     the passes touch disjoint quarters).
func genNEON(p emit) {
	a := neonAsm{p}
	type stream struct {
		b bool // block B (at +stride), else A
		q int  // quarter
	}
	var all []stream
	for _, b := range []bool{false, true} {
		for q := range 4 {
			all = append(all, stream{b, q})
		}
	}
	// passes splits the 8 streams into passes of s.
	passes := func(s int) [][]stream {
		var ps [][]stream
		for i := 0; i < len(all); i += s {
			ps = append(ps, all[i:i+s])
		}
		return ps
	}
	// fit is the most streams per pass (8, 4, 2 or 1) that need per
	// registers each within regs registers.
	fit := func(per, regs int) int {
		s := 8
		for s > 1 && s*per > regs {
			s /= 2
		}
		return s
	}
	// mem is stream st's quarter at byte offset o from block A's base ra
	// (block B's is rb).
	mem := func(st stream, o int, ra, rb string) string {
		if st.b {
			return off(16*st.q+o, rb)
		}
		return off(16*st.q+o, ra)
	}
	// wreg(i) holds the address of unit i's row (weights, tables, gradient
	// rows): R4..R11, each the previous plus the stride in R3.
	wreg := func(i int) string { return fmt.Sprintf("R%d", 4+i) }
	chain := func(u int) {
		for i := 1; i < u; i++ {
			p("\tADD R3, %s, %s", wreg(i-1), wreg(i))
		}
	}

	// pairBase loads a pair's block A pointer from slot ptr into ra and its
	// block B pointer (one stride on) into rb.
	pairBase := func(ptr, stride, ra, rb string) {
		p("\tMOVD %s, %s", ptr, ra)
		p("\tMOVD %s, %s", stride, rb)
		p("\tADD %s, %s, %s", ra, rb, rb)
	}

	for u := 1; u <= maxU; u++ {
		// fwdDenseUNEON: a[u][blk] = b[u] + sum_c W[u][c] x[blk][c].
		// Registers: per stream U accumulators and an input column; two
		// for the broadcast weights.
		p("")
		p("// func fwdDense%dNEON(x *float32, xstride int, w *float32, wstride int, dn int, z *float32, zstride int, b *float32, pairs int)", u)
		p("TEXT ·fwdDense%dNEON(SB), NOSPLIT, $0-72", u)
		s := fit(u+1, 30)
		emitPairsNEON(p, fwdPairs, func() {
			for pi, pass := range passes(s) {
				acc := func(si, i int) int { return si*u + i }
				xr := func(si int) int { return s*u + si }
				bc := [2]int{s * (u + 1), s*(u+1) + 1}
				p("\tMOVD b+56(FP), R2")
				for i := range u {
					p("\tVLD1R.P 4(R2), [V%d.S4]", acc(0, i))
					for si := 1; si < len(pass); si++ {
						a.mov(acc(si, i), acc(0, i))
					}
				}
				pairBase("x+0(FP)", "xstride+8(FP)", "R0", "R1")
				p("\tMOVD w+16(FP), R4")
				p("\tMOVD wstride+24(FP), R3")
				chain(u)
				p("\tMOVD dn+32(FP), R2")
				p("\tCBZ R2, p%ddone", pi)
				p("p%dloop:", pi)
				for si, st := range pass {
					a.ldq(xr(si), mem(st, 0, "R0", "R1"))
				}
				p("\tADD $64, R0")
				p("\tADD $64, R1")
				for i := range u {
					b := bc[i%2]
					p("\tVLD1R.P 4(%s), [V%d.S4]", wreg(i), b)
					for si := range pass {
						a.fmla(acc(si, i), xr(si), b)
					}
				}
				p("\tSUB $1, R2")
				p("\tCBNZ R2, p%dloop", pi)
				p("p%ddone:", pi)
				pairBase("z+40(FP)", "zstride+48(FP)", "R0", "R1")
				for si, st := range pass {
					for i := range u {
						a.stq(acc(si, i), mem(st, 64*i, "R0", "R1"))
					}
				}
			}
		})
		p("\tRET")

		// nibUNEON: a[u][blk] += T[u][q][m_q(blk)] over the nibbles q in
		// order. Registers: per stream U accumulators and the byte
		// indices; at least one temporary, V26-V29 a unit's table, V30
		// V31 the index constants.
		p("")
		p("// func nib%dNEON(tab *float32, tabstride int, nib *uint32, nibB int, nq int, z *float32, zstride int, pairs int)", u)
		p("TEXT ·nib%dNEON(SB), NOSPLIT, $0-64", u)
		p("\tVMOVQ $0x0404040400000000, $0x0c0c0c0c08080808, V30") // TBL: each lane's byte 0 into its 4 bytes
		p("\tVMOVQ $0x0302010003020100, $0x0302010003020100, V31") // then + 0, 1, 2, 3
		s = fit(u+1, 25)
		emitPairsNEON(p, nibPairs, func() {
			for pi, pass := range passes(s) {
				acc := func(si, i int) int { return si*u + i }
				idx := func(si int) int { return s*u + si }
				var tmp []int
				for r := s * (u + 1); r < 26; r++ {
					tmp = append(tmp, r)
				}
				pairBase("z+40(FP)", "zstride+48(FP)", "R0", "R1")
				for si, st := range pass {
					for i := range u {
						a.ldq(acc(si, i), mem(st, 64*i, "R0", "R1"))
					}
				}
				p("\tMOVD tab+0(FP), R4")
				p("\tMOVD tabstride+8(FP), R3")
				chain(u)
				pairBase("nib+16(FP)", "nibB+24(FP)", "R2", "R12")
				p("\tMOVD nq+32(FP), R13")
				p("\tCBZ R13, p%ddone", pi)
				p("p%dloop:", pi)
				for si, st := range pass {
					r := idx(si)
					a.ldq(r, mem(st, 0, "R2", "R12"))
					p("\tVSHL $2, V%d.S4, V%d.S4", r, r)
					p("\tVTBL V30.B16, [V%d.B16], V%d.B16", r, r)
					p("\tVADD V31.B16, V%d.B16, V%d.B16", r, r)
				}
				p("\tADD $64, R2")
				p("\tADD $64, R12")
				t := 0
				for i := range u {
					p("\tVLD1.P 64(%s), [V26.S4, V27.S4, V28.S4, V29.S4]", wreg(i))
					for si := range pass {
						tr := tmp[t%len(tmp)]
						t++
						p("\tVTBL V%d.B16, [V26.B16, V27.B16, V28.B16, V29.B16], V%d.B16", idx(si), tr)
						a.fadd(acc(si, i), acc(si, i), tr)
					}
				}
				p("\tSUB $1, R13")
				p("\tCBNZ R13, p%dloop", pi)
				p("p%ddone:", pi)
				pairBase("z+40(FP)", "zstride+48(FP)", "R0", "R1")
				for si, st := range pass {
					for i := range u {
						a.stq(acc(si, i), mem(st, 64*i, "R0", "R1"))
					}
				}
			}
		})
		p("\tRET")

		// bwdTileUxCNEON: g[u][c] += sum over n blocks of dh[blk][u]
		// x[blk][c], one pass over the blocks per quarter.
		for c := 1; c <= maxCN(u); c++ {
			p("")
			p("// func bwdTile%dx%dNEON(x *float32, xstride int, dh *float32, dhstride int, n int, gr *float32, gstride int)", u, c)
			p("TEXT ·bwdTile%dx%dNEON(SB), NOSPLIT, $0-56", u, c)
			acc := func(i, k int) int { return i*c + k }
			xr := func(k int) int { return u*c + k }
			dh := [2]int{u*c + c, u*c + c + 1}
			p("\tMOVD gr+40(FP), R4")
			p("\tMOVD gstride+48(FP), R3")
			chain(u)
			for q := range 4 {
				for i := range u {
					for k := range c {
						a.ldq(acc(i, k), off(64*k+16*q, wreg(i)))
					}
				}
				p("\tMOVD x+0(FP), R0")
				p("\tMOVD xstride+8(FP), R1")
				p("\tMOVD dh+16(FP), R2")
				p("\tMOVD dhstride+24(FP), R12")
				p("\tMOVD n+32(FP), R13")
				p("\tCBZ R13, p%ddone", q)
				p("p%dloop:", q)
				for k := range c {
					a.ldq(xr(k), off(64*k+16*q, "R0"))
				}
				for i := range u {
					a.ldq(dh[i%2], off(64*i+16*q, "R2"))
					for k := range c {
						a.fmla(acc(i, k), xr(k), dh[i%2])
					}
				}
				p("\tADD R1, R0")
				p("\tADD R12, R2")
				p("\tSUB $1, R13")
				p("\tCBNZ R13, p%dloop", q)
				p("p%ddone:", q)
				for i := range u {
					for k := range c {
						a.stq(acc(i, k), off(64*k+16*q, wreg(i)))
					}
				}
			}
			p("\tRET")
		}
	}

	// The 4 quarters of one block in V0-V3, their tanh temporaries in
	// V4-V23, the constants in V24-V29 (tanhN, predOut).
	var quarters []tanhRegs
	for i := range 4 {
		quarters = append(quarters, tanhRegs{x: i, y: 4 + 5*i, pa: 5 + 5*i, pb: 6 + 5*i, qa: 7 + 5*i, qb: 8 + 5*i})
	}
	kc := func(k string) neonConsts { return neonConsts{24, 25, 26, 27, 28, 29, k} }

	// tanhNNEON: z[i] = tanh32(z[i]) for n vectors of 16 lanes.
	p("")
	p("// func tanhNNEON(z *float32, n int, c *float32)")
	p("TEXT ·tanhNNEON(SB), NOSPLIT, $0-24")
	p("\tMOVD c+16(FP), R1")
	a.loadConsts(kc("R1"))
	p("\tMOVD z+0(FP), R0")
	p("\tMOVD n+8(FP), R2")
	p("\tCBZ R2, tanhdone")
	p("tanhloop:")
	p("\tVLD1 (R0), [V0.S4, V1.S4, V2.S4, V3.S4]")
	a.tanh(quarters, kc("R1"))
	p("\tVST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)")
	p("\tSUB $1, R2")
	p("\tCBNZ R2, tanhloop")
	p("tanhdone:")
	p("\tRET")

	// The output loops (outU, outH), one pass per quarter q over the n
	// blocks. General registers: R0 z, R1 dh (both [block][unit][16]),
	// R2 v, R3 t, R4 wt, R5 wt64, R6 wv64, R7 blocks left, R8 training
	// blocks left, R9 acc, R10 constants, R11 gv or gb. Vector registers:
	// V31 c, V24-V29 tanh's constants, V20 gc, V21 V22 the training loss
	// (float64, the quarter's lanes 0-1 and 2-3), V16 V17 the validation
	// loss; V0 o, then y; V1-V5 tanh's temporaries, then V1 e, V2 e2, V3
	// V4 its float64 halves, V5-V8 the float64 weights; V9 dl, V10 1 - y^2,
	// V11 wt, V12 z_j, V13 1 - z_j^2, V14 dh_j, V15 gv_j or gb_j.
	oc := kc("R10")
	otanh := []tanhRegs{{x: 0, y: 1, pa: 2, pb: 3, qa: 4, qb: 5}}
	prologue := func() {
		p("\tMOVD c+24(FP), R11")
		p("\tVLD1R (R11), [V31.S4]")
		p("\tMOVD k+88(FP), R10")
		a.loadConsts(oc)
		p("\tMOVD acc+80(FP), R9")
	}
	accOff := func(field string, q int) string {
		return fmt.Sprintf("outAcc_%s%d+%d(R9)", field, q/2, 32*(q%2))
	}
	passStart := func(q int) {
		p("\tMOVD z+0(FP), R0")
		p("\tMOVD dh+8(FP), R1")
		p("\tMOVD v+16(FP), R2")
		p("\tMOVD t+32(FP), R3")
		p("\tMOVD wt+40(FP), R4")
		p("\tMOVD wt64+48(FP), R5")
		p("\tMOVD wv64+56(FP), R6")
		p("\tMOVD n+64(FP), R7")
		p("\tMOVD ntr+72(FP), R8")
		a.ldq(20, fmt.Sprintf("outAcc_gc+%d(R9)", 16*q))
		p("\tFLDPQ %s, (F21, F22)", accOff("t", q))
		p("\tFLDPQ %s, (F16, F17)", accOff("v", q))
		p("\tCBZ R7, p%ddone", q)
	}
	passEnd := func(q int) {
		a.stq(20, fmt.Sprintf("outAcc_gc+%d(R9)", 16*q))
		p("\tFSTPQ (F21, F22), %s", accOff("t", q))
		p("\tFSTPQ (F16, F17), %s", accOff("v", q))
	}
	// loss: y (V0) to e, e2 and the float64 losses; then, for a training
	// block, dl and the output-bias gradient.
	loss := func(q int) {
		a.ldq(1, off(16*q, "R3"))
		a.fsub(1, 0, 1) // e = y - t
		a.fmul(2, 1, 1) // e2 = e*e
		a.fcvtl(3, 2)
		a.fcvtl2(4, 2)
		p("\tFLDPQ %d(R5), (F5, F6)", 32*q)
		a.fmla2d(21, 3, 5) // sT = fma64(wt64, e2, sT)
		a.fmla2d(22, 4, 6)
		p("\tFLDPQ %d(R6), (F7, F8)", 32*q)
		a.fmla2d(16, 3, 7)
		a.fmla2d(17, 4, 8)
		p("\tCBZ R8, p%dnext", q)
		p("\tSUB $1, R8")
		a.mov(10, oc.one)
		a.fmls(10, 0, 0) // 1 - y*y, one rounding
		a.ldq(11, off(16*q, "R4"))
		a.fmul(9, 1, 11) // e*wt
		a.fmul(9, 9, 10) // dl = (wt*e)*(1 - y*y)
		a.fadd(20, 20, 9)
	}
	advance := func(q int, zStep string) {
		p("p%dnext:", q)
		p("\tADD %s, R0", zStep)
		p("\tADD %s, R1", zStep)
		p("\tADD $64, R3")
		p("\tADD $64, R4")
		p("\tADD $128, R5")
		p("\tADD $128, R6")
		p("\tSUB $1, R7")
		p("\tCBNZ R7, p%dloop", q)
		p("p%ddone:", q)
	}

	// outUNEON: v_j in the lanes of V18 (j < 4) and V19, used by element.
	for u := 1; u <= maxU; u++ {
		p("")
		p("// func out%dNEON(z *float32, dh *float32, v *float32, c *float32, t *float32, wt *float32, wt64 *float64, wv64 *float64, n int, ntr int, acc *outAcc, k *float32)", u)
		p("TEXT ·out%dNEON(SB), NOSPLIT, $0-96", u)
		prologue()
		p("\tMOVD v+16(FP), R11")
		for r := 18; r <= 18+(u-1)/4; r++ {
			p("\tVEOR V%d.B16, V%d.B16, V%d.B16", r, r, r)
		}
		for j := range u {
			p("\tVLD1.P 4(R11), V%d.S[%d]", 18+j/4, j%4)
		}
		for q := range 4 {
			passStart(q)
			p("p%dloop:", q)
			a.mov(0, 31) // o = c
			for j := range u {
				zr := 12 + j%4
				a.ldq(zr, off(64*j+16*q, "R0"))
				a.fmlaElem(0, zr, 18+j/4, j%4) // o = fma(v_j, z_j, o)
			}
			a.tanh(otanh, oc)
			loss(q)
			p("\tMOVD outAcc_gv(R9), R11")
			for j := range u {
				o := 64*j + 16*q
				a.ldq(15, off(o, "R11"))
				a.ldq(12, off(o, "R0"))
				a.fmla(15, 9, 12) // gv_j = fma(dl, z_j, gv_j)
				a.stq(15, off(o, "R11"))
			}
			p("\tMOVD outAcc_gb(R9), R11")
			for j := range u {
				o := 64*j + 16*q
				a.ldq(12, off(o, "R0"))
				a.mov(13, oc.one)
				a.fmls(13, 12, 12)             // 1 - z*z
				a.fmulElem(14, 9, 18+j/4, j%4) // dl*v_j
				a.fmul(14, 14, 13)             // dh_j = (dl*v_j)*(1 - z*z)
				a.ldq(15, off(o, "R11"))
				a.fadd(15, 15, 14)
				a.stq(15, off(o, "R11"))
				a.stq(14, off(o, "R1"))
			}
			advance(q, fmt.Sprintf("$%d", 64*u))
			passEnd(q)
		}
		p("\tRET")
	}

	// outHNEON: outU for any number h >= 1 of hidden units, the loops over
	// the units run rather than unrolled (vecKernel.forward for h > 8): R12
	// h, R13 64h; R11, R14, R19, R20 walk gv or gb, z, dh and v, R15
	// counts units; v_j broadcast into V13 (forward) or V10 (deltas).
	p("")
	p("// func outHNEON(z *float32, dh *float32, v *float32, c *float32, t *float32, wt *float32, wt64 *float64, wv64 *float64, n int, ntr int, acc *outAcc, k *float32, h int)")
	p("TEXT ·outHNEON(SB), NOSPLIT, $0-104")
	prologue()
	p("\tMOVD h+96(FP), R12")
	p("\tLSL $6, R12, R13")
	for q := range 4 {
		passStart(q)
		p("p%dloop:", q)
		a.mov(0, 31)
		p("\tMOVD R2, R11")
		p("\tMOVD R0, R14")
		p("\tMOVD R12, R15")
		p("p%dfwd:", q)
		p("\tVLD1R.P 4(R11), [V13.S4]")
		a.ldq(12, off(16*q, "R14"))
		p("\tADD $64, R14")
		a.fmla(0, 12, 13)
		p("\tSUB $1, R15")
		p("\tCBNZ R15, p%dfwd", q)
		a.tanh(otanh, oc)
		loss(q)
		p("\tMOVD outAcc_gv(R9), R11")
		p("\tMOVD R0, R14")
		p("\tMOVD R12, R15")
		p("p%dgv:", q)
		a.ldq(15, off(16*q, "R11"))
		a.ldq(12, off(16*q, "R14"))
		a.fmla(15, 9, 12)
		a.stq(15, off(16*q, "R11"))
		p("\tADD $64, R11")
		p("\tADD $64, R14")
		p("\tSUB $1, R15")
		p("\tCBNZ R15, p%dgv", q)
		p("\tMOVD outAcc_gb(R9), R11")
		p("\tMOVD R0, R14")
		p("\tMOVD R1, R19")
		p("\tMOVD R2, R20")
		p("\tMOVD R12, R15")
		p("p%dgb:", q)
		a.ldq(12, off(16*q, "R14"))
		a.mov(13, oc.one)
		a.fmls(13, 12, 12)
		p("\tVLD1R.P 4(R20), [V10.S4]")
		a.fmul(14, 9, 10)
		a.fmul(14, 14, 13)
		a.ldq(15, off(16*q, "R11"))
		a.fadd(15, 15, 14)
		a.stq(15, off(16*q, "R11"))
		a.stq(14, off(16*q, "R19"))
		p("\tADD $64, R11")
		p("\tADD $64, R14")
		p("\tADD $64, R19")
		p("\tSUB $1, R15")
		p("\tCBNZ R15, p%dgb", q)
		advance(q, "R13")
		passEnd(q)
	}
	p("\tRET")

	// predOutNEON: the output unit of prediction (vecKernel.predict) for n
	// blocks of h hidden outputs each ([block][unit][16] from z), the 4
	// quarters of a block at a time: y = tanh32(o), o = c; o = fma(v_j,
	// z_j, o) over j. V30 c, V8 v_j.
	p("")
	p("// func predOutNEON(z *float32, v *float32, c *float32, h int, n int, y *float32, k *float32)")
	p("TEXT ·predOutNEON(SB), NOSPLIT, $0-56")
	p("\tMOVD z+0(FP), R0")
	p("\tMOVD c+16(FP), R1")
	p("\tVLD1R (R1), [V30.S4]")
	p("\tMOVD n+32(FP), R2")
	p("\tMOVD y+40(FP), R3")
	p("\tMOVD k+48(FP), R4")
	a.loadConsts(kc("R4"))
	p("\tCBZ R2, predOutdone")
	p("predOutloop:")
	for i := range 4 {
		a.mov(i, 30)
	}
	p("\tMOVD v+8(FP), R5")
	p("\tMOVD h+24(FP), R6")
	p("\tCBZ R6, predOuttanh")
	p("predOutfwd:")
	p("\tVLD1R.P 4(R5), [V8.S4]")
	p("\tVLD1.P 64(R0), [V4.S4, V5.S4, V6.S4, V7.S4]")
	for i := range 4 {
		a.fmla(i, 4+i, 8)
	}
	p("\tSUB $1, R6")
	p("\tCBNZ R6, predOutfwd")
	p("predOuttanh:")
	a.tanh(quarters, kc("R4"))
	p("\tVST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R3)")
	p("\tSUB $1, R2")
	p("\tCBNZ R2, predOutloop")
	p("predOutdone:")
	p("\tRET")
}

// verifyNEON checks every WORD of kernel_neon_arm64.s against a
// disassembler: in the arm64 binary bin (a test binary of the package, say,
// built with GOARCH=arm64), go tool objdump -gnu must decode the word at
// each WORD's source line to the same value and to the GNU syntax of the
// line's comment. It exits with status 1 on any difference or missing
// line.
func verifyNEON(bin string) {
	const file = "kernel_neon_arm64.s"
	src, err := os.ReadFile(file)
	if err != nil {
		fail("%v", err)
	}
	type word struct {
		val uint32
		gnu string
	}
	want := map[int]word{} // by source line
	for i, l := range strings.Split(string(src), "\n") {
		code, comment, ok := strings.Cut(strings.TrimSpace(l), "//")
		f := strings.Fields(code)
		if !ok || len(f) != 2 || f[0] != "WORD" {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimPrefix(f[1], "$0x"), 16, 32)
		if err != nil {
			fail("%s:%d: %v", file, i+1, err)
		}
		want[i+1] = word{uint32(v), strings.TrimSpace(comment)}
	}
	out, err := exec.Command("go", "tool", "objdump", "-gnu", "-s", `nnet\..*NEON`, bin).Output()
	if err != nil {
		fail("go tool objdump: %v", err)
	}
	seen, distinct, bad := map[int]bool{}, map[uint32]bool{}, 0
	for _, l := range strings.Split(string(out), "\n") {
		// file:line  address  encoding  Go syntax // GNU syntax
		f := strings.Fields(l)
		pos, ok := strings.CutPrefix(f0(f), file+":")
		if !ok || len(f) < 3 {
			continue
		}
		n, _ := strconv.Atoi(pos)
		w, ok := want[n]
		if !ok {
			continue
		}
		_, gnu, _ := strings.Cut(l, "// ")
		gnu = strings.Join(strings.Fields(gnu), " ")
		if enc := fmt.Sprintf("%08x", w.val); f[2] != enc || gnu != w.gnu {
			fmt.Fprintf(os.Stderr, "%s:%d: WORD $0x%s // %s: disassembled %s as %q\n", file, n, enc, w.gnu, f[2], gnu)
			bad++
		}
		seen[n] = true
		distinct[w.val] = true
	}
	for n, w := range want {
		if !seen[n] {
			fmt.Fprintf(os.Stderr, "%s:%d: WORD $0x%08x // %s: not in the disassembly of %s\n", file, n, w.val, w.gnu, bin)
			bad++
		}
	}
	if bad > 0 {
		fail("%d of %d WORD lines differ from the disassembly", bad, len(want))
	}
	fmt.Printf("verifyNEON: the %d WORD lines of %s (%d distinct encodings) disassemble as commented\n", len(want), file, len(distinct))
}

func f0(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "gen_neon: "+format+"\n", a...)
	os.Exit(1)
}
