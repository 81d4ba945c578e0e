//! SHA-512 with the message schedule in AVX2 registers and the rounds in BMI2 scalar code
//! (x86-64), after Gueron and Krasnov / Intel, "Fast SHA-512 Implementations on Intel
//! Architecture Processors" (2012): the vector unit computes message schedules while the
//! integer unit does rounds.
//!
//! Blocks go in pairs `A`, `B` (an odd last block is paired with itself and only its `A`
//! half is used). The vector `X[k]` holds `[W_A[2k], W_A[2k+1], W_B[2k], W_B[2k+1]]`, so
//! one schedule step makes two words of each block:
//!
//! `X[k] = X[k-8] + σ0(X[k-8..k-7] >> 64) + (X[k-4..k-3] >> 64) + σ1(X[k-1])`
//!
//! (`vpalignr` works within each 128-bit lane, which is exactly one block's pair of
//! words), and `X[k] + K[2k..2k+2]` goes to a table that the rounds read.
//!
//! **Software pipeline.** The schedule of the next pair is computed during the 160 rounds
//! of the current one, one step after every fourth round, into the other of two work
//! areas; only the first pair's schedule is computed up front. (Computing a pair's own
//! schedule during its first block, as the 2012 paper does, packs all 32 steps into 80
//! rounds: 4.9 cycles/byte on Zen 3, against 4.2 for the rounds alone.)
//!
//! **Why `asm!`.** The rounds and the steps are `asm!` statements. Written with plain Rust
//! and intrinsics the arithmetic is the same, but the speed then depends on LLVM's
//! register allocation and scheduling for the generic x86-64 model (which is what a
//! `#[target_feature]` function gets): a working variable spilled around the vector work
//! puts a store and a load on the dependency chain. Statements with memory operands keep
//! their program order, and inside them the instruction order and register use are fixed.
//!
//! **Speed** (Zen 3, 16 KiB messages): 4.64 to 4.70 cycles/byte, against 4.35 for
//! OpenSSL 3.0's AVX2 code measured the same way in the same process and 7.9 to 8.1 for
//! `soft`. This kernel is touchy: edits that change nothing in the hot loops (an early
//! return at the top of the function, one loop body instead of three) moved it to 5.1 to
//! 5.3, and so did the address the linker gave the function (hence the alignment
//! directive in [`compress_avx2`]). Measure after any change.
//!
//! The rounds use `rorx` (BMI2: three operands, no flags). Everything is additions,
//! rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::consts::K512;
use super::AVX2_BMI2;
use crate::cpu::x86::Avx2;

/// Proof that AVX2 and BMI2 are enabled: the `Avx2` token plus a check of BMI2 (there is
/// no combined token).
#[derive(Clone, Copy)]
pub(super) struct Avx2Bmi2(Avx2);

impl Avx2Bmi2 {
    /// The proof, if AVX, AVX2 and BMI2 are all detected and not overridden.
    pub(super) fn get() -> Option<Self> {
        let t = Avx2::get()?;
        crate::cpu::enabled_all(AVX2_BMI2).then_some(Avx2Bmi2(t))
    }
}

/// SHA-512 compression of whole 128-byte blocks into `state`.
#[inline]
pub(super) fn compress(t: Avx2Bmi2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    if blocks.len() == 1 {
        // SAFETY: `Avx2Bmi2` exists only when BMI2 is enabled (see `get`).
        unsafe { one_block(state, blocks) }
    } else {
        // SAFETY: `Avx2Bmi2` exists only when AVX, AVX2 and BMI2 are enabled (see `get`).
        unsafe { compress_avx2(state, blocks, t) }
    }
}

/// The work buffer, in 32-byte rows: for each of two areas (the current pair's, the next
/// pair's) the vectors `x[k] = X[k]`, a copy of [`K2`] (so that a step addresses
/// everything from one register) and `table[k] = X[k] + K`. Every row is written before it
/// is read, so the buffer starts uninitialised.
///
/// **Placement.** The rounds read the current table while the steps write the next area,
/// and a load whose address matches a store still in flight in bits 0..12 but not above
/// waits for it (4K aliasing), so the distances between the regions matter a little: the
/// layouts tried ran from 4.65 to 4.77 cycles/byte on Zen 3. This is the best of them.
#[repr(C, align(64))]
struct Buf([[u64; 4]; ROWS]);

/// Row of `table[0]` of area 0 and 1.
const T_ROW: [usize; 2] = [0, 56];
/// Row of `x[0]` of area 0 and 1.
const X_ROW: [usize; 2] = [96, 152];
/// Bytes from `x[k]` to the `K2[k]` copy of the same area.
const KOFF: usize = 32 * 120;
/// Bytes from `table[k]` to `x[k]` of the same area.
const TNEG: usize = 32 * 96;
/// Rows in the buffer.
const ROWS: usize = 312;

const _: () = {
    // Each area's table, x and K2 copy (40 rows each) lie inside the buffer, apart.
    assert!(X_ROW[0] - T_ROW[0] == TNEG / 32 && X_ROW[1] - T_ROW[1] == TNEG / 32);
    assert!(T_ROW[0] + 40 <= T_ROW[1] && T_ROW[1] + 40 <= X_ROW[0]);
    assert!(X_ROW[0] + 40 <= X_ROW[1] && X_ROW[1] + 40 <= X_ROW[0] + KOFF / 32);
    assert!(X_ROW[0] + KOFF / 32 + 40 <= X_ROW[1] + KOFF / 32);
    assert!(X_ROW[1] + KOFF / 32 + 40 <= ROWS);
};

/// `K2[k] = [K[2k], K[2k+1], K[2k], K[2k+1]]`: the constants of a step, for both lanes.
static K2: [[u64; 4]; 40] = {
    let mut t = [[0u64; 4]; 40];
    let mut k = 0;
    while k < 40 {
        t[k] = [K512[2 * k], K512[2 * k + 1], K512[2 * k], K512[2 * k + 1]];
        k += 1;
    }
    t
};

/// One round on renamed variables, reading `W[t] + K[t]` at byte `$off` from `$wk`: `$h`
/// becomes the new `a` and `$d` the new `e`. `$bc` holds `b ^ c` on entry and `a ^ b` (the
/// next round's `b ^ c`) on exit, so `Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b` costs three
/// operations; `Ch(e, f, g) = ((f ^ g) & e) ^ g`.
///
/// The sums are grouped for the two dependency chains: the new `e` is
/// `((h + d + WK) + Ch) + Σ1(e)`, the first group ready early, so `e` feeds forward in four
/// cycles (Σ1 takes three); the new `a` is `Σ0(a) + (e' + (Maj - d))`.
macro_rules! round {
    ($a:ident, $b:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $bc:ident,
     $wk:ident, $off:expr) => {
        // SAFETY: `$wk + $off` is a readable `u64` of a schedule table (the callers keep
        // the offset within the eight rows `$wk` points into); the instructions are BMI2
        // and base x86-64, enabled in this function.
        unsafe {
            asm!(
                "add {h}, {d}",
                "add {h}, qword ptr [{wk} + {off}]",
                "mov {t0}, {f}",
                "xor {t0}, {g}",
                "and {t0}, {e}",
                "xor {t0}, {g}",
                "rorx {t1}, {e}, 14",
                "rorx {t2}, {e}, 18",
                "xor {t2}, {t1}",
                "rorx {t1}, {e}, 41",
                "xor {t1}, {t2}",
                "add {t0}, {h}",
                "add {t1}, {t0}",
                "mov {t0}, {a}",
                "xor {t0}, {b}",
                "and {bc}, {t0}",
                "xor {bc}, {b}",
                "sub {bc}, {d}",
                "add {bc}, {t1}",
                "rorx {h}, {a}, 28",
                "rorx {t2}, {a}, 34",
                "xor {h}, {t2}",
                "rorx {t2}, {a}, 39",
                "xor {h}, {t2}",
                "add {h}, {bc}",
                a = in(reg) $a,
                b = in(reg) $b,
                d = in(reg) $d,
                e = in(reg) $e,
                f = in(reg) $f,
                g = in(reg) $g,
                h = inout(reg) $h,
                bc = inout(reg) $bc => _,
                t0 = out(reg) $bc,
                t1 = out(reg) $d,
                t2 = out(reg) _,
                wk = in(reg) $wk,
                off = const $off,
                options(readonly, nostack),
            );
        }
    };
}

/// Sixteen rounds reading `W + K` from the eight table rows at `$wk` (`$lane` 0 for block
/// `A`, 2 for `B`), with the vector work to hide: `$step!(lo, j)` after round `4 j + 1` and
/// `$step!(hi, j)` after round `4 j + 3`.
macro_rules! rounds16 {
    ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $bc:ident;
     $wk:ident, $lane:expr, $step:ident) => {{
        round!($a, $b, $d, $e, $f, $g, $h, $bc, $wk, 8 * $lane);
        round!($h, $a, $c, $d, $e, $f, $g, $bc, $wk, 8 * (1 + $lane));
        $step!(lo, 0);
        round!($g, $h, $b, $c, $d, $e, $f, $bc, $wk, 8 * (4 + $lane));
        round!($f, $g, $a, $b, $c, $d, $e, $bc, $wk, 8 * (5 + $lane));
        $step!(hi, 0);
        round!($e, $f, $h, $a, $b, $c, $d, $bc, $wk, 8 * (8 + $lane));
        round!($d, $e, $g, $h, $a, $b, $c, $bc, $wk, 8 * (9 + $lane));
        $step!(lo, 1);
        round!($c, $d, $f, $g, $h, $a, $b, $bc, $wk, 8 * (12 + $lane));
        round!($b, $c, $e, $f, $g, $h, $a, $bc, $wk, 8 * (13 + $lane));
        $step!(hi, 1);
        round!($a, $b, $d, $e, $f, $g, $h, $bc, $wk, 8 * (16 + $lane));
        round!($h, $a, $c, $d, $e, $f, $g, $bc, $wk, 8 * (17 + $lane));
        $step!(lo, 2);
        round!($g, $h, $b, $c, $d, $e, $f, $bc, $wk, 8 * (20 + $lane));
        round!($f, $g, $a, $b, $c, $d, $e, $bc, $wk, 8 * (21 + $lane));
        $step!(hi, 2);
        round!($e, $f, $h, $a, $b, $c, $d, $bc, $wk, 8 * (24 + $lane));
        round!($d, $e, $g, $h, $a, $b, $c, $bc, $wk, 8 * (25 + $lane));
        $step!(lo, 3);
        round!($c, $d, $f, $g, $h, $a, $b, $bc, $wk, 8 * (28 + $lane));
        round!($b, $c, $e, $f, $g, $h, $a, $bc, $wk, 8 * (29 + $lane));
        $step!(hi, 3);
    }};
}

/// Schedule step `X[k]` for 8 <= k < 40 (see the module docs), in two halves placed a
/// couple of rounds apart. `$x + $off` is `x[k]` of an area of the [`Buf`].
///
/// `lo` leaves `X[k-8] + (X[k-4..k-3] >> 64) + σ0(X[k-8..k-7] >> 64)` in `$acc`, with
/// `σ0 = ror 1 ^ ror 8 ^ shr 7` (`ror 8` is the byte shuffle `$rot8`); `hi` adds
/// `σ1(X[k-1])`, `σ1 = ror 19 ^ ror 61 ^ shr 6`, and stores `X[k]` and `X[k] + K`.
macro_rules! expand {
    (lo, $acc:ident, $x:expr, $off:expr, $rot8:expr) => {
        // SAFETY: `$x + $off` points to `x[k]` of an area with 8 <= k < 40, so
        // `x[k-8..k]` are in bounds and written by the earlier steps; AVX2 is enabled in
        // this function.
        unsafe {
            asm!(
                "vmovdqu {v0}, ymmword ptr [{x} + {off} - 224]",
                "vpalignr {v0}, {v0}, ymmword ptr [{x} + {off} - 256], 8",
                "vmovdqu {acc}, ymmword ptr [{x} + {off} - 96]",
                "vpalignr {acc}, {acc}, ymmword ptr [{x} + {off} - 128], 8",
                "vpaddq {acc}, {acc}, ymmword ptr [{x} + {off} - 256]",
                "vpsrlq {v1}, {v0}, 1",
                "vpsllq {v2}, {v0}, 63",
                "vpxor {v1}, {v1}, {v2}",
                "vpsrlq {v2}, {v0}, 7",
                "vpxor {v1}, {v1}, {v2}",
                "vpshufb {v0}, {v0}, {rot8}",
                "vpxor {v1}, {v1}, {v0}",
                "vpaddq {acc}, {acc}, {v1}",
                x = in(reg) $x,
                off = const $off,
                rot8 = in(ymm_reg) $rot8,
                acc = out(ymm_reg) $acc,
                v0 = out(ymm_reg) _,
                v1 = out(ymm_reg) _,
                v2 = out(ymm_reg) _,
                options(readonly, nostack, preserves_flags),
            );
        }
    };
    (hi, $acc:ident, $x:expr, $off:expr) => {
        // SAFETY: as for `lo`, and `table[k]` (`TNEG` bytes before `x[k]`) is 32 writable
        // bytes, the `K2[k]` copy (`KOFF` bytes after) 32 readable ones, written at the
        // start.
        unsafe {
            asm!(
                "vmovdqu {v0}, ymmword ptr [{x} + {off} - 32]",
                "vpsrlq {v1}, {v0}, 6",
                "vpsrlq {v2}, {v0}, 19",
                "vpxor {v1}, {v1}, {v2}",
                "vpsllq {v2}, {v0}, 45",
                "vpxor {v1}, {v1}, {v2}",
                "vpsrlq {v2}, {v0}, 61",
                "vpxor {v1}, {v1}, {v2}",
                "vpsllq {v2}, {v0}, 3",
                "vpxor {v1}, {v1}, {v2}",
                "vpaddq {acc}, {acc}, {v1}",
                "vmovdqu ymmword ptr [{x} + {off}], {acc}",
                "vpaddq {acc}, {acc}, ymmword ptr [{x} + {off} + {koff}]",
                "vmovdqu ymmword ptr [{x} + {off} - {tneg}], {acc}",
                x = in(reg) $x,
                off = const $off,
                koff = const KOFF,
                tneg = const TNEG,
                acc = inout(ymm_reg) $acc => _,
                v0 = out(ymm_reg) _,
                v1 = out(ymm_reg) _,
                v2 = out(ymm_reg) _,
                options(nostack, preserves_flags),
            );
        }
    };
}

/// Where the schedule of a pair is made, and from which blocks.
struct Sched<'a> {
    /// `x[0]` of the area the schedule goes to.
    x0: *mut u8,
    blk_a: &'a [u8; 128],
    blk_b: &'a [u8; 128],
}

impl Sched<'_> {
    /// `x[k]` of the work area.
    #[inline(always)]
    fn x(&self, k: usize) -> *mut u8 {
        self.x0.wrapping_add(32 * k)
    }

    /// Step k < 8: `X[k]` is message words 2k, 2k+1 of both blocks.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn load(&self, k: usize) {
        // Reverses the bytes of each 64-bit word (the message is big-endian).
        let bswap = _mm256_set_epi64x(
            0x0809_0a0b_0c0d_0e0f,
            0x0001_0203_0405_0607,
            0x0809_0a0b_0c0d_0e0f,
            0x0001_0203_0405_0607,
        );
        let (lo, hi) = (
            &self.blk_a[16 * k..16 * k + 16],
            &self.blk_b[16 * k..16 * k + 16],
        );
        let x = self.x(k);
        // SAFETY: `lo` and `hi` are 16 readable bytes; `x` points to `x[k]` (k < 8) of an
        // area, 32 writable bytes, and `TNEG` bytes before it to `table[k]`; `K2[k]` is 32
        // readable bytes.
        unsafe {
            let lo = _mm_loadu_si128(lo.as_ptr().cast());
            let hi = _mm_loadu_si128(hi.as_ptr().cast());
            let xk = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), bswap);
            let k2 = _mm256_loadu_si256(K2[k].as_ptr().cast());
            _mm256_storeu_si256(x.cast(), xk);
            _mm256_storeu_si256(x.sub(TNEG).cast(), _mm256_add_epi64(xk, k2));
        }
    }

    /// Steps 0..40 at once (the first pair, whose schedule nothing hides).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn all(&self, rot8: __m256i) {
        for k in 0..8 {
            self.load(k);
        }
        for k in 8..40 {
            let x = self.x(k);
            let acc: __m256i;
            expand!(lo, acc, x, 0, rot8);
            expand!(hi, acc, x, 0);
        }
    }
}

#[target_feature(enable = "avx2,bmi2")]
fn compress_avx2(state: &mut [u64; 8], blocks: &[[u8; 128]], _t: Avx2Bmi2) {
    // The speed of this function depends on where its loops fall relative to 64-byte
    // boundaries (the processor's instruction fetch and decoded-instruction cache work in
    // such lines): on Zen 3 the same code ran at 4.6 or 5.7 cycles/byte depending on the
    // address the linker gave it. The directive raises the alignment of the function's
    // section to 64 bytes, so the layout measured is the layout every program gets.
    // SAFETY: an assembler directive; at most 63 bytes of no-ops, run once per call.
    unsafe { asm!(".p2align 6", options(nomem, nostack, preserves_flags)) };
    let (pairs, odd) = blocks.as_chunks::<2>();
    // Unit u: its two blocks, and whether the second is real.
    let unit = |u: usize| match pairs.get(u) {
        Some([x, y]) => (x, y, true),
        None => (&odd[0], &odd[0], false),
    };
    let units = pairs.len() + odd.len();
    if units == 0 {
        return;
    }
    // Rotates each 64-bit word right by 8 bits.
    let rot8 = _mm256_set_epi64x(
        0x080f_0e0d_0c0b_0a09,
        0x0007_0605_0403_0201,
        0x080f_0e0d_0c0b_0a09,
        0x0007_0605_0403_0201,
    );
    let mut buf = MaybeUninit::<Buf>::uninit();
    let base = buf.as_mut_ptr().cast::<[u64; 4]>();
    let row = |r: usize| base.wrapping_add(r).cast::<u8>();
    for &x in &X_ROW[..units.min(2)] {
        // SAFETY: rows `x + KOFF / 32 ..` + 40 lie in the buffer (see the layout checks);
        // written through a raw pointer, with no reference to uninitialised memory.
        unsafe { core::ptr::copy_nonoverlapping(K2.as_ptr(), base.add(x + KOFF / 32), 40) };
    }

    let (blk_a, blk_b, _) = unit(0);
    let mut sched = Sched {
        x0: row(X_ROW[0]),
        blk_a,
        blk_b,
    };
    sched.all(rot8);

    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for u in 0..units {
        // Table rows 8 m .. 8 m + 8 of the current pair.
        let cur = row(T_ROW[u % 2]);
        let rows = |m: usize| cur.wrapping_add(256 * m);
        let both = unit(u).2;
        if u + 1 < units {
            // A full pair (only the last unit can be a single block), and the next unit's
            // schedule to make: steps 4 m + j during the rounds of A, 20 + 4 m + j during
            // those of B.
            let (blk_a, blk_b, _) = unit(u + 1);
            sched = Sched {
                x0: row(X_ROW[(u + 1) % 2]),
                blk_a,
                blk_b,
            };
            let start = [a, b, c, d, e, f, g, h];
            let mut bc = b ^ c;
            for m in 0..2 {
                let wk = rows(m);
                macro_rules! step {
                    (lo, $j:literal) => {};
                    (hi, $j:literal) => {
                        sched.load(4 * m + $j)
                    };
                }
                rounds16!(a, b, c, d, e, f, g, h, bc; wk, 0, step);
            }
            for m in 2..5 {
                let wk = rows(m);
                let x = sched.x(4 * m);
                let mut acc: __m256i;
                macro_rules! step {
                    (lo, $j:literal) => {
                        expand!(lo, acc, x, 32 * $j, rot8)
                    };
                    (hi, $j:literal) => {
                        expand!(hi, acc, x, 32 * $j)
                    };
                }
                rounds16!(a, b, c, d, e, f, g, h, bc; wk, 0, step);
            }
            [a, b, c, d, e, f, g, h] = add8(start, [a, b, c, d, e, f, g, h]);
            let start = [a, b, c, d, e, f, g, h];
            let mut bc = b ^ c;
            for m in 0..5 {
                let wk = rows(m);
                let x = sched.x(20 + 4 * m);
                let mut acc: __m256i;
                macro_rules! step {
                    (lo, $j:literal) => {
                        expand!(lo, acc, x, 32 * $j, rot8)
                    };
                    (hi, $j:literal) => {
                        expand!(hi, acc, x, 32 * $j)
                    };
                }
                rounds16!(a, b, c, d, e, f, g, h, bc; wk, 2, step);
            }
            [a, b, c, d, e, f, g, h] = add8(start, [a, b, c, d, e, f, g, h]);
        } else {
            macro_rules! no_step {
                ($half:ident, $j:literal) => {};
            }
            let start = [a, b, c, d, e, f, g, h];
            let mut bc = b ^ c;
            for m in 0..5 {
                let wk = rows(m);
                rounds16!(a, b, c, d, e, f, g, h, bc; wk, 0, no_step);
            }
            [a, b, c, d, e, f, g, h] = add8(start, [a, b, c, d, e, f, g, h]);
            if both {
                let start = [a, b, c, d, e, f, g, h];
                let mut bc = b ^ c;
                for m in 0..5 {
                    let wk = rows(m);
                    rounds16!(a, b, c, d, e, f, g, h, bc; wk, 2, no_step);
                }
                [a, b, c, d, e, f, g, h] = add8(start, [a, b, c, d, e, f, g, h]);
            }
        }
    }
    *state = [a, b, c, d, e, f, g, h];
}

/// One block: no second lane to fill and nothing to hide the schedule behind, so the
/// portable rounds are faster (inlined here, they get `rorx`): 17 against 18 cycles/byte
/// for a 128-byte message.
#[target_feature(enable = "bmi2")]
#[inline(never)]
fn one_block(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    super::soft::compress512(state, blocks);
}

#[inline(always)]
fn add8(x: [u64; 8], y: [u64; 8]) -> [u64; 8] {
    core::array::from_fn(|i| x[i].wrapping_add(y[i]))
}
