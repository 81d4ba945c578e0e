//! The modes of GOST 28147-89 that differ from their NIST namesakes: gamma (counter mode
//! with the standard's constants), gamma with feedback (64-bit CFB, here with GOST's own
//! bulk kernels) and the MAC ("imitovstavka", a 16-round CBC-MAC). Simple replacement is
//! ECB: [`Gost28147::encrypt_blocks`]; the NIST modes of [`crate::mode`] (CBC, OFB, CTR,
//! CMAC...) also work over [`Gost28147`] through [`crate::BlockCipher`].
//!
//! | mode | type | GOST 28147-89 | bulk path |
//! |------|------|---------------|-----------|
//! | gamma (гамування) | [`Gamma`] | section 3 | every backend's wide kernel, counters made in registers |
//! | gamma with feedback (гамування зі зворотним зв'язком) | [`GammaFeedbackEncryptor`], [`GammaFeedbackDecryptor`] | section 4 | decryption wide, encryption one block at a time |
//! | MAC (імітовставка) | [`Mac`] | section 5 | one block at a time (16 rounds) |
//!
//! All of them stream: any split of the input across calls gives the same result as one
//! call, and a message need not be whole blocks.
//!
//! Conventions (as in BouncyCastle, UAPKI/cryptonite, gost89 and Crypto++, which the
//! test vectors come from): blocks are `N1 || N2`, each half little-endian.
//!
//! ```
//! use shyfr::gost28147::{Gost28147, Sbox};
//! use shyfr::mode::gost28147::{Gamma, GammaFeedbackDecryptor, GammaFeedbackEncryptor, Mac};
//! let c = Gost28147::with_sbox(&[1; 32], &Sbox::DKE1);
//! let iv = [2u8; 8];
//! let mut msg = *b"gamma with feedback, any length";
//! GammaFeedbackEncryptor::new(&c, &iv).unwrap().update(&mut msg);
//! let mut dec = GammaFeedbackDecryptor::new(&c, &iv).unwrap();
//! dec.update(&mut msg[..5]);
//! dec.update(&mut msg[5..]);
//! assert_eq!(&msg, b"gamma with feedback, any length");
//!
//! let mut g = Gamma::new(&c, &iv).unwrap();
//! g.apply_keystream(&mut msg);
//! let tag = Mac::mac(&c, &msg);
//! assert!(Mac::new(&c).chain(&msg).verify(&tag).is_ok());
//! assert!(Mac::new(&c).chain(&msg).verify(&tag[..1]).is_ok()); // truncated to 8 bits
//! ```

#![forbid(unsafe_code)]

use core::borrow::Borrow;

use crate::block::gost28147::{Block, Gost28147, BLOCK_LEN};
use crate::block::{check_iv, InOutBuf};
use crate::ct::ct_eq;
use crate::inout::InOut;
use crate::Error;

/// The IV ("синхропосилка") of gamma and gamma with feedback: one block.
pub const IV_LEN: usize = BLOCK_LEN;
/// The full MAC length in bytes (32 bits); [`Mac`] also gives and checks prefixes of it.
pub const MAC_LEN: usize = 4;

fn load_iv(iv: &[u8]) -> Result<Block, Error> {
    check_iv(iv.len(), BLOCK_LEN)?;
    Ok(iv.try_into().expect("length checked"))
}

fn words(b: &Block) -> [u32; 2] {
    [
        u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
    ]
}

// ---- gamma ------------------------------------------------------------------------------

/// Gamma (GOST 28147-89, section 3; "counter mode"): the IV is encrypted once into
/// `(N3, N4)`; before each block `N3 += C2 (0x01010101) mod 2^32` and
/// `N4 += C1 (0x01010104) mod 2^32 - 1`, and `E(N3 || N4)` is XORed into the data.
/// Encryption and decryption are the same operation.
///
/// The addition modulo 2^32 - 1 is the standard's: the sum plus one whenever it reaches
/// 2^32. (BouncyCastle's `GOFBBlockCipher` differs in one case, a sum of exactly 2^32,
/// which it leaves at 0; every test vector agrees with both.) The counter pair has period
/// 2^32 (2^32 - 1), far beyond any message.
///
/// The whole blocks of a call run on the backend's wide kernel with the counters made in
/// registers; a partial block at the end of a call leaves the rest of its keystream for
/// the next call.
pub struct Gamma<C: Borrow<Gost28147>> {
    cipher: C,
    ctr: [u32; 2],
    ks: Block,
    pos: usize,
}

impl<C: Borrow<Gost28147>> Gamma<C> {
    /// Gamma from an 8-byte `iv`; [`Error::InvalidNonceLength`] for any other length.
    pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        let mut s = load_iv(iv)?;
        cipher.borrow().encrypt_block(&mut s);
        let ctr = words(&s);
        crate::wipe::wipe(&mut s);
        Ok(Gamma {
            cipher,
            ctr,
            ks: [0; BLOCK_LEN],
            pos: BLOCK_LEN,
        })
    }

    /// XORs the keystream into `buf` (encrypts or decrypts in place).
    pub fn apply_keystream(&mut self, buf: &mut [u8]) {
        self.process(InOutBuf::in_place(buf));
    }

    /// XORs the keystream into `input`, writing `output` (equal lengths, else
    /// [`Error::LengthMismatch`]).
    pub fn apply_keystream_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        self.process(InOutBuf::new(input, output)?);
        Ok(())
    }

    fn process(&mut self, mut data: InOutBuf<'_>) {
        // The rest of the current block's keystream.
        let n = (BLOCK_LEN - self.pos).min(data.len());
        data.xor_at(0, &self.ks[self.pos..self.pos + n]);
        self.pos += n;
        let (_, rest) = data.split_at(n);
        let whole = rest.len() - rest.len() % BLOCK_LEN;
        let (mut mid, mut tail) = rest.split_at(whole);
        self.cipher
            .borrow()
            .gamma_blocks(&mut self.ctr, mid.inout());
        if !tail.is_empty() {
            self.ks = [0; BLOCK_LEN];
            self.cipher
                .borrow()
                .gamma_blocks(&mut self.ctr, InOut::in_place(&mut self.ks));
            tail.xor_at(0, &self.ks[..tail.len()]);
            self.pos = tail.len();
        }
    }
}

impl<C: Borrow<Gost28147>> Drop for Gamma<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ks);
        zeroize::Zeroize::zeroize(&mut self.ctr);
    }
}

// ---- gamma with feedback ----------------------------------------------------------------

/// The state both directions of gamma with feedback share.
struct Feedback<C: Borrow<Gost28147>> {
    cipher: C,
    /// The feedback register: the IV, then the last ciphertext block.
    reg: Block,
    /// Keystream of the block in progress, used up to `pos`.
    ks: Block,
    /// Ciphertext of the block in progress, up to `pos`.
    cur: Block,
    pos: usize,
}

impl<C: Borrow<Gost28147>> Feedback<C> {
    fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
        Ok(Feedback {
            reg: load_iv(iv)?,
            cipher,
            ks: [0; BLOCK_LEN],
            cur: [0; BLOCK_LEN],
            pos: BLOCK_LEN,
        })
    }

    /// Uses up to the rest of the current block's keystream; returns the bytes taken.
    fn partial(&mut self, data: &mut InOutBuf<'_>, dec: bool) -> usize {
        let n = (BLOCK_LEN - self.pos).min(data.len());
        let mut out = [0u8; BLOCK_LEN];
        for (j, (o, &i)) in out[..n].iter_mut().zip(&data.input()[..n]).enumerate() {
            *o = i ^ self.ks[self.pos + j];
            self.cur[self.pos + j] = if dec { i } else { *o };
        }
        data.write_at(0, &out[..n]);
        crate::wipe::wipe(&mut out);
        self.pos += n;
        if n > 0 && self.pos == BLOCK_LEN {
            self.reg = self.cur;
        }
        n
    }

    fn process(&mut self, mut data: InOutBuf<'_>, dec: bool) {
        let head = self.partial(&mut data, dec);
        let (_, rest) = data.split_at(head);
        let whole = rest.len() - rest.len() % BLOCK_LEN;
        let (mut mid, mut tail) = rest.split_at(whole);
        let c = self.cipher.borrow();
        if dec {
            c.cfb_decrypt_blocks(&mut self.reg, mid.inout());
        } else {
            c.cfb_encrypt_blocks(&mut self.reg, mid.inout());
        }
        if !tail.is_empty() {
            self.ks = self.reg;
            c.encrypt_block(&mut self.ks);
            self.pos = 0;
            self.partial(&mut tail, dec);
        }
    }
}

impl<C: Borrow<Gost28147>> Drop for Feedback<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.ks);
        crate::wipe::wipe(&mut self.cur);
    }
}

macro_rules! feedback {
    ($(#[$m:meta])* $name:ident, $dec:expr) => {
        $(#[$m])*
        pub struct $name<C: Borrow<Gost28147>>(Feedback<C>);

        impl<C: Borrow<Gost28147>> $name<C> {
            /// Starts from an 8-byte `iv`; [`Error::InvalidNonceLength`] for any other
            /// length.
            pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
                Feedback::new(cipher, iv).map($name)
            }

            /// Processes `buf` in place (any length; calls may split the data anywhere).
            pub fn update(&mut self, buf: &mut [u8]) {
                self.0.process(InOutBuf::in_place(buf), $dec);
            }

            /// Processes `input` into `output` (equal lengths, else
            /// [`Error::LengthMismatch`]).
            pub fn update_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.process(InOutBuf::new(input, output)?, $dec);
                Ok(())
            }
        }
    };
}

feedback!(
    /// Gamma-with-feedback encryption (GOST 28147-89, section 4; 64-bit CFB):
    /// `C_i = P_i ^ E(C_{i-1})`, `C_0` the IV. Serial: each block needs the previous
    /// ciphertext. A short last block uses the start of its keystream.
    GammaFeedbackEncryptor,
    false
);
feedback!(
    /// Gamma-with-feedback decryption (GOST 28147-89, section 4): `P_i = C_i ^ E(C_{i-1})`.
    /// Every `E(C_{i-1})` is known from the ciphertext, so whole blocks run on the
    /// backend's wide kernel like ECB.
    GammaFeedbackDecryptor,
    true
);

// ---- MAC --------------------------------------------------------------------------------

/// The GOST 28147-89 MAC ("imitovstavka", section 5): `S = F16(S ^ M_i)` over the
/// message blocks from `S = 0`, where `F16` is the first 16 rounds of encryption (key words
/// `K0..K7` twice, every round swapping the halves); a short last block is padded with
/// zero bytes, and an empty message is one zero block. The MAC is the low `l` bits of
/// `N1`: [`finalize`](Self::finalize) gives all 32 (4 bytes, `N1` little-endian), and
/// [`finalize_truncated`](Self::finalize_truncated) / [`verify`](Self::verify) take
/// 1 to 4 bytes, the first bytes of it (the standard's lowest bits; BouncyCastle's
/// `GOST28147Mac` gives the *high* bytes of `N1` when asked for fewer than four).
///
/// As in BouncyCastle and UAPKI/cryptonite (which the test vector comes from), a
/// one-block message is not extended with a zero block, and there is no IV.
pub struct Mac<C: Borrow<Gost28147>> {
    cipher: C,
    state: Block,
    buf: Block,
    buffered: usize,
    total: u64,
}

impl<C: Borrow<Gost28147>> Mac<C> {
    /// A fresh MAC computation under `cipher`'s key and S-box.
    pub fn new(cipher: C) -> Self {
        Mac {
            cipher,
            state: [0; BLOCK_LEN],
            buf: [0; BLOCK_LEN],
            buffered: 0,
            total: 0,
        }
    }

    /// Absorbs `data`.
    pub fn update(&mut self, mut data: &[u8]) {
        self.total = self.total.wrapping_add(data.len() as u64);
        if self.buffered > 0 {
            let n = (BLOCK_LEN - self.buffered).min(data.len());
            self.buf[self.buffered..self.buffered + n].copy_from_slice(&data[..n]);
            self.buffered += n;
            data = &data[n..];
            if self.buffered < BLOCK_LEN {
                return;
            }
            let b = self.buf;
            self.cipher.borrow().mac_blocks(&mut self.state, &b);
            self.buffered = 0;
        }
        let whole = data.len() - data.len() % BLOCK_LEN;
        self.cipher
            .borrow()
            .mac_blocks(&mut self.state, &data[..whole]);
        let rest = &data[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
    }

    /// [`update`](Self::update), by value (for one-line use).
    pub fn chain(mut self, data: &[u8]) -> Self {
        self.update(data);
        self
    }

    /// Finishes and returns the 32-bit MAC.
    pub fn finalize(mut self) -> [u8; MAC_LEN] {
        if self.buffered > 0 || self.total == 0 {
            self.buf[self.buffered..].fill(0);
            let b = self.buf;
            self.cipher.borrow().mac_blocks(&mut self.state, &b);
        }
        let mut out = [0u8; MAC_LEN];
        out.copy_from_slice(&self.state[..MAC_LEN]);
        out
    }

    /// Finishes and writes the first `out.len()` bytes of the MAC; `out` must be 1 to 4
    /// bytes ([`Error::InvalidTagLength`] otherwise, and nothing is written).
    pub fn finalize_truncated(self, out: &mut [u8]) -> Result<(), Error> {
        if out.is_empty() || out.len() > MAC_LEN {
            return Err(Error::InvalidTagLength { got: out.len() });
        }
        let t = self.finalize();
        out.copy_from_slice(&t[..out.len()]);
        Ok(())
    }

    /// Finishes and compares the first `tag.len()` bytes of the MAC with `tag` in
    /// constant time; `tag` must be 1 to 4 bytes ([`Error::InvalidTagLength`]), a
    /// mismatch is [`Error::AuthenticationFailed`].
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        if tag.is_empty() || tag.len() > MAC_LEN {
            return Err(Error::InvalidTagLength { got: tag.len() });
        }
        let t = self.finalize();
        if ct_eq(&t[..tag.len()], tag) {
            Ok(())
        } else {
            Err(Error::AuthenticationFailed)
        }
    }

    /// One-shot MAC of `data`.
    pub fn mac(cipher: C, data: &[u8]) -> [u8; MAC_LEN] {
        Mac::new(cipher).chain(data).finalize()
    }
}

impl<C: Borrow<Gost28147>> Drop for Mac<C> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
        crate::wipe::wipe(&mut self.buf);
    }
}
