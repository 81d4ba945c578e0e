//! Montgomery multiplication with MULX and the two independent carry chains of ADX: in
//! each row `t += a * b_i`, ADCX carries the additions of `t`'s limbs and ADOX those of the
//! high halves of the previous products, so neither waits for the other (Intel, "New
//! Instructions Supporting Large Integer Arithmetic on Intel Architecture Processors",
//! 2012). The rows are small `asm!` loops over the limbs (the loop counter is stepped with
//! `lea` and tested with `jrcxz`, which leave CF and OF alone; four limbs a turn, the
//! high halves rotating through four registers); the Montgomery structure
//! (CIOS, as in `soft.rs`) is Rust.
//!
//! Constant time: the instruction sequence depends only on the limb count.

use core::arch::asm;

use super::MAX_LIMBS;
use crate::cpu::x86::Adx;

/// `t[0..len] += a[0..len] * b` for `len` a positive multiple of 4; returns the limb
/// carried out (it always fits).
#[inline]
fn row_add(t: &mut [u64], a: &[u64], b: u64, _tok: Adx) -> u64 {
    let len = t.len();
    assert!(a.len() >= len && len > 0 && len.is_multiple_of(4));
    let carry: u64;
    // SAFETY: `_tok` proves BMI2 (MULX) and ADX (ADCX/ADOX). The loop reads `len` limbs
    // of `a` and reads and writes `len` limbs of `t`, both checked above; the registers
    // named are declared clobbered.
    unsafe {
        asm!(
            "xor {h3:e}, {h3:e}",        // h3 = 0, CF = OF = 0
            "2:",
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
            "jrcxz 3f",
            "jmp 2b",
            "3:",
            "mov {lo:e}, 0",
            "adcx {h3}, {lo}",
            "adox {h3}, {lo}",
            a = inout(reg) a.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            h3 = out(reg) carry,
            lo = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            inout("rcx") (len as isize).wrapping_neg() => _,
            in("rdx") b,
            options(nostack),
        );
    }
    carry
}

/// `t[j - 1] = t[j] + n[j] m` for `j` in `1..len` (`len` a positive multiple of 4), after
/// `t[0] + n[0] m` (whose low limb is zero, by the choice of `m`) has only passed on its
/// carries; returns the limb carried out of position `len - 1`.
#[inline]
fn row_add_shift(t: &mut [u64], n: &[u64], m: u64, _tok: Adx) -> u64 {
    let len = t.len();
    assert!(n.len() >= len && len > 0 && len.is_multiple_of(4));
    let carry: u64;
    // SAFETY: as in `row_add`: `len` limbs of `n` and `t` are read, `t[0..len - 1]`
    // written.
    unsafe {
        asm!(
            "xor {h3:e}, {h3:e}",
            "mulx {h0}, {lo}, qword ptr [{n}]",
            "adcx {lo}, qword ptr [{t}]",
            "mulx {h1}, {lo}, qword ptr [{n} + 8]",
            "adox {lo}, {h0}",
            "adcx {lo}, qword ptr [{t} + 8]",
            "mov qword ptr [{t}], {lo}",
            "mulx {h2}, {lo}, qword ptr [{n} + 16]",
            "adox {lo}, {h1}",
            "adcx {lo}, qword ptr [{t} + 16]",
            "mov qword ptr [{t} + 8], {lo}",
            "mulx {h3}, {lo}, qword ptr [{n} + 24]",
            "adox {lo}, {h2}",
            "adcx {lo}, qword ptr [{t} + 24]",
            "mov qword ptr [{t} + 16], {lo}",
            "lea {n}, [{n} + 32]",
            "lea {t}, [{t} + 32]",
            "2:",
            "jrcxz 3f",
            "mulx {h0}, {lo}, qword ptr [{n}]",
            "adox {lo}, {h3}",
            "adcx {lo}, qword ptr [{t}]",
            "mov qword ptr [{t} - 8], {lo}",
            "mulx {h1}, {lo}, qword ptr [{n} + 8]",
            "adox {lo}, {h0}",
            "adcx {lo}, qword ptr [{t} + 8]",
            "mov qword ptr [{t}], {lo}",
            "mulx {h2}, {lo}, qword ptr [{n} + 16]",
            "adox {lo}, {h1}",
            "adcx {lo}, qword ptr [{t} + 16]",
            "mov qword ptr [{t} + 8], {lo}",
            "mulx {h3}, {lo}, qword ptr [{n} + 24]",
            "adox {lo}, {h2}",
            "adcx {lo}, qword ptr [{t} + 24]",
            "mov qword ptr [{t} + 16], {lo}",
            "lea {n}, [{n} + 32]",
            "lea {t}, [{t} + 32]",
            "lea rcx, [rcx + 4]",
            "jmp 2b",
            "3:",
            "mov {lo:e}, 0",
            "adcx {h3}, {lo}",
            "adox {h3}, {lo}",
            n = inout(reg) n.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            h3 = out(reg) carry,
            lo = out(reg) _,
            h0 = out(reg) _,
            h1 = out(reg) _,
            h2 = out(reg) _,
            inout("rcx") (len as isize - 4).wrapping_neg() => _,
            in("rdx") m,
            options(nostack),
        );
    }
    carry
}

/// `r = a b 2^(-64 L) mod n` (`a < 2^(64 L)`, `b < n`), fully reduced, as `soft::mont_mul`.
///
/// The row loops take four limbs a turn; other widths run the portable kernel.
pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64, tok: Adx) {
    let l = n.len();
    if !l.is_multiple_of(4) {
        return super::soft::mont_mul(r, a, b, n, n0);
    }
    assert!(l <= MAX_LIMBS && a.len() == l && b.len() == l && r.len() == l);
    let mut buf = [0u64; MAX_LIMBS + 2];
    let t = &mut buf[..l + 2];
    for &bi in b {
        let c = row_add(&mut t[..l], a, bi, tok);
        let (s, c2) = super::limbs::adc(t[l], c, 0);
        t[l] = s;
        t[l + 1] = c2;
        let m = t[0].wrapping_mul(n0);
        let c = row_add_shift(&mut t[..l], n, m, tok);
        // position l (pre-shift) gets the carry, then everything moves down one limb.
        let (s, c2) = super::limbs::adc(t[l], c, 0);
        t[l - 1] = s;
        t[l] = t[l + 1] + c2;
    }
    super::soft::final_sub(r, &t[..l], t[l], n);
    zeroize::Zeroize::zeroize(t);
}
