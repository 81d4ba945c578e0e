//! Portable, constant-time GOST 28147-89.
//!
//! Each S-box row `K(k+1)` (sixteen 4-bit entries) lives in one 64-bit integer; the entry
//! for nibble `v` is `(row >> 4v) & 15`, a shift by a data-dependent amount instead of a
//! memory load at a data-dependent address. Shifts take the same time for every amount on
//! every CPU with a barrel shifter (all x86-64 and aarch64 cores), so nothing here depends
//! on secret data in its timing. Four blocks go through the rounds side by side so that
//! their independent look-ups overlap.
#![forbid(unsafe_code)]

use super::{gamma_step, Block, Tables, BLOCK_LEN};
use crate::inout::InOut;

/// The round function: S-boxes on the eight nibbles of `x`, then a left rotation by 11.
#[inline(always)]
fn f(x: u32, rows: &[u64; 8]) -> u32 {
    let mut y = 0u32;
    for (k, &row) in rows.iter().enumerate() {
        // 4 * (nibble k of x): the shift that brings its entry to the bottom.
        let sh = (x >> (4 * k)).wrapping_shl(2) & 0x3c;
        y |= ((row.wrapping_shr(sh) & 15) as u32) << (4 * k);
    }
    y.rotate_left(11)
}

/// `N` blocks (`[N1, N2]`), 32 rounds with the round key of round `r` for lane `l` from
/// `key(r, l)`; the result in output order.
#[inline(always)]
fn rounds<const N: usize>(
    x: &mut [[u32; 2]; N],
    rows: &[u64; 8],
    nrounds: usize,
    key: impl Fn(usize, usize) -> u32,
) {
    let mut a = [0u32; N];
    let mut b = [0u32; N];
    for l in 0..N {
        a[l] = x[l][0];
        b[l] = x[l][1];
    }
    for r in 0..nrounds {
        for l in 0..N {
            let t = b[l] ^ f(a[l].wrapping_add(key(r, l)), rows);
            b[l] = a[l];
            a[l] = t;
        }
    }
    for l in 0..N {
        x[l] = [a[l], b[l]];
    }
}

/// 32-round encryption (or decryption, with the keys in decryption order) of `N` blocks.
#[inline(always)]
fn crypt<const N: usize>(rk: &[u32; 32], rows: &[u64; 8], x: &mut [[u32; 2]; N]) {
    rounds(x, rows, 32, |r, _| rk[r]);
    // The last round does not swap the halves.
    for v in x.iter_mut() {
        v.swap(0, 1);
    }
}

#[inline(always)]
fn load(b: &[u8; 8]) -> [u32; 2] {
    [
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
    ]
}

#[inline(always)]
fn store(v: [u32; 2]) -> [u8; 8] {
    let mut o = [0u8; 8];
    o[..4].copy_from_slice(&v[0].to_le_bytes());
    o[4..].copy_from_slice(&v[1].to_le_bytes());
    o
}

/// One block with 32 rounds.
#[inline]
pub(super) fn encrypt_block(rk: &[u32; 32], t: &Tables, b: &Block) -> Block {
    let mut x = [load(b)];
    crypt(rk, &t.rows, &mut x);
    store(x[0])
}

/// ECB on whole blocks.
pub(super) fn ecb(rk: &[u32; 32], t: &Tables, mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while i + 4 <= n {
        let mut x = [[0u32; 2]; 4];
        for (l, v) in x.iter_mut().enumerate() {
            *v = load(&io.read::<8>(8 * (i + l)));
        }
        crypt(rk, &t.rows, &mut x);
        for (l, v) in x.iter().enumerate() {
            io.write(8 * (i + l), &store(*v));
        }
        i += 4;
    }
    while i < n {
        let o = encrypt_block(rk, t, &io.read::<8>(8 * i));
        io.write(8 * i, &o);
        i += 1;
    }
}

/// Gamma on whole blocks (see `Engine::gamma`).
pub(super) fn gamma(rk: &[u32; 32], t: &Tables, ctr: &mut [u32; 2], mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while i < n {
        let m = (n - i).min(4);
        let mut x = [[0u32; 2]; 4];
        for v in x.iter_mut().take(m) {
            *ctr = gamma_step(*ctr);
            *v = *ctr;
        }
        crypt(rk, &t.rows, &mut x);
        for (l, v) in x.iter().enumerate().take(m) {
            let ks = store(*v);
            let d = io.read::<8>(8 * (i + l));
            io.write(8 * (i + l), &xor8(&d, &ks));
        }
        i += m;
    }
}

#[inline(always)]
fn xor8(a: &[u8; 8], b: &[u8; 8]) -> [u8; 8] {
    (u64::from_ne_bytes(*a) ^ u64::from_ne_bytes(*b)).to_ne_bytes()
}

/// Gamma-with-feedback decryption of whole blocks: `P_i = C_i ^ E(C_{i-1})`.
pub(super) fn cfb_decrypt(rk: &[u32; 32], t: &Tables, iv: &mut Block, mut io: InOut<'_>) {
    let n = io.len() / BLOCK_LEN;
    let mut i = 0;
    while i < n {
        let m = (n - i).min(4);
        let mut x = [[0u32; 2]; 4];
        let mut c = [[0u8; 8]; 4];
        for l in 0..m {
            c[l] = io.read::<8>(8 * (i + l));
            x[l] = load(if l == 0 { iv } else { &c[l - 1] });
        }
        crypt(rk, &t.rows, &mut x);
        for l in 0..m {
            io.write(8 * (i + l), &xor8(&c[l], &store(x[l])));
        }
        *iv = c[m - 1];
        i += m;
    }
}

/// Gamma-with-feedback encryption of whole blocks: `C_i = P_i ^ E(C_{i-1})`.
pub(super) fn cfb_encrypt(rk: &[u32; 32], t: &Tables, iv: &mut Block, mut io: InOut<'_>) {
    for i in 0..io.len() / BLOCK_LEN {
        let c = xor8(&io.read::<8>(8 * i), &encrypt_block(rk, t, iv));
        io.write(8 * i, &c);
        *iv = c;
    }
}

/// The MAC chain (GOST 28147-89, 5): `state = F16(state ^ block)`, where `F16` is the
/// first 16 rounds of encryption (keys `K0..K7` twice) with every round swapping.
pub(super) fn mac(rk: &[u32; 32], t: &Tables, state: &mut Block, data: &[u8]) {
    let mut s = load(state);
    for blk in data.chunks_exact(BLOCK_LEN) {
        let m = load(blk.try_into().expect("8 bytes"));
        let mut x = [[s[0] ^ m[0], s[1] ^ m[1]]];
        rounds(&mut x, &t.rows, 16, |r, _| rk[r]);
        s = x[0];
    }
    *state = store(s);
}

/// Four blocks under four keys (key words `K0..K7` each), 32 rounds.
pub(super) fn encrypt4(keys: &[[u32; 8]; 4], t: &Tables, blocks: &mut [[u32; 2]; 4]) {
    rounds(blocks, &t.rows, 32, |r, l| {
        let i = if r < 24 { r % 8 } else { 31 - r };
        keys[l][i]
    });
    for v in blocks.iter_mut() {
        v.swap(0, 1);
    }
}
