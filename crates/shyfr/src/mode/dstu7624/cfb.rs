//! DSTU 7624:2014 CFB with a segment of `q` bytes (`1 <= q <= b`), streaming.
//!
//! `G_1 = E(IV)`; segment `i` is `C_i = P_i XOR (last q bytes of G_i)`; the next register
//! is `G_i` with its last `q` bytes replaced by `C_i`, and `G_{i+1} = E(register)`. A final
//! segment of `r < q` bytes uses the *last* `r` bytes of `G`. For `q < b` this is not NIST
//! CFB (which takes the first bytes and shifts); for `q = b` the two agree, and whole
//! blocks run through the cipher's CFB kernels.
//!
//! Because a short segment takes other keystream bytes than the start of a whole one, the
//! stream is cut at segments: [`Cfb::encrypt`] / [`Cfb::decrypt`] take any number of whole
//! segments plus, in the last call only, a short one; a call after a short segment is
//! [`Error::InvalidParameter`].
//!
//! ```
//! use shyfr::kalyna::Kalyna256_256;
//! use shyfr::mode::dstu7624::cfb::Cfb;
//! let k = Kalyna256_256::new(&[3; 32]);
//! let mut msg = *b"feedback of eight-byte segments, and a tail";
//! Cfb::new(&k, &[4; 32], 8).unwrap().encrypt(&mut msg).unwrap();
//! Cfb::new(&k, &[4; 32], 8).unwrap().decrypt(&mut msg).unwrap();
//! assert_eq!(&msg, b"feedback of eight-byte segments, and a tail");
//! ```

use super::Dstu7624Cipher;
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::mode::{load_iv, Buf};
use crate::Error;

/// DSTU 7624 CFB state for one IV and segment length.
pub struct Cfb<C: Dstu7624Cipher> {
    cipher: C,
    /// Full blocks (`q = b`): the last ciphertext block (or the IV) not yet encrypted.
    /// Shorter segments: `G_i`, the encrypted register.
    reg: Buf,
    q: usize,
    /// Whether `reg` already holds `E(IV)` (short segments only).
    started: bool,
    /// A short final segment was processed.
    done: bool,
}

impl<C: Dstu7624Cipher> Cfb<C> {
    /// CFB over `iv` (one block) with `q`-byte segments, `1 <= q <= b`.
    pub fn new(cipher: C, iv: &[u8], q: usize) -> Result<Self, Error> {
        let reg = load_iv::<C>(iv)?;
        if q == 0 || q > C::BLOCK_LEN {
            return Err(Error::InvalidParameter {
                what: "cfb segment length (1 to the block length)",
            });
        }
        Ok(Cfb {
            cipher,
            reg,
            q,
            started: false,
            done: false,
        })
    }

    fn run(&mut self, mut data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let (b, q) = (C::BLOCK_LEN, self.q);
        if data.is_empty() {
            return Ok(());
        }
        if self.done {
            return Err(Error::InvalidParameter {
                what: "cfb data after a short final segment",
            });
        }
        let whole = data.len() / q * q;
        let (mut mid, mut tail) = data.reborrow().split_at(whole);
        if q == b {
            // NIST full-block CFB; the register holds the last ciphertext block (the IV).
            if whole > 0 {
                let iv = &mut self.reg[..b];
                if dec {
                    cfb_decrypt(&self.cipher, iv, mid.reborrow())?;
                } else {
                    self.cipher.cfb_encrypt_blocks(iv, mid.reborrow())?;
                }
            }
            if !tail.is_empty() {
                let mut g = self.reg;
                self.cipher.encrypt_blocks(&mut g[..b])?;
                let r = tail.len();
                tail.xor_at(0, &g[b - r..b]);
                crate::wipe::wipe(&mut g);
                self.done = true;
            }
            return Ok(());
        }
        if !self.started {
            self.cipher.encrypt_blocks(&mut self.reg[..b])?;
            self.started = true;
        }
        let mut off = 0;
        let mut seg = [0u8; MAX_BLOCK_LEN];
        while off < whole {
            let c = &mut seg[..q];
            c.copy_from_slice(&mid.input()[off..off + q]);
            let ct_in = dec;
            let mut cipher_seg = [0u8; MAX_BLOCK_LEN];
            if ct_in {
                cipher_seg[..q].copy_from_slice(c);
            }
            for (x, g) in c.iter_mut().zip(&self.reg[b - q..b]) {
                *x ^= g;
            }
            if !ct_in {
                cipher_seg[..q].copy_from_slice(c);
            }
            mid.write_at(off, c);
            self.reg[b - q..b].copy_from_slice(&cipher_seg[..q]);
            self.cipher.encrypt_blocks(&mut self.reg[..b])?;
            off += q;
        }
        crate::wipe::wipe(&mut seg);
        if !tail.is_empty() {
            let r = tail.len();
            tail.xor_at(0, &self.reg[b - r..b]);
            self.done = true;
        }
        Ok(())
    }

    /// Encrypts `buf` in place (whole segments, and a short one only in the last call).
    pub fn encrypt(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::in_place(buf), false)
    }

    /// Decrypts `buf` in place (whole segments, and a short one only in the last call).
    pub fn decrypt(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::in_place(buf), true)
    }

    /// Encrypts `input` into `output` (same length).
    pub fn encrypt_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::new(input, output)?, false)
    }

    /// Decrypts `input` into `output` (same length).
    pub fn decrypt_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.run(InOutBuf::new(input, output)?, true)
    }
}

/// Full-block CFB decryption, whole blocks: the keystream of every block is the encryption
/// of the ciphertext before it, so batches of blocks go through the cipher at once.
fn cfb_decrypt<C: Dstu7624Cipher>(
    c: &C,
    iv: &mut [u8],
    mut data: InOutBuf<'_>,
) -> Result<(), Error> {
    let b = C::BLOCK_LEN;
    let mut ks = [0u8; 4096];
    let chunk = 4096 / b * b;
    let mut off = 0;
    while off < data.len() {
        let n = chunk.min(data.len() - off);
        ks[..b].copy_from_slice(iv);
        ks[b..n].copy_from_slice(&data.input()[off..off + n - b]);
        iv.copy_from_slice(&data.input()[off + n - b..off + n]);
        c.encrypt_blocks(&mut ks[..n])?;
        data.xor_at(off, &ks[..n]);
        off += n;
    }
    crate::wipe::wipe(&mut ks);
    Ok(())
}

impl<C: Dstu7624Cipher> Drop for Cfb<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.reg);
    }
}
