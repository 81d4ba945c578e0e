//! Montgomery multiplication with MULX and the two independent carry chains of ADX
//! (Intel, "New Instructions Supporting Large Integer Arithmetic on Intel Architecture
//! Processors", 2012), the whole CIOS loop (as in `soft.rs`) in one `asm!` block.
//!
//! For each limb `b_i` one pass over the limbs, four at a time, adds both rows into the
//! accumulator `t`: first `a[j..j+4] b_i` into the four limbs of `t` held in registers
//! (ADCX carries the additions of `t`'s limbs, ADOX those of the high halves of the
//! previous products), then `n[j..j+4] m` into the same registers (ADCX for the low
//! halves, ADOX for the high halves), written back one limb lower (the division by
//! `2^64`). Each row's chains are closed at the end of the block into a carry limb that
//! enters the next block of the same row, so `t` is read and written once per `b_i`.
//! The reduction factor `m = t_0 n_0 mod 2^64` is formed between the two rows of the
//! first block.
//!
//!
//! Squaring (`mont_sqr`, from 20 limbs): the products `a_i a_j`, `i < j`, in rows on the
//! same two carry chains (any row length: four limbs a turn, then one), doubled, plus the
//! diagonal squares, then the `L` reduction rows in one `asm!` block; about three
//! quarters of the limb products of a multiplication.
//!
//! The widths of RSA-1024, -1536, -2048, -3072 and -4096's CRT halves (8, 12, 16, 24 and
//! 32 limbs) and the moduli of RSA-3072 and -4096 (48 and 64 limbs, public operations) have
//! their own kernels (`mont_sqr_fixed` at 8 to 24 limbs, `mont_sqr_split` at 32, 48 and 64,
//! `mont_mul_fixed`): the product first (the squaring's triangle, doubled, plus the
//! diagonal; or `L` rows `a b_i`), then `L` reduction rows, each row unrolled by the
//! assembler (`.rept`, the limb offsets constants of the instructions, no loop counter
//! or pointer moves inside a row), the next row's reduction factor formed from a
//! register, and the conditional subtraction by CMOVC. On the loaded Zen 4 of this
//! project (best of 200 windows) the 16-limb squaring went from 276 to 181 ns and the
//! multiplication from 276 to 220 ns. From 32 limbs the squaring's triangle is split in
//! halves (the triangle of each half from one unrolled copy, run twice, and the
//! rectangle of the halves in unrolled rows), which keeps the code inside the
//! instruction cache: the 64-limb squaring of RSA-4096's public operation went from 3164
//! to 2631 ns.
//!
//! Constant time: the instruction sequence and the addresses touched depend only on the
//! limb count.

use core::arch::asm;

use super::MAX_LIMBS;
use crate::cpu::x86::{Adx, Avx2};

/// `r = a b 2^(-64 L) mod n` (`a < 2^(64 L)`, `b < n`), fully reduced, as `soft::mont_mul`.
///
/// 8, 12, 16, 24, 32, 48 and 64 limbs (the RSA-1024 to RSA-4096 CRT halves and moduli) run the
/// unrolled `mont_mul_fixed`; other multiples of four the looped CIOS kernel; other
/// widths the portable kernel.
pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64, tok: Adx) {
    let l = n.len();
    if !l.is_multiple_of(4) {
        return super::soft::mont_mul(r, a, b, n, n0);
    }
    assert!(l > 0 && l <= MAX_LIMBS && a.len() == l && b.len() == l && r.len() == l);
    match l {
        8 => return mont_mul_fixed::<8, 16>(r, a, b, n, n0, tok),
        12 => return mont_mul_fixed::<12, 24>(r, a, b, n, n0, tok),
        16 => return mont_mul_fixed::<16, 32>(r, a, b, n, n0, tok),
        24 => return mont_mul_fixed::<24, 48>(r, a, b, n, n0, tok),
        32 => return mont_mul_fixed::<32, 64>(r, a, b, n, n0, tok),
        48 => return mont_mul_fixed::<48, 96>(r, a, b, n, n0, tok),
        64 => return mont_mul_fixed::<64, 128>(r, a, b, n, n0, tok),
        _ => {}
    }
    // The accumulator on the stack, in a buffer sized by the (public) width so that small
    // moduli (the RSA CRT halves) do not clear kilobytes per multiplication.
    match l {
        0..=16 => mont_mul_in::<17>(r, a, b, n, n0, tok),
        17..=32 => mont_mul_in::<33>(r, a, b, n, n0, tok),
        33..=64 => mont_mul_in::<65>(r, a, b, n, n0, tok),
        _ => mont_mul_in::<{ MAX_LIMBS + 1 }>(r, a, b, n, n0, tok),
    }
}

/// [`mont_mul`] with an accumulator of `N >= L + 1` limbs.
#[inline(always)]
fn mont_mul_in<const N: usize>(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64, tok: Adx) {
    let l = n.len();
    let mut buf = [0u64; N];
    let t = &mut buf[..l + 1];
    mont_rows(t, a, b, n, n0, tok);
    final_sub(r, &t[..l], t[l], n);
    zeroize::Zeroize::zeroize(t);
}

/// `r = t - n` when `hi * 2^(64 L) + t >= n`, else `r = t` (`t < 2n`), as
/// `soft::final_sub`, in one `asm!` block: one SBB chain over the limbs (the loop counter
/// stepped by `lea` and tested by `jrcxz`, which leave CF alone), the borrow against `hi`
/// turned into a mask by SBB, then the masked selection. Constant time: the instructions
/// and addresses depend on `L` only (the 16-limb subtraction of the portable code carried
/// its borrow through `setb`/`sbb` pairs, a tenth of a 16-limb multiplication).
#[inline]
fn final_sub(r: &mut [u64], t: &[u64], hi: u64, n: &[u64]) {
    let l = n.len();
    assert!(l > 0 && t.len() == l && r.len() == l);
    // SAFETY: plain x86-64 instructions. Both loops run `l` times over limbs `0..l` of
    // `r`, `t` and `n` (lengths checked above), the pointers stepping 8 bytes a limb;
    // every register written is declared.
    unsafe {
        asm!(
            "xor {x:e}, {x:e}",          // CF = 0
            "2:",
            "jrcxz 3f",
            "mov {x}, qword ptr [{t} + {i} * 8]",
            "sbb {x}, qword ptr [{n} + {i} * 8]",
            "mov qword ptr [{r} + {i} * 8], {x}",
            "lea {i}, [{i} + 1]",
            "lea rcx, [rcx - 1]",
            "jmp 2b",
            "3:",
            // under = borrow > hi; keep = -under
            "sbb {hi}, 0",
            "sbb {x}, {x}",
            "mov rcx, {l}",
            "xor {i:e}, {i:e}",
            "4:",
            "mov {y}, qword ptr [{r} + {i} * 8]",
            "mov {z}, qword ptr [{t} + {i} * 8]",
            "xor {z}, {y}",
            "and {z}, {x}",
            "xor {y}, {z}",
            "mov qword ptr [{r} + {i} * 8], {y}",
            "inc {i}",
            "dec rcx",
            "jnz 4b",
            r = in(reg) r.as_mut_ptr(),
            t = in(reg) t.as_ptr(),
            n = in(reg) n.as_ptr(),
            l = in(reg) l,
            hi = inout(reg) hi => _,
            i = inout(reg) 0usize => _,
            x = out(reg) _,
            y = out(reg) _,
            z = out(reg) _,
            inout("rcx") l => _,
            options(nostack),
        );
    }
}

/// The CIOS rows: `t = (t + a b + q n) / 2^(64 L)` for the `q < 2^(64 L)` that makes the
/// division exact, `t` (of `L + 1` limbs, zero on entry) below `2n` on return.
#[inline]
fn mont_rows(t: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64, _tok: Adx) {
    let l = n.len();
    assert!(l > 0 && l.is_multiple_of(4) && a.len() == l && b.len() == l && t.len() == l + 1);
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). Each row walks the pointers
    // into `a`, `n` and `t` over `l / 4` blocks of four limbs (counter `-8 l..0` in steps
    // of 32) and moves them back by `8 l` bytes, so the loads of `a`, `n` touch limbs
    // `0..l`, those of `t` limbs `0..=l` and the stores limbs `0..=l` of `t` (`l + 1`
    // limbs, checked above); `b` is read at `0..l` (one row per limb, up to its end).
    // `rbx`, which cannot be named as an operand, is saved and restored on the stack,
    // below which the spilled words live; every other register written is declared.
    unsafe {
        asm!(
            "push rbx",
            "push rcx",                  // [rsp + 40]: -8 l
            "push r11",                  // [rsp + 32]: n0
            "push r10",                  // [rsp + 24]: end of b
            "push r9",                   // [rsp + 16]: next limb of b
            "sub rsp, 16",               // [rsp]: b_i, [rsp + 8]: m
            // ---- one row per limb of b ----
            "2:",
            "mov r9, qword ptr [rsp + 16]",
            "mov rdx, qword ptr [r9]",
            "lea r9, [r9 + 8]",
            "mov qword ptr [rsp + 16], r9",
            "mov qword ptr [rsp], rdx",
            "mov rcx, qword ptr [rsp + 40]",
            // first block, row a b_i (no carry in): x = t[0..4] + a[0..4] b_i
            "xor eax, eax",
            "mulx r13, r9, qword ptr [rsi]",
            "adcx r9, qword ptr [r8]",
            "mulx r14, r10, qword ptr [rsi + 8]",
            "adox r10, r13",
            "adcx r10, qword ptr [r8 + 8]",
            "mulx r13, r11, qword ptr [rsi + 16]",
            "adox r11, r14",
            "adcx r11, qword ptr [r8 + 16]",
            "mulx rax, r12, qword ptr [rsi + 24]",
            "adox r12, r13",
            "adcx r12, qword ptr [r8 + 24]",
            "mov r15d, 0",
            "adox rax, r15",
            "adcx rax, r15",
            // m = x_0 n0 mod 2^64
            "mov rdx, r9",
            "imul rdx, qword ptr [rsp + 32]",
            "mov qword ptr [rsp + 8], rdx",
            // first block, row n m (no carry in); x_0 + lo(n_0 m) = 0 mod 2^64
            "xor ebx, ebx",
            "mulx r13, r15, qword ptr [rdi]",
            "adcx r9, r15",
            "mulx r14, r15, qword ptr [rdi + 8]",
            "adox r10, r13",
            "adcx r10, r15",
            "mulx r13, r15, qword ptr [rdi + 16]",
            "adox r11, r14",
            "adcx r11, r15",
            "mulx rbx, r15, qword ptr [rdi + 24]",
            "adox r12, r13",
            "adcx r12, r15",
            "mov r13d, 0",
            "adox rbx, r13",
            "adcx rbx, r13",
            "mov qword ptr [r8], r10",
            "mov qword ptr [r8 + 8], r11",
            "mov qword ptr [r8 + 16], r12",
            "lea rsi, [rsi + 32]",
            "lea rdi, [rdi + 32]",
            "lea r8, [r8 + 32]",
            "add rcx, 32",
            "jz 4f",
            // ---- the other blocks: carries rax (row a b_i) and rbx (row n m) in ----
            "3:",
            "mov rdx, qword ptr [rsp]",
            "xor r15d, r15d",            // CF = OF = 0
            "mulx r13, r9, qword ptr [rsi]",
            "adox r9, rax",
            "adcx r9, qword ptr [r8]",
            "mulx r14, r10, qword ptr [rsi + 8]",
            "adox r10, r13",
            "adcx r10, qword ptr [r8 + 8]",
            "mulx r13, r11, qword ptr [rsi + 16]",
            "adox r11, r14",
            "adcx r11, qword ptr [r8 + 16]",
            "mulx rax, r12, qword ptr [rsi + 24]",
            "adox r12, r13",
            "adcx r12, qword ptr [r8 + 24]",
            "adox rax, r15",
            "adcx rax, r15",
            "mov rdx, qword ptr [rsp + 8]",
            "mulx r13, r15, qword ptr [rdi]",
            "adox r9, rbx",
            "adcx r9, r15",
            "mulx r14, r15, qword ptr [rdi + 8]",
            "adox r10, r13",
            "adcx r10, r15",
            "mulx r13, r15, qword ptr [rdi + 16]",
            "adox r11, r14",
            "adcx r11, r15",
            "mulx rbx, r15, qword ptr [rdi + 24]",
            "adox r12, r13",
            "adcx r12, r15",
            "mov r13d, 0",
            "adox rbx, r13",
            "adcx rbx, r13",
            "mov qword ptr [r8 - 8], r9",
            "mov qword ptr [r8], r10",
            "mov qword ptr [r8 + 8], r11",
            "mov qword ptr [r8 + 16], r12",
            "lea rsi, [rsi + 32]",
            "lea rdi, [rdi + 32]",
            "lea r8, [r8 + 32]",
            "add rcx, 32",
            "jnz 3b",
            // ---- row end: t[l - 1] = t[l] + rax + rbx, t[l] = the carry ----
            "4:",
            "xor r13d, r13d",
            "add rax, rbx",
            "adc r13, 0",
            "add rax, qword ptr [r8]",
            "adc r13, 0",
            "mov qword ptr [r8 - 8], rax",
            "mov qword ptr [r8], r13",
            "add rsi, qword ptr [rsp + 40]",
            "add rdi, qword ptr [rsp + 40]",
            "add r8, qword ptr [rsp + 40]",
            "mov r9, qword ptr [rsp + 16]",
            "cmp r9, qword ptr [rsp + 24]",
            "jne 2b",
            "add rsp, 48",
            "pop rbx",
            inout("rsi") a.as_ptr() => _,
            inout("rdi") n.as_ptr() => _,
            inout("r8") t.as_mut_ptr() => _,
            inout("r9") b.as_ptr() => _,
            inout("r10") b.as_ptr().wrapping_add(l) => _,
            inout("r11") n0 => _,
            inout("rcx") (8 * l as isize).wrapping_neg() => _,
            out("rax") _,
            out("rdx") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
}

/// `t[0..len] += a[0..len] * b` for any `len >= 1` (`t.len()`); returns the limb carried
/// out (it always fits). Four limbs a turn, then one at a time; the loop counter is
/// stepped with `lea` and tested with `jrcxz`, which leave CF and OF alone, so the two
/// carry chains stay open across the whole row.
#[inline]
fn row_add(t: &mut [u64], a: &[u64], b: u64, _tok: Adx) -> u64 {
    let len = t.len();
    assert!(a.len() >= len && len > 0);
    let quads = len & !3;
    let carry: u64;
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). The loops read `len` limbs
    // of `a` and read and write `len` limbs of `t`, both checked above; the registers
    // named are declared clobbered.
    unsafe {
        asm!(
            "xor {h3:e}, {h3:e}",        // h3 = 0, CF = OF = 0
            "2:",
            "jrcxz 3f",
            "mulx {h0}, {lo}, qword ptr [{a}]",
            "adox {lo}, {h3}",
            "adcx {lo}, qword ptr [{t}]",
            "mov qword ptr [{t}], {lo}",
            "mulx {h1}, {lo}, qword ptr [{a} + 8]",
            "adox {lo}, {h0}",
            "adcx {lo}, qword ptr [{t} + 8]",
            "mov qword ptr [{t} + 8], {lo}",
            "mulx {h2}, {lo}, qword ptr [{a} + 16]",
            "adox {lo}, {h1}",
            "adcx {lo}, qword ptr [{t} + 16]",
            "mov qword ptr [{t} + 16], {lo}",
            "mulx {h3}, {lo}, qword ptr [{a} + 24]",
            "adox {lo}, {h2}",
            "adcx {lo}, qword ptr [{t} + 24]",
            "mov qword ptr [{t} + 24], {lo}",
            "lea {a}, [{a} + 32]",
            "lea {t}, [{t} + 32]",
            "lea rcx, [rcx + 4]",
            "jmp 2b",
            "3:",
            "mov rcx, {tail}",
            "4:",
            "jrcxz 5f",
            "mulx {h0}, {lo}, qword ptr [{a}]",
            "adox {lo}, {h3}",
            "adcx {lo}, qword ptr [{t}]",
            "mov qword ptr [{t}], {lo}",
            "mov {h3}, {h0}",
            "lea {a}, [{a} + 8]",
            "lea {t}, [{t} + 8]",
            "lea rcx, [rcx + 1]",
            "jmp 4b",
            "5:",
            "mov {lo:e}, 0",
            "adcx {h3}, {lo}",
            "adox {h3}, {lo}",
            a = inout(reg) a.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            tail = in(reg) ((len - quads) as isize).wrapping_neg(),
            h3 = out(reg) carry,
            lo = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            inout("rcx") (quads as isize).wrapping_neg() => _,
            in("rdx") b,
            options(nostack),
        );
    }
    carry
}

/// `r = a^2 2^(-64 L) mod n` for `a < n`, fully reduced (the value of `mont_mul(r, a, a,
/// ..)`): the square with each product `a_i a_j` (`i < j`) formed once, doubled, plus the
/// squares `a_i^2`, then `L` Montgomery reduction rows, about three quarters of the
/// limb products of a multiplication.
///
/// 8, 12, 16 and 24 limbs run the unrolled `mont_sqr_fixed`, 32, 48 and 64 limbs
/// `mont_sqr_split` (two half triangles from one unrolled copy, and a rectangle): its
/// code stays small where the fully unrolled triangle outgrows the instruction cache
/// (36 KB at 48 limbs, some 60 KB at 64). Zen 4, loaded machine, best of 200 windows of
/// 200 calls, ns: 16 limbs fixed 182, split 191; 24 limbs 383, 390; 32 limbs 674, 657;
/// 48 limbs 1585, 1508; 64 limbs split 2631 against 3164 for the rows below (and 3201
/// for the multiplication). Otherwise, below 20 limbs the
/// short rows of the triangle cost as much in calls as they save (Zen 4, loaded
/// machine, best of 600 windows: 16 limbs 276 ns against 277 ns for `mont_mul`; 24
/// limbs 527 against 605 ns; 32 limbs 865 against 1026 ns), so those widths, and widths
/// not a multiple of four, run `mont_mul`.
pub(crate) fn mont_sqr(r: &mut [u64], a: &[u64], n: &[u64], n0: u64, tok: Adx) {
    let l = n.len();
    match l {
        8 => return mont_sqr_fixed::<8, 16>(r, a, n, n0, tok),
        12 => return mont_sqr_fixed::<12, 24>(r, a, n, n0, tok),
        16 => return mont_sqr_fixed::<16, 32>(r, a, n, n0, tok),
        24 => return mont_sqr_fixed::<24, 48>(r, a, n, n0, tok),
        32 => return mont_sqr_split::<16, 32, 64>(r, a, n, n0, tok),
        48 => return mont_sqr_split::<24, 48, 96>(r, a, n, n0, tok),
        64 => return mont_sqr_split::<32, 64, 128>(r, a, n, n0, tok),
        _ => {}
    }
    if !l.is_multiple_of(4) || l < 20 {
        return mont_mul(r, a, a, n, n0, tok);
    }
    assert!(l > 0 && l <= MAX_LIMBS && a.len() == l && r.len() == l);
    match l {
        0..=32 => mont_sqr_in::<64>(r, a, n, n0, tok),
        33..=64 => mont_sqr_in::<128>(r, a, n, n0, tok),
        _ => mont_sqr_in::<{ 2 * MAX_LIMBS }>(r, a, n, n0, tok),
    }
}

/// [`mont_sqr`] with a product buffer of `N >= 2 L` limbs.
#[inline(always)]
fn mont_sqr_in<const N: usize>(r: &mut [u64], a: &[u64], n: &[u64], n0: u64, tok: Adx) {
    let l = n.len();
    let mut buf = [0u64; N];
    let p = &mut buf[..2 * l];
    // The products below the diagonal: row i adds a_i a[i+1..] at position 2i + 1; its
    // carry lands on position i + L, not reached by the earlier rows.
    for i in 0..l - 1 {
        p[i + l] = row_add(&mut p[2 * i + 1..i + l], &a[i + 1..], a[i], tok);
    }
    // Doubled (the sum is below a^2 / 2, so no bit leaves the top), plus the diagonal.
    let mut top = 0;
    for x in p.iter_mut() {
        let v = *x;
        *x = (v << 1) | top;
        top = v >> 63;
    }
    let mut c = 0u64;
    for (i, &ai) in a.iter().enumerate() {
        let sq = (ai as u128) * (ai as u128);
        let s = p[2 * i] as u128 + (sq as u64) as u128 + c as u128;
        p[2 * i] = s as u64;
        let s = p[2 * i + 1] as u128 + (sq >> 64) + (s >> 64);
        p[2 * i + 1] = s as u64;
        c = (s >> 64) as u64;
    }
    let bit = redc_rows(p, n, n0, tok);
    final_sub(r, &p[l..], bit, n);
    zeroize::Zeroize::zeroize(p);
}

/// Montgomery reduction of the `2 L` limbs of `p` (`L = n.len()`, a positive multiple of
/// 4), in place: row `i` adds `m n` at limb `i` for `m = p_i n_0 mod 2^64`, which clears
/// limb `i`; its carry and the bit left over from row `i - 1` go into limb `i + L`.
/// Returns the bit left over from the last row (the value is `p[L..2L] + bit 2^(64 L)`).
#[inline]
fn redc_rows(p: &mut [u64], n: &[u64], n0: u64, _tok: Adx) -> u64 {
    let l = n.len();
    assert!(l > 0 && l.is_multiple_of(4) && p.len() == 2 * l);
    let bit: u64;
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). Row `i` (of `l`) reads limbs
    // `0..l` of `n` and reads and writes limbs `i..=i + l` of `p` (`2 l` limbs, checked
    // above); the registers named are declared clobbered.
    unsafe {
        asm!(
            "xor {bit:e}, {bit:e}",
            "2:",
            "mov rdx, qword ptr [{t}]",
            "imul rdx, {n0}",            // m
            "mov rcx, {len8}",
            "neg rcx",
            "xor {h3:e}, {h3:e}",        // CF = OF = 0
            "3:",
            "jrcxz 4f",
            "mulx {h0}, {lo}, qword ptr [{n}]",
            "adox {lo}, {h3}",
            "adcx {lo}, qword ptr [{t}]",
            "mov qword ptr [{t}], {lo}",
            "mulx {h1}, {lo}, qword ptr [{n} + 8]",
            "adox {lo}, {h0}",
            "adcx {lo}, qword ptr [{t} + 8]",
            "mov qword ptr [{t} + 8], {lo}",
            "mulx {h2}, {lo}, qword ptr [{n} + 16]",
            "adox {lo}, {h1}",
            "adcx {lo}, qword ptr [{t} + 16]",
            "mov qword ptr [{t} + 16], {lo}",
            "mulx {h3}, {lo}, qword ptr [{n} + 24]",
            "adox {lo}, {h2}",
            "adcx {lo}, qword ptr [{t} + 24]",
            "mov qword ptr [{t} + 24], {lo}",
            "lea {n}, [{n} + 32]",
            "lea {t}, [{t} + 32]",
            "lea rcx, [rcx + 32]",
            "jmp 3b",
            "4:",
            "mov {lo:e}, 0",
            "adcx {h3}, {lo}",
            "adox {h3}, {lo}",
            // limb i + l += carry + bit
            "add {h3}, qword ptr [{t}]",
            "adc {lo}, 0",
            "add {h3}, {bit}",
            "adc {lo}, 0",
            "mov qword ptr [{t}], {h3}",
            "mov {bit}, {lo}",
            "sub {n}, {len8}",
            "sub {t}, {len8}",
            "lea {t}, [{t} + 8]",
            "dec {rows}",
            "jnz 2b",
            t = inout(reg) p.as_mut_ptr() => _,
            n = inout(reg) n.as_ptr() => _,
            n0 = in(reg) n0,
            len8 = in(reg) 8 * l,
            rows = inout(reg) l => _,
            bit = out(reg) bit,
            h3 = out(reg) _,
            lo = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
    bit
}

/// One row of products, as assembler text: `p[po .. po + cnt] += rdx * src[x0 .. x0 +
/// cnt] + r10` (`r10` the high half carried in from the products before, zero for a
/// fresh row) with the assembler symbols `.Lx0`, `.Lpo`, `.Lcnt` (`cnt >= 1`) and
/// `.Linit` set by the caller, `r8` pointing at `p`, both carry chains open (CF, OF).
/// The low halves go through ADCX with the limbs of `p` (skipped when `.Linit` is set:
/// the row then writes limbs not yet written), the high halves through ADOX into the
/// next limb; the row's carry-out (the high half of the last product plus both open
/// carries, which always fits in a limb) is left in `r10`. Unrolled two products a turn
/// (the two high-half registers `r10`/`r11` take turns), so no loop counter and no
/// pointer moves; clobbers `rax`, `r10`, `r11` and the flags.
macro_rules! adx_row {
    ($src:literal) => {
        concat!(
            ".set .Lsx, .Lx0\n",
            ".set .Lsp, .Lpo\n",
            ".rept .Lcnt / 2\n",
            "mulx r11, rax, qword ptr [",
            $src,
            " + 8 * .Lsx]\n",
            "adox rax, r10\n",
            ".if .Linit == 0\n",
            "adcx rax, qword ptr [r8 + 8 * .Lsp]\n",
            ".endif\n",
            "mov qword ptr [r8 + 8 * .Lsp], rax\n",
            "mulx r10, rax, qword ptr [",
            $src,
            " + 8 * .Lsx + 8]\n",
            "adox rax, r11\n",
            ".if .Linit == 0\n",
            "adcx rax, qword ptr [r8 + 8 * .Lsp + 8]\n",
            ".endif\n",
            "mov qword ptr [r8 + 8 * .Lsp + 8], rax\n",
            ".set .Lsx, .Lsx + 2\n",
            ".set .Lsp, .Lsp + 2\n",
            ".endr\n",
            ".if .Lcnt & 1\n",
            "mulx r11, rax, qword ptr [",
            $src,
            " + 8 * .Lsx]\n",
            "adox rax, r10\n",
            ".if .Linit == 0\n",
            "adcx rax, qword ptr [r8 + 8 * .Lsp]\n",
            ".endif\n",
            "mov qword ptr [r8 + 8 * .Lsp], rax\n",
            "mov r10, r11\n",
            ".endif\n",
            "mov eax, 0\n",
            "adox r10, rax\n",
            "adcx r10, rax\n",
        )
    };
}

/// The text that turns the triangle `sum_{i<j} a_i a_j 2^(64(i+j))` in `p[0..2L]` into
/// `a^2`: every limb doubled (ADCX of a limb with itself) plus the squares `a_i^2` (MULX,
/// added by ADOX); both carry chains end at zero. Reads `a` at `rsi`, `p` at `r8`;
/// clobbers `rax`, `rdx`, `r10`, `r11` and the flags.
macro_rules! adx_double_squares {
    () => {
        concat!(
            "xor eax, eax\n",
            ".set .Li, 0\n",
            ".rept {l}\n",
            "mov rdx, qword ptr [rsi + 8 * .Li]\n",
            "mulx r11, r10, rdx\n",
            "mov rax, qword ptr [r8 + 16 * .Li]\n",
            "adcx rax, rax\n",
            "adox rax, r10\n",
            "mov qword ptr [r8 + 16 * .Li], rax\n",
            "mov rax, qword ptr [r8 + 16 * .Li + 8]\n",
            "adcx rax, rax\n",
            "adox rax, r11\n",
            "mov qword ptr [r8 + 16 * .Li + 8], rax\n",
            ".set .Li, .Li + 1\n",
            ".endr\n",
        )
    };
}

/// The Montgomery reduction of the `2 L` limbs at `r8` (modulus at `rdi`, `n0` in `r9`),
/// then the conditional subtraction into the `L` limbs at `rcx`, as assembler text (`{l}`
/// is the limb count, at least 4). One reduction row per limb, in a loop that moves `r8`
/// a limb up: `p += m n` for the `m` in `r15` (clearing limb 0, stored as the zero it
/// is), the first two products written out so that the next row's `m = p_1 n0` is
/// formed from the register (no trip through memory on the rows' critical path; the
/// IMUL follows the row in program order, as it writes the flags, but waits for limb 1
/// only), the rest by [`adx_row!`]; the row's carry and the bit left over from the row
/// before go into limb `L`. Then `r = p[L..2L] - n`, and where that went
/// below zero (the borrow exceeds the bit left over) `r = p[L..2L]` by CMOVC on every
/// limb, which also clears `p[L..2L]`: the whole of `p` is zero at the end. Clobbers
/// `rax`, `rdx`, `r8`, `r10` to `r13`, `r15` and the flags.
macro_rules! adx_redc {
    () => {
        concat!(
            "xor r12d, r12d\n",
            "mov r13d, {l}\n",
            "mov r15, qword ptr [r8]\n",
            "imul r15, r9\n",
            "2:\n",
            "mov rdx, r15\n",
            "xor r10d, r10d\n",
            "mulx r11, rax, qword ptr [rdi]\n",
            "adcx rax, qword ptr [r8]\n",
            "mov qword ptr [r8], rax\n",
            "mulx r10, rax, qword ptr [rdi + 8]\n",
            "adox rax, r11\n",
            "adcx rax, qword ptr [r8 + 8]\n",
            "mov qword ptr [r8 + 8], rax\n",
            "mov r15, rax\n",
            ".set .Lx0, 2\n",
            ".set .Lpo, 2\n",
            ".set .Lcnt, {l} - 2\n",
            ".set .Linit, 0\n",
            adx_row!("rdi"),
            // (IMUL writes CF and OF: only once the row's chains are closed)
            "imul r15, r9\n",
            "xor eax, eax\n",
            "add r10, qword ptr [r8 + 8 * {l}]\n",
            "adc rax, 0\n",
            "add r10, r12\n",
            "adc rax, 0\n",
            "mov qword ptr [r8 + 8 * {l}], r10\n",
            "mov r12, rax\n",
            "lea r8, [r8 + 8]\n",
            "dec r13d\n",
            "jnz 2b\n",
            // r8 now points at p[L]
            "xor r10d, r10d\n",
            "mov rax, qword ptr [r8]\n",
            "sub rax, qword ptr [rdi]\n",
            "mov qword ptr [rcx], rax\n",
            ".set .Li, 1\n",
            ".rept {l} - 1\n",
            "mov rax, qword ptr [r8 + 8 * .Li]\n",
            "sbb rax, qword ptr [rdi + 8 * .Li]\n",
            "mov qword ptr [rcx + 8 * .Li], rax\n",
            ".set .Li, .Li + 1\n",
            ".endr\n",
            "sbb r12, 0\n",
            ".set .Li, 0\n",
            ".rept {l}\n",
            "mov rax, qword ptr [rcx + 8 * .Li]\n",
            "cmovc rax, qword ptr [r8 + 8 * .Li]\n",
            "mov qword ptr [rcx + 8 * .Li], rax\n",
            "mov qword ptr [r8 + 8 * .Li], r10\n",
            ".set .Li, .Li + 1\n",
            ".endr\n",
        )
    };
}

/// `r = a^2 2^(-64 L) mod n` for `a < n`, fully reduced, for a width `L >= 4` fixed at
/// compile time (`P = 2 L`): the products `a_i a_j`, `i < j`, in `L - 1` rows of falling
/// length (every row unrolled, the offsets constants of the instructions; the first
/// row writes, the others add), then doubled with the squares `a_i^2` added on the
/// other carry chain, then [`adx_redc!`]; all in one `asm!` block. The product buffer
/// needs no clearing before (every limb is written before it is read) and is zero after.
#[inline]
fn mont_sqr_fixed<const L: usize, const P: usize>(
    r: &mut [u64],
    a: &[u64],
    n: &[u64],
    n0: u64,
    _tok: Adx,
) {
    assert!(P == 2 * L && L >= 4 && a.len() == L && n.len() == L && r.len() == L);
    let mut p = core::mem::MaybeUninit::<[u64; P]>::uninit();
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). The offsets are assembler
    // constants: `a` and `n` are read at limbs `0..L`, `p` (P = 2 L limbs, written before
    // it is read: row 0 writes limbs 1..=L, row i reads 2i+1..i+L-1 and writes up to
    // i+L, limbs 0 and 2L-1 are set first) at `0..2L` (the reduction loop moves `r8` up
    // by `L` limbs and touches `r8 + 0 ..= L`), `r` written at `0..L`; the lengths are
    // checked above. `rbx` is not used; every register written is declared.
    unsafe {
        asm!(
            "mov qword ptr [r8], 0",
            "mov qword ptr [r8 + 16 * {l} - 8], 0",
            // the triangle: row i adds a_i a[i+1..L] at limb 2i + 1, carry to limb i + L
            ".set .Li, 0",
            ".rept {l} - 1",
            "mov rdx, qword ptr [rsi + 8 * .Li]",
            "xor r10d, r10d",
            ".set .Lx0, .Li + 1",
            ".set .Lpo, 2 * .Li + 1",
            ".set .Lcnt, {l} - 1 - .Li",
            ".set .Linit, .Li == 0",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * (.Li + {l})], r10",
            ".set .Li, .Li + 1",
            ".endr",
            adx_double_squares!(),
            adx_redc!(),
            l = const L,
            in("rsi") a.as_ptr(),
            in("rdi") n.as_ptr(),
            in("rcx") r.as_mut_ptr(),
            in("r9") n0,
            inout("r8") p.as_mut_ptr() as *mut u64 => _,
            out("rax") _,
            out("rdx") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r15") _,
            options(nostack),
        );
    }
}

/// `r = a^2 2^(-64 L) mod n` for `a < n`, fully reduced, for a width `L = 2 H` fixed at
/// compile time (`H >= 4`, `P = 2 L`), with a fraction of the code of
/// [`mont_sqr_fixed`]: for `a = lo + hi 2^(64 H)` the products `a_i a_j`, `i < j`, are
/// the triangle of `lo`, the triangle of `hi` (at limb `2 H`) and the rectangle `lo hi`
/// (at limb `H`). The two triangles, which fill `p` without overlapping, run one
/// unrolled `H`-limb triangle twice (a loop of two that moves the pointers); the
/// rectangle goes into the scratch `q` (`L` limbs) as in [`mont_mul_fixed`] (`H` rows of
/// `H` unrolled products, each row's carry into a limb not yet written), and is then
/// added into `p` at limb `H` (the carry rippled through the top `H` limbs, clearing `q`
/// on the way); then the doubling with the squares and [`adx_redc!`] as in
/// [`mont_sqr_fixed`]; all in one `asm!` block. At 64 limbs this is some 20 KB of code
/// where the fully unrolled triangle would be 60 KB. Both buffers are zero after.
#[inline]
fn mont_sqr_split<const H: usize, const L: usize, const P: usize>(
    r: &mut [u64],
    a: &[u64],
    n: &[u64],
    n0: u64,
    _tok: Adx,
) {
    assert!(L == 2 * H && P == 2 * L && H >= 4);
    assert!(a.len() == L && n.len() == L && r.len() == L);
    let mut p = core::mem::MaybeUninit::<[u64; P]>::uninit();
    let mut q = core::mem::MaybeUninit::<[u64; L]>::uninit();
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). The offsets are assembler
    // constants. The triangle loop runs twice, first with `rsi = a`, `r8 = p`, then with
    // `rsi = a + H`, `r8 = p + 2 H` (limbs): each pass reads `rsi` at limbs `0..H` and
    // writes `r8` at `0..2H` (limbs 0 and `2H - 1` set first, row `i` reading `2i +
    // 1..i + H - 1` that earlier rows wrote and writing up to `i + H`), so `a` is read at
    // `0..L` and `p` (`2 L` limbs) written at `0..2L`; `rsi` goes back to `a`. The
    // rectangle writes `q` (`L` limbs, at `r14`) at limbs `i..=i + H` in row `i < H` (the
    // first row writes, the others add to limbs written before), reading `a` at `0..L`
    // (`r12` walks `a[0..H]`). The addition reads and clears `q` at `0..L` and adds into
    // `p` at `H..2L`. The reduction touches `p` at `0..2L` and writes `r` at `0..L`, as in
    // `mont_sqr_fixed`. The lengths are checked above. `rbx` is not used; every register
    // written is declared.
    unsafe {
        asm!(
            // the triangles of lo (at p) and hi (at p + 2H)
            "mov r13d, 2",
            "5:",
            "mov qword ptr [r8], 0",
            "mov qword ptr [r8 + 16 * {h} - 8], 0",
            ".set .Li, 0",
            ".rept {h} - 1",
            "mov rdx, qword ptr [rsi + 8 * .Li]",
            "xor r10d, r10d",
            ".set .Lx0, .Li + 1",
            ".set .Lpo, 2 * .Li + 1",
            ".set .Lcnt, {h} - 1 - .Li",
            ".set .Linit, .Li == 0",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * (.Li + {h})], r10",
            ".set .Li, .Li + 1",
            ".endr",
            "lea rsi, [rsi + 8 * {h}]",
            "lea r8, [r8 + 16 * {h}]",
            "dec r13d",
            "jnz 5b",
            "lea rsi, [rsi - 16 * {h}]",
            "lea r15, [r8 - 32 * {h}]",
            // the rectangle lo hi into q: row i adds a_i a[H..L] at limb i
            "mov r8, r14",
            "mov r12, rsi",
            "mov rdx, qword ptr [r12]",
            "xor r10d, r10d",
            ".set .Lx0, {h}",
            ".set .Lpo, 0",
            ".set .Lcnt, {h}",
            ".set .Linit, 1",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * {h}], r10",
            "mov r13d, {h} - 1",
            "6:",
            "lea r8, [r8 + 8]",
            "lea r12, [r12 + 8]",
            "mov rdx, qword ptr [r12]",
            "xor r10d, r10d",
            ".set .Linit, 0",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * {h}], r10",
            "dec r13d",
            "jnz 6b",
            // p[H..2L] += q (q cleared), the carry rippled to the top
            "mov r8, r15",
            "mov rax, qword ptr [r14]",
            "mov qword ptr [r14], 0",
            "add qword ptr [r8 + 8 * {h}], rax",
            ".set .Li, 1",
            ".rept {l} - 1",
            "mov rax, qword ptr [r14 + 8 * .Li]",
            "mov qword ptr [r14 + 8 * .Li], 0",
            "adc qword ptr [r8 + 8 * ({h} + .Li)], rax",
            ".set .Li, .Li + 1",
            ".endr",
            ".set .Li, {h} + {l}",
            ".rept {h}",
            "adc qword ptr [r8 + 8 * .Li], 0",
            ".set .Li, .Li + 1",
            ".endr",
            adx_double_squares!(),
            adx_redc!(),
            l = const L,
            h = const H,
            inout("rsi") a.as_ptr() => _,
            in("rdi") n.as_ptr(),
            in("rcx") r.as_mut_ptr(),
            in("r9") n0,
            inout("r8") p.as_mut_ptr() as *mut u64 => _,
            in("r14") q.as_mut_ptr() as *mut u64,
            out("rax") _,
            out("rdx") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r15") _,
            options(nostack),
        );
    }
}

/// `r = a b 2^(-64 L) mod n` (`a < 2^(64 L)`, `b < n`), fully reduced, for a width `L >= 4`
/// fixed at compile time (`P = 2 L`): the product in `L` rows `p[i..i+L] += a b_i`
/// (each row unrolled, [`adx_row!`], in a loop that moves `p` a limb up; the first row
/// writes), then [`adx_redc!`]; all in one `asm!` block. The product buffer needs no
/// clearing before and is zero after.
#[inline]
fn mont_mul_fixed<const L: usize, const P: usize>(
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
    n: &[u64],
    n0: u64,
    _tok: Adx,
) {
    assert!(P == 2 * L && L >= 4 && a.len() == L && b.len() == L && n.len() == L && r.len() == L);
    let mut p = core::mem::MaybeUninit::<[u64; P]>::uninit();
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). The first row writes `p` at
    // limbs `0..=L`; the product loop then reads `b` at limbs `1..L` (r14 moves a limb a
    // row) and `a` at `0..L`, and reads and writes `p` at `i..=i + L` in row `i` (limbs
    // the row before wrote); `r8` is then back at `p` for the reduction, which touches
    // `p` at `0..2L` and writes `r` at `0..L`, as in `mont_sqr_fixed`; the lengths are
    // checked above. `rbx` is not used; every register written is declared.
    unsafe {
        asm!(
            "mov rdx, qword ptr [r14]",
            "xor r10d, r10d",
            ".set .Lx0, 0",
            ".set .Lpo, 0",
            ".set .Lcnt, {l}",
            ".set .Linit, 1",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * {l}], r10",
            "mov r13d, {l} - 1",
            "3:",
            "lea r8, [r8 + 8]",
            "lea r14, [r14 + 8]",
            "mov rdx, qword ptr [r14]",
            "xor r10d, r10d",
            ".set .Linit, 0",
            adx_row!("rsi"),
            "mov qword ptr [r8 + 8 * {l}], r10",
            "dec r13d",
            "jnz 3b",
            "lea r8, [r8 - 8 * {l} + 8]",
            adx_redc!(),
            l = const L,
            in("rsi") a.as_ptr(),
            in("rdi") n.as_ptr(),
            in("rcx") r.as_mut_ptr(),
            in("r9") n0,
            inout("r8") p.as_mut_ptr() as *mut u64 => _,
            inout("r14") b.as_ptr() => _,
            out("rax") _,
            out("rdx") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r15") _,
            options(nostack),
        );
    }
}

/// `out = table[idx]` for a table of `table.len() / l` entries of `l` limbs (`l` a
/// multiple of 4), reading every entry under a mask, as `monty::ct_lookup` but on
/// 256-bit registers: the mask of entry `e` is `e == idx` compared in a vector
/// register (VPCMPEQQ), and sixteen limbs at a time (four accumulators) are gathered
/// from every entry, then four at a time. Constant time: every entry is read, the
/// addresses and instructions depend on the table's shape only.
pub(crate) fn ct_lookup(table: &[u64], l: usize, idx: usize, out: &mut [u64], _tok: Avx2) {
    assert!(l > 0 && l.is_multiple_of(4) && out.len() == l && table.len().is_multiple_of(l));
    // SAFETY: `_tok` proves AVX2 (and the OS saving YMM state).
    unsafe { ct_lookup_avx2(table, l, idx, out) }
}

#[target_feature(enable = "avx,avx2")]
fn ct_lookup_avx2(table: &[u64], l: usize, idx: usize, out: &mut [u64]) {
    use core::arch::x86_64::*;
    let entries = table.len() / l;
    let want = _mm256_set1_epi64x(idx as i64);
    let tp = table.as_ptr();
    let op = out.as_mut_ptr();
    let mut start = 0;
    while start + 16 <= l {
        let mut acc = [_mm256_setzero_si256(); 4];
        for e in 0..entries {
            let m = _mm256_cmpeq_epi64(_mm256_set1_epi64x(e as i64), want);
            for (k, a) in acc.iter_mut().enumerate() {
                // SAFETY: limbs `e l + start + 4k .. + 4` lie in entry `e` (start + 16 <= l)
                // of the `entries * l` limbs of `table`.
                let v = unsafe { _mm256_loadu_si256(tp.add(e * l + start + 4 * k).cast()) };
                *a = _mm256_or_si256(*a, _mm256_and_si256(v, m));
            }
        }
        for (k, a) in acc.iter().enumerate() {
            // SAFETY: limbs `start + 4k .. + 4` of `out` (`l` limbs, start + 16 <= l).
            unsafe { _mm256_storeu_si256(op.add(start + 4 * k).cast(), *a) };
        }
        start += 16;
    }
    while start < l {
        let mut acc = _mm256_setzero_si256();
        for e in 0..entries {
            let m = _mm256_cmpeq_epi64(_mm256_set1_epi64x(e as i64), want);
            // SAFETY: limbs `e l + start .. + 4` lie in entry `e` (`l` a multiple of 4).
            let v = unsafe { _mm256_loadu_si256(tp.add(e * l + start).cast()) };
            acc = _mm256_or_si256(acc, _mm256_and_si256(v, m));
        }
        // SAFETY: limbs `start .. start + 4` of `out` (`l` limbs, a multiple of 4).
        unsafe { _mm256_storeu_si256(op.add(start).cast(), acc) };
        start += 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        }
    }

    /// A random operand made below `n` by clearing its top limb's bits from `n`'s top bit
    /// up.
    fn below(x: &mut [u64], n: &[u64]) {
        let l = n.len();
        let top = 63 - n[l - 1].leading_zeros();
        x[l - 1] &= (1u64 << top) - 1;
    }

    fn check_width(l: usize, tok: Adx) {
        let mut next = rng(0x5eed ^ l as u64);
        for case in 0..300 {
            let mut n: Vec<u64> = (0..l).map(|_| next()).collect();
            n[0] |= 1;
            match case % 4 {
                0 => n[l - 1] |= 1 << 63,
                1 => n[l - 1] >>= case % 60 + 1,
                2 => {
                    // all ones but the low bit pattern: the largest moduli
                    n.iter_mut().for_each(|x| *x = u64::MAX);
                    n[0] = u64::MAX - 2 * (case as u64);
                }
                _ => n[l - 1] |= 1 << 62,
            }
            if n[l - 1] == 0 {
                n[l - 1] = 1;
            }
            let n0 = super::super::limbs::neg_inv_u64(n[0]);
            let mut a: Vec<u64> = (0..l).map(|_| next()).collect();
            let mut b: Vec<u64> = (0..l).map(|_| next()).collect();
            below(&mut a, &n);
            below(&mut b, &n);
            match case % 5 {
                // n - 1 (the largest residue) and 0, 1
                0 => {
                    a.copy_from_slice(&n);
                    a[0] -= 1;
                }
                1 => {
                    b.copy_from_slice(&n);
                    b[0] -= 1;
                    a.copy_from_slice(&b);
                }
                2 => a.iter_mut().for_each(|x| *x = 0),
                3 => {
                    b.iter_mut().for_each(|x| *x = 0);
                    b[0] = 1;
                }
                _ => {}
            }
            let mut want = vec![0u64; l];
            let mut got = vec![0u64; l];
            super::super::soft::mont_mul(&mut want, &a, &a, &n, n0);
            mont_sqr(&mut got, &a, &n, n0, tok);
            assert_eq!(got, want, "sqr, {l} limbs, case {case}");
            super::super::soft::mont_mul(&mut want, &a, &b, &n, n0);
            mont_mul(&mut got, &a, &b, &n, n0, tok);
            assert_eq!(got, want, "mul, {l} limbs, case {case}");
            // a up to 2^(64 L) - 1 for the multiplication (its contract)
            let ones = vec![u64::MAX; l];
            super::super::soft::mont_mul(&mut want, &ones, &b, &n, n0);
            mont_mul(&mut got, &ones, &b, &n, n0, tok);
            assert_eq!(got, want, "mul all-ones, {l} limbs, case {case}");
        }
    }

    /// The AVX2 table scan against the portable one, every index of tables of every
    /// shape the exponentiation uses.
    #[test]
    fn lookup_agrees() {
        let Some(tok) = Avx2::get() else {
            return;
        };
        let mut next = rng(77);
        for l in [4usize, 8, 12, 16, 20, 24, 32, 36, 64] {
            for entries in [1usize, 2, 4, 16, 32] {
                let table: Vec<u64> = (0..l * entries).map(|_| next()).collect();
                for idx in 0..entries {
                    let mut want = vec![0u64; l];
                    let mut got = vec![1u64; l];
                    super::super::monty::ct_lookup(&table, l, idx, &mut want);
                    ct_lookup(&table, l, idx, &mut got, tok);
                    assert_eq!(want, &table[idx * l..(idx + 1) * l]);
                    assert_eq!(got, want, "{l} limbs, {entries} entries, index {idx}");
                }
            }
        }
    }

    /// The split squaring at every width it can take, against `soft`, on operands whose
    /// halves are zero, one or all ones as well as random ones.
    fn check_split<const H: usize, const L: usize, const P: usize>(tok: Adx) {
        let l = L;
        let mut next = rng(0x5b1 ^ l as u64);
        for case in 0..200 {
            let mut n: Vec<u64> = (0..l).map(|_| next()).collect();
            n[0] |= 1;
            match case % 3 {
                0 => n[l - 1] |= 1 << 63,
                1 => {
                    n.iter_mut().for_each(|x| *x = u64::MAX);
                    n[0] = u64::MAX - 2 * (case as u64);
                }
                _ => n[l - 1] = (n[l - 1] >> (case % 63 + 1)).max(1),
            }
            let n0 = super::super::limbs::neg_inv_u64(n[0]);
            let mut a: Vec<u64> = (0..l).map(|_| next()).collect();
            below(&mut a, &n);
            match case % 8 {
                0 => {
                    a.copy_from_slice(&n);
                    a[0] -= 1;
                }
                1 => a.iter_mut().for_each(|x| *x = 0),
                2 => {
                    a.iter_mut().for_each(|x| *x = 0);
                    a[0] = 1;
                }
                3 => a[..H].iter_mut().for_each(|x| *x = 0),
                4 => a[H..].iter_mut().for_each(|x| *x = 0),
                5 => {
                    // hi = n's top half less one, lo all ones
                    a.copy_from_slice(&n);
                    super::super::limbs::sub_assign(&mut a[H..], &[1]);
                    a[..H].iter_mut().for_each(|x| *x = u64::MAX);
                }
                6 => a[..H].iter_mut().for_each(|x| *x = u64::MAX),
                _ => {}
            }
            assert_eq!(super::super::limbs::lt(&a, &n), u64::MAX, "case {case}");
            let mut want = vec![0u64; l];
            let mut got = vec![0u64; l];
            super::super::soft::mont_mul(&mut want, &a, &a, &n, n0);
            mont_sqr_split::<H, L, P>(&mut got, &a, &n, n0, tok);
            assert_eq!(got, want, "split sqr, {l} limbs, case {case}");
        }
    }

    #[test]
    fn split_sqr_agrees_with_soft() {
        let Some(tok) = Adx::get() else {
            return;
        };
        check_split::<4, 8, 16>(tok);
        check_split::<8, 16, 32>(tok);
        check_split::<12, 24, 48>(tok);
        check_split::<16, 32, 64>(tok);
        check_split::<24, 48, 96>(tok);
        check_split::<32, 64, 128>(tok);
    }

    /// Every width the fixed kernels serve and the ones around them, against `soft`.
    #[test]
    fn kernels_agree_with_soft() {
        let Some(tok) = Adx::get() else {
            return;
        };
        for l in [4, 8, 12, 15, 16, 17, 20, 23, 24, 28, 32, 36, 48, 64] {
            check_width(l, tok);
        }
    }

    /// `cargo test --release -p shyfr --lib x86_adx::tests::speed -- --ignored --nocapture`:
    /// the fixed-width kernels against the looped CIOS kernel (best of many windows).
    #[test]
    #[ignore]
    fn speed() {
        let Some(tok) = Adx::get() else {
            return;
        };
        for l in [16usize, 24, 32, 48, 64] {
            let mut next = rng(l as u64);
            let mut n: Vec<u64> = (0..l).map(|_| next()).collect();
            n[0] |= 1;
            n[l - 1] |= 1 << 63;
            let n0 = super::super::limbs::neg_inv_u64(n[0]);
            let mut a: Vec<u64> = (0..l).map(|_| next()).collect();
            below(&mut a, &n);
            let time = |f: &mut dyn FnMut(&mut [u64])| {
                let mut best = f64::MAX;
                let mut r = vec![0u64; l];
                for _ in 0..200 {
                    let t = std::time::Instant::now();
                    for _ in 0..200 {
                        f(&mut r);
                        core::hint::black_box(&mut r);
                    }
                    best = best.min(t.elapsed().as_nanos() as f64 / 200.0);
                }
                best
            };
            let sq = time(&mut |r| mont_sqr(r, &a, &n, n0, tok));
            let mu = time(&mut |r| mont_mul(r, &a, &a, &n, n0, tok));
            let old = time(&mut |r| mont_mul_in::<{ MAX_LIMBS + 1 }>(r, &a, &a, &n, n0, tok));
            let rows = time(&mut |r| mont_sqr_in::<128>(r, &a, &n, n0, tok));
            // dependent chains (as in an exponentiation): one chain, and two chains
            // interleaved (per squaring)
            let mut x = a.clone();
            let mut y = a.clone();
            y[0] ^= 1;
            let mut t = vec![0u64; l];
            let chain1 = time(&mut |_r| {
                mont_sqr(&mut t, &x, &n, n0, tok);
                mont_sqr(&mut x, &t, &n, n0, tok);
            }) / 2.0;
            let chain2 = time(&mut |_r| {
                mont_sqr(&mut t, &x, &n, n0, tok);
                mont_sqr(&mut x, &t, &n, n0, tok);
                mont_sqr(&mut t, &y, &n, n0, tok);
                mont_sqr(&mut y, &t, &n, n0, tok);
            }) / 4.0;
            std::println!("{l} limbs: sqr chain {chain1:.0} ns, two chains {chain2:.0} ns");
            let split = match l {
                16 => time(&mut |r| mont_sqr_split::<8, 16, 32>(r, &a, &n, n0, tok)),
                24 => time(&mut |r| mont_sqr_split::<12, 24, 48>(r, &a, &n, n0, tok)),
                32 => time(&mut |r| mont_sqr_split::<16, 32, 64>(r, &a, &n, n0, tok)),
                48 => time(&mut |r| mont_sqr_split::<24, 48, 96>(r, &a, &n, n0, tok)),
                64 => time(&mut |r| mont_sqr_split::<32, 64, 128>(r, &a, &n, n0, tok)),
                _ => 0.0,
            };
            std::println!(
                "{l} limbs: sqr {sq:.0} ns, mul {mu:.0} ns, CIOS loop {old:.0} ns, \
                 sqr rows {rows:.0} ns, split sqr {split:.0} ns"
            );
        }
    }
}
