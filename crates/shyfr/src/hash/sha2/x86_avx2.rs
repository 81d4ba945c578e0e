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
//! **Software pipeline.** The schedule of the next pair is computed during the rounds of
//! the current one, into the other of two table areas; only the first pair's schedule is
//! computed up front. Each block's 80 rounds are sixteen without vector work, then twice
//! thirty-two with eight schedule steps spread one per four rounds (the first half of a
//! step two rounds before the second). The eight vectors `X[k-8..k]` stay in `ymm`
//! registers (a ring that eight steps turn once), so a step is 23 instructions with one
//! load (the constants) and one store (`X[k] + K`). Packing the 32 steps densely into one
//! block (as the 2012 paper and OpenSSL do) ran at 5.0 cycles/byte here, spreading them
//! one per five rounds over all 160 at 4.8.
//!
//! **Why `asm!`.** Each pair is one `asm!` statement (both blocks, the loops, the
//! feed-forward, with the block's starting state pushed on the stack). Written with plain
//! Rust and intrinsics the arithmetic is the same, but the speed then depends on LLVM's
//! register allocation and scheduling for the generic x86-64 model (which is what a
//! `#[target_feature]` function gets); with one statement per sixteen or thirty-two
//! rounds, LLVM moved the working variables between registers, or through the stack, at
//! every statement boundary, and unrolled the loops around them until the code no longer
//! fit the processor's decoded-instruction cache.
//!
//! **Speed** (Zen 3, 16 KiB messages, cycles counted with `rdtsc` scaled by the core
//! clock, best of 3000 calls): 4.57 cycles/byte, against 4.64 for the previous version of
//! this file and 4.35 for OpenSSL 3.0's AVX2 code (from `openssl speed`); 7.9 to 8.1 for
//! `soft`. The kernel is touchy: with the round of `round_text` written with
//! `Maj = (a & (b ^ c)) + (b & c)` (two more instructions, but the new `a` four cycles
//! after `a` instead of five) the same code ran at 4.40 in some processes and builds and
//! 4.72 in others, depending on the addresses of the stack and of the code; the version
//! here measured 4.56 to 4.57 in every process tried. Measure after any change, in
//! several processes.
//!
//! The rounds use `rorx` (BMI2: three operands, no flags). Everything is additions,
//! rotations, shifts and bitwise logic: constant time.

use core::arch::asm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::consts::K512;
use crate::cpu::x86::Avx2Bmi2;

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
/// pair's) `table[k] = X[k] + K[2k..2k+2]` (40 rows) and a copy of [`K2`] (so that the
/// steps address the table they write and the constants they add from one register).
/// Every row is written before it is read, so the buffer starts uninitialised.
#[repr(C, align(64))]
struct Buf([[u64; 4]; ROWS]);

/// Row of `table[0]` of area 0 and 1.
const T_ROW: [usize; 2] = [0, 40];
/// Bytes from `table[k]` to the `K2[k]` copy of the same area.
const KOFF: usize = 32 * 80;
/// Rows in the buffer.
const ROWS: usize = 160;

const _: () = {
    // Each area's table and K2 copy (40 rows each) lie inside the buffer, apart.
    assert!(T_ROW[0] + 40 <= T_ROW[1] && T_ROW[1] + 40 <= T_ROW[0] + KOFF / 32);
    assert!(T_ROW[1] + KOFF / 32 + 40 <= ROWS);
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

/// The text of one round on renamed registers (operand names of the `asm!` statement in
/// `pair`): `$h` becomes the new `a` and `$d` the new `e`, in place. `$bc` holds
/// `b ^ c` on entry; `$ab` (free on entry, first a temporary for `Ch` and `Σ1`) holds
/// `a ^ b` on exit, the next round's `b ^ c`, so the two swap names every round; `$bc` is
/// then a temporary for `Σ0`. `$off` is the byte offset of `W[t] + K[t]` from `{wk}`.
///
/// `T1 = h + WK + Ch(e, f, g) + Σ1(e)`, `e' = d + T1` and `a' = T1 + Maj(a, b, c) + Σ0(a)`,
/// with `Ch(e, f, g) = ((f ^ g) & e) ^ g` and `Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b`.
/// Twenty-four instructions, two of them register moves, and two temporaries besides
/// `$ab` and `$bc`: the statement needs every general register but `rbp` and `rsp`.
#[rustfmt::skip]
macro_rules! round_text {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident $bc:ident $ab:ident
     $off:literal) => {
        concat!(
            "add {", stringify!($h), "}, qword ptr [{wk} + ", stringify!($off), "]\n",
            "mov {", stringify!($ab), "}, {", stringify!($f), "}\n",
            "xor {", stringify!($ab), "}, {", stringify!($g), "}\n",
            "and {", stringify!($ab), "}, {", stringify!($e), "}\n",
            "xor {", stringify!($ab), "}, {", stringify!($g), "}\n",
            "add {", stringify!($h), "}, {", stringify!($ab), "}\n",
            "rorx {t1}, {", stringify!($e), "}, 14\n",
            "rorx {", stringify!($ab), "}, {", stringify!($e), "}, 18\n",
            "xor {t1}, {", stringify!($ab), "}\n",
            "rorx {", stringify!($ab), "}, {", stringify!($e), "}, 41\n",
            "xor {t1}, {", stringify!($ab), "}\n",
            "add {", stringify!($h), "}, {t1}\n",
            "add {", stringify!($d), "}, {", stringify!($h), "}\n",
            "mov {", stringify!($ab), "}, {", stringify!($a), "}\n",
            "xor {", stringify!($ab), "}, {", stringify!($b), "}\n",
            "and {", stringify!($bc), "}, {", stringify!($ab), "}\n",
            "xor {", stringify!($bc), "}, {", stringify!($b), "}\n",
            "add {", stringify!($h), "}, {", stringify!($bc), "}\n",
            "rorx {t1}, {", stringify!($a), "}, 28\n",
            "rorx {", stringify!($bc), "}, {", stringify!($a), "}, 34\n",
            "xor {t1}, {", stringify!($bc), "}\n",
            "rorx {", stringify!($bc), "}, {", stringify!($a), "}, 39\n",
            "xor {t1}, {", stringify!($bc), "}\n",
            "add {", stringify!($h), "}, {t1}\n",
        )
    };
}

/// The text of schedule step `j` (0..4) of a group of sixteen rounds, in two halves
/// (`lo`, `hi`) placed a couple of rounds apart: `X[k]` for `k = k0 + j`, from the ring
/// operands `$x8 = X[k-8]` (which becomes `X[k]`), `$x7 = X[k-7]`, `$x4 = X[k-4]`,
/// `$x3 = X[k-3]` and `$x1 = X[k-1]`; `X[k] + K` goes to row `j` from `{tn}`, the constants
/// being `KOFF` bytes further.
///
/// `lo` adds `(X[k-4..k-3] >> 64)` and `σ0(X[k-8..k-7] >> 64)` to `X[k-8]`, with
/// `σ0 = ror 1 ^ ror 8 ^ shr 7` (`ror 8` is the byte shuffle `{rot8}`); `hi` adds
/// `σ1(X[k-1])`, `σ1 = ror 19 ^ ror 61 ^ shr 6`, and stores the table row.
#[rustfmt::skip]
macro_rules! step_text {
    (lo, $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
        concat!(
            "vpalignr {v0}, {", stringify!($x7), "}, {", stringify!($x8), "}, 8\n",
            "vpalignr {v1}, {", stringify!($x3), "}, {", stringify!($x4), "}, 8\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
            "vpsrlq {v1}, {v0}, 1\n",
            "vpsllq {v2}, {v0}, 63\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpsrlq {v2}, {v0}, 7\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpshufb {v0}, {v0}, {rot8}\n",
            "vpxor {v1}, {v1}, {v0}\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
        )
    };
    (hi, $j:literal, $x8:ident $x7:ident $x4:ident $x3:ident $x1:ident) => {
        concat!(
            "vpsrlq {v1}, {", stringify!($x1), "}, 6\n",
            "vpsrlq {v2}, {", stringify!($x1), "}, 19\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpsllq {v2}, {", stringify!($x1), "}, 45\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpsrlq {v2}, {", stringify!($x1), "}, 61\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpsllq {v2}, {", stringify!($x1), "}, 3\n",
            "vpxor {v1}, {v1}, {v2}\n",
            "vpaddq {", stringify!($x8), "}, {", stringify!($x8), "}, {v1}\n",
            "vpaddq {v1}, {", stringify!($x8), "}, ymmword ptr [{tn} + 32 * ", stringify!($j), " + {koff}]\n",
            "vmovdqu ymmword ptr [{tn} + 32 * ", stringify!($j), "], {v1}\n",
        )
    };
}

/// The rounds of one unit (`$lanes` blocks, 1 or 2) with the feed-forward, as one `asm!`
/// statement, so that register use, instruction order and the loops are fixed. Per
/// block: its starting state pushed on the stack; sixteen rounds; twice thirty-two rounds
/// with (unless `tn` is null) eight schedule steps `X[k0..k0 + 8]` of the next pair; the
/// starting state added back. `wk` points to the current table (`table[0]`, then 16
/// bytes further for block `B`). The ring `y` holds `X[k0-8..k0]` on entry to each
/// stretch of thirty-two rounds and `X[k0..k0+8]` after it (eight steps turn it once, so
/// every vector stays in its register); `tn` points to `table[k0]` of the next area and
/// moves on by eight rows. The first half of step `j` comes after round `4 j + 1` of the
/// stretch, the second after round `4 j + 3`.
///
/// The register names rotate one place a round and come back after eight; `bc` and `t0`
/// swap every round, so after an even number of rounds `bc` again holds `b ^ c`.
macro_rules! pair {
    ($s:ident, $wk:expr, $lanes:expr, $y:ident, $tn:ident, $rot8:expr) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $s;
        // SAFETY: `$wk` points to the 40 readable table rows (1280 bytes) of the current
        // area of the work buffer (block `B` reads 16 bytes further into each row, never
        // past the last). `$tn` is null (and then not used), or points to `table[8]` of
        // the other area, so the rows `8..40` that the (at most 32) steps write, and the
        // `K2` copy rows `KOFF` bytes further (written at the start), are in the buffer;
        // the two areas do not overlap. The statement pushes 72 bytes on the stack (no
        // `nostack`) and pops them before it ends. The instructions are base x86-64, BMI2
        // and AVX2, enabled in this function.
        unsafe {
            asm!(
            "push {n}",
            "5:",
            "push {a}", "push {b}", "push {c}", "push {d}",
            "push {e}", "push {f}", "push {g}", "push {h}",
            "mov {bc}, {b}",
            "xor {bc}, {c}",
            round_text!(a b c d e f g h bc t0 0),
            round_text!(h a b c d e f g t0 bc 8),
            round_text!(g h a b c d e f bc t0 32),
            round_text!(f g h a b c d e t0 bc 40),
            round_text!(e f g h a b c d bc t0 64),
            round_text!(d e f g h a b c t0 bc 72),
            round_text!(c d e f g h a b bc t0 96),
            round_text!(b c d e f g h a t0 bc 104),
            round_text!(a b c d e f g h bc t0 128),
            round_text!(h a b c d e f g t0 bc 136),
            round_text!(g h a b c d e f bc t0 160),
            round_text!(f g h a b c d e t0 bc 168),
            round_text!(e f g h a b c d bc t0 192),
            round_text!(d e f g h a b c t0 bc 200),
            round_text!(c d e f g h a b bc t0 224),
            round_text!(b c d e f g h a t0 bc 232),
            "add {wk}, 256",
            "mov {n:e}, 2",
            ".p2align 6",
            "2:",
            "test {tn}, {tn}",
            "jz 3f",
            round_text!(a b c d e f g h bc t0 0),
            round_text!(h a b c d e f g t0 bc 8),
            step_text!(lo, 0, y0 y1 y4 y5 y7),
            round_text!(g h a b c d e f bc t0 32),
            round_text!(f g h a b c d e t0 bc 40),
            step_text!(hi, 0, y0 y1 y4 y5 y7),
            round_text!(e f g h a b c d bc t0 64),
            round_text!(d e f g h a b c t0 bc 72),
            step_text!(lo, 1, y1 y2 y5 y6 y0),
            round_text!(c d e f g h a b bc t0 96),
            round_text!(b c d e f g h a t0 bc 104),
            step_text!(hi, 1, y1 y2 y5 y6 y0),
            round_text!(a b c d e f g h bc t0 128),
            round_text!(h a b c d e f g t0 bc 136),
            step_text!(lo, 2, y2 y3 y6 y7 y1),
            round_text!(g h a b c d e f bc t0 160),
            round_text!(f g h a b c d e t0 bc 168),
            step_text!(hi, 2, y2 y3 y6 y7 y1),
            round_text!(e f g h a b c d bc t0 192),
            round_text!(d e f g h a b c t0 bc 200),
            step_text!(lo, 3, y3 y4 y7 y0 y2),
            round_text!(c d e f g h a b bc t0 224),
            round_text!(b c d e f g h a t0 bc 232),
            step_text!(hi, 3, y3 y4 y7 y0 y2),
            round_text!(a b c d e f g h bc t0 256),
            round_text!(h a b c d e f g t0 bc 264),
            step_text!(lo, 4, y4 y5 y0 y1 y3),
            round_text!(g h a b c d e f bc t0 288),
            round_text!(f g h a b c d e t0 bc 296),
            step_text!(hi, 4, y4 y5 y0 y1 y3),
            round_text!(e f g h a b c d bc t0 320),
            round_text!(d e f g h a b c t0 bc 328),
            step_text!(lo, 5, y5 y6 y1 y2 y4),
            round_text!(c d e f g h a b bc t0 352),
            round_text!(b c d e f g h a t0 bc 360),
            step_text!(hi, 5, y5 y6 y1 y2 y4),
            round_text!(a b c d e f g h bc t0 384),
            round_text!(h a b c d e f g t0 bc 392),
            step_text!(lo, 6, y6 y7 y2 y3 y5),
            round_text!(g h a b c d e f bc t0 416),
            round_text!(f g h a b c d e t0 bc 424),
            step_text!(hi, 6, y6 y7 y2 y3 y5),
            round_text!(e f g h a b c d bc t0 448),
            round_text!(d e f g h a b c t0 bc 456),
            step_text!(lo, 7, y7 y0 y3 y4 y6),
            round_text!(c d e f g h a b bc t0 480),
            round_text!(b c d e f g h a t0 bc 488),
            step_text!(hi, 7, y7 y0 y3 y4 y6),
            "add {tn}, 256",
            "jmp 4f",
            "3:",
            round_text!(a b c d e f g h bc t0 0),
            round_text!(h a b c d e f g t0 bc 8),
            round_text!(g h a b c d e f bc t0 32),
            round_text!(f g h a b c d e t0 bc 40),
            round_text!(e f g h a b c d bc t0 64),
            round_text!(d e f g h a b c t0 bc 72),
            round_text!(c d e f g h a b bc t0 96),
            round_text!(b c d e f g h a t0 bc 104),
            round_text!(a b c d e f g h bc t0 128),
            round_text!(h a b c d e f g t0 bc 136),
            round_text!(g h a b c d e f bc t0 160),
            round_text!(f g h a b c d e t0 bc 168),
            round_text!(e f g h a b c d bc t0 192),
            round_text!(d e f g h a b c t0 bc 200),
            round_text!(c d e f g h a b bc t0 224),
            round_text!(b c d e f g h a t0 bc 232),
            round_text!(a b c d e f g h bc t0 256),
            round_text!(h a b c d e f g t0 bc 264),
            round_text!(g h a b c d e f bc t0 288),
            round_text!(f g h a b c d e t0 bc 296),
            round_text!(e f g h a b c d bc t0 320),
            round_text!(d e f g h a b c t0 bc 328),
            round_text!(c d e f g h a b bc t0 352),
            round_text!(b c d e f g h a t0 bc 360),
            round_text!(a b c d e f g h bc t0 384),
            round_text!(h a b c d e f g t0 bc 392),
            round_text!(g h a b c d e f bc t0 416),
            round_text!(f g h a b c d e t0 bc 424),
            round_text!(e f g h a b c d bc t0 448),
            round_text!(d e f g h a b c t0 bc 456),
            round_text!(c d e f g h a b bc t0 480),
            round_text!(b c d e f g h a t0 bc 488),
            "4:",
            "add {wk}, 512",
            "dec {n:e}",
            "jnz 2b",
            "add {h}, qword ptr [rsp]", "add {g}, qword ptr [rsp + 8]",
            "add {f}, qword ptr [rsp + 16]", "add {e}, qword ptr [rsp + 24]",
            "add {d}, qword ptr [rsp + 32]", "add {c}, qword ptr [rsp + 40]",
            "add {b}, qword ptr [rsp + 48]", "add {a}, qword ptr [rsp + 56]",
            "add rsp, 64",
            "sub {wk}, 1280 - 16",
            "dec qword ptr [rsp]",
            "jnz 5b",
            "add rsp, 8",
                a = inout(reg) a,
                b = inout(reg) b,
                c = inout(reg) c,
                d = inout(reg) d,
                e = inout(reg) e,
                f = inout(reg) f,
                g = inout(reg) g,
                h = inout(reg) h,
                bc = out(reg) _,
                t0 = out(reg) _,
                t1 = out(reg) _,
                n = inout(reg) $lanes => _,
                wk = inout(reg) $wk => _,
                tn = inout(reg) $tn,
                y0 = inout(ymm_reg) $y[0],
                y1 = inout(ymm_reg) $y[1],
                y2 = inout(ymm_reg) $y[2],
                y3 = inout(ymm_reg) $y[3],
                y4 = inout(ymm_reg) $y[4],
                y5 = inout(ymm_reg) $y[5],
                y6 = inout(ymm_reg) $y[6],
                y7 = inout(ymm_reg) $y[7],
                rot8 = in(ymm_reg) $rot8,
                v0 = out(ymm_reg) _,
                v1 = out(ymm_reg) _,
                v2 = out(ymm_reg) _,
                koff = const KOFF,
            );
        }
        $s = [a, b, c, d, e, f, g, h];
    }};
}

/// Message words `2k, 2k+1` of blocks `a` and `b` (k < 8), byte-swapped: `X[k]`.
#[target_feature(enable = "avx2")]
#[inline]
fn load(a: &[u8; 128], b: &[u8; 128], k: usize) -> __m256i {
    // Reverses the bytes of each 64-bit word (the message is big-endian).
    let bswap = _mm256_set_epi64x(
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    let (lo, hi) = (&a[16 * k..16 * k + 16], &b[16 * k..16 * k + 16]);
    // SAFETY: `lo` and `hi` are 16 readable bytes each; unaligned loads are allowed.
    unsafe {
        let lo = _mm_loadu_si128(lo.as_ptr().cast());
        let hi = _mm_loadu_si128(hi.as_ptr().cast());
        _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), bswap)
    }
}

/// Stores `X[k] + K` into `table[k]`, `table` pointing to `table[0]` of an area.
#[target_feature(enable = "avx2")]
#[inline]
fn store_wk(table: *mut u8, k: usize, x: __m256i) {
    // SAFETY: `table[k]` (k < 40) is 32 writable bytes of the buffer and `K2[k]` 32
    // readable ones; unaligned accesses are allowed.
    unsafe {
        let k2 = _mm256_loadu_si256(K2[k].as_ptr().cast());
        _mm256_storeu_si256(table.add(32 * k).cast(), _mm256_add_epi64(x, k2));
    }
}

/// The whole schedule of the pair `a`, `b` into `table` (the first pair, whose schedule
/// nothing hides), with intrinsics.
#[target_feature(enable = "avx2")]
#[inline]
fn schedule(a: &[u8; 128], b: &[u8; 128], table: *mut u8) {
    let mut x: [__m256i; 8] = core::array::from_fn(|k| load(a, b, k));
    for (k, &xk) in x.iter().enumerate() {
        store_wk(table, k, xk);
    }
    for k in 8..40 {
        let (x8, x7, x4, x3, x1) = (
            x[k % 8],
            x[(k + 1) % 8],
            x[(k + 4) % 8],
            x[(k + 5) % 8],
            x[(k + 7) % 8],
        );
        let s0in = _mm256_alignr_epi8(x7, x8, 8);
        let s0 = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_srli_epi64(s0in, 1), _mm256_slli_epi64(s0in, 63)),
            _mm256_xor_si256(
                _mm256_srli_epi64(s0in, 7),
                _mm256_xor_si256(_mm256_srli_epi64(s0in, 8), _mm256_slli_epi64(s0in, 56)),
            ),
        );
        let s1 = _mm256_xor_si256(
            _mm256_xor_si256(_mm256_srli_epi64(x1, 19), _mm256_slli_epi64(x1, 45)),
            _mm256_xor_si256(
                _mm256_srli_epi64(x1, 6),
                _mm256_xor_si256(_mm256_srli_epi64(x1, 61), _mm256_slli_epi64(x1, 3)),
            ),
        );
        let w9 = _mm256_alignr_epi8(x3, x4, 8);
        let xk = _mm256_add_epi64(_mm256_add_epi64(x8, w9), _mm256_add_epi64(s0, s1));
        x[k % 8] = xk;
        store_wk(table, k, xk);
    }
}

#[target_feature(enable = "avx2,bmi2")]
fn compress_avx2(state: &mut [u64; 8], blocks: &[[u8; 128]], _t: Avx2Bmi2) {
    // The speed of this function depends on where its loops fall relative to 64-byte
    // boundaries (the processor's instruction fetch and decoded-instruction cache work in
    // such lines). The directive raises the alignment of the function's section to 64
    // bytes, so the layout measured is the layout every program gets.
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
    let table = |area: usize| base.wrapping_add(T_ROW[area]).cast::<u8>();
    if units > 1 {
        for &t in &T_ROW {
            // SAFETY: rows `t + KOFF / 32 ..` + 40 lie in the buffer (see the layout
            // checks); written through a raw pointer, with no reference to uninitialised
            // memory.
            unsafe { core::ptr::copy_nonoverlapping(K2.as_ptr(), base.add(t + KOFF / 32), 40) };
        }
    }

    let (blk_a, blk_b, _) = unit(0);
    schedule(blk_a, blk_b, table(0));

    let mut s = *state;
    // The ring of schedule vectors of the next pair.
    let mut y = [_mm256_setzero_si256(); 8];
    for u in 0..units {
        // Table rows of the current pair; block `B`'s words are 16 bytes into each row.
        let cur = table(u % 2);
        let both = unit(u).2;
        // The next unit's schedule, if there is one: its first eight vectors are loaded
        // now (independent work that the processor overlaps with the first rounds), steps
        // 8..40 run four per group of sixteen rounds from the third group on.
        let next = u + 1 < units;
        let tn = table((u + 1) % 2);
        if next {
            let (blk_a, blk_b, _) = unit(u + 1);
            for (k, yk) in y.iter_mut().enumerate() {
                *yk = load(blk_a, blk_b, k);
                store_wk(tn, k, *yk);
            }
        }
        // The loop over the blocks must stay a loop (the count is hidden from LLVM): with
        // the block's code twice, the rounds overflow the processor's decoded-instruction
        // cache and run slower.
        let mut tk = if next {
            tn.wrapping_add(32 * 8)
        } else {
            core::ptr::null_mut()
        };
        pair!(s, cur, 1 + usize::from(both), y, tk, rot8);
    }
    *state = s;
}

/// One block: no second lane to fill and nothing to hide the schedule behind, so the
/// portable rounds are faster (inlined here, they get `rorx`): 17 against 18 cycles/byte
/// for a 128-byte message.
#[target_feature(enable = "bmi2")]
#[inline(never)]
fn one_block(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    super::soft::compress512(state, blocks);
}
