//! CFB (NIST SP 800-38A, 6.3) with 1-bit, 8-bit and full-block segments, streaming.
//!
//! * [`Segment::Block`] (CFB-128 for AES): decryption is parallel (fused kernels),
//!   encryption serial. A message need not be whole blocks: the last segment is cut
//!   short, as every common implementation does, and calls may split the data anywhere.
//! * [`Segment::Byte`] (CFB-8) and [`Segment::Bit`] (CFB-1) run one block encryption per
//!   segment. CFB-1 data is bits, most significant bit of each byte first;
//!   [`CfbEncryptor::update_bits`] takes a bit count that need not be a multiple of 8.
//!
//! ```
//! use shyfr::mode::cfb::{CfbDecryptor, CfbEncryptor, Segment};
//! use shyfr::Aes128;
//! let aes = Aes128::new(&[1; 16]);
//! let mut msg = *b"cipher feedback";
//! CfbEncryptor::with_segment(&aes, &[3; 16], Segment::Byte).unwrap().update(&mut msg).unwrap();
//! let mut dec = CfbDecryptor::with_segment(&aes, &[3; 16], Segment::Byte).unwrap();
//! dec.update(&mut msg[..4]).unwrap();
//! dec.update(&mut msg[4..]).unwrap();
//! assert_eq!(&msg, b"cipher feedback");
//! ```

use super::{load_iv, BlockModes, Buf};
use crate::block::{InOutBuf, MAX_BLOCK_LEN};
use crate::Error;

/// The CFB segment size `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// CFB-1: one bit per block encryption.
    Bit,
    /// CFB-8: one byte per block encryption.
    Byte,
    /// Full-block CFB (CFB-128 for AES, CFB-64 for 64-bit ciphers).
    Block,
}

/// The state both directions share.
struct State<C: BlockModes> {
    cipher: C,
    /// The feedback register (the IV before the first segment).
    reg: Buf,
    /// Full-block segments: keystream of the block in progress, used up to `pos`.
    ks: Buf,
    /// Full-block segments: ciphertext of the block in progress, up to `pos`.
    cur: Buf,
    pos: usize,
    seg: Segment,
}

impl<C: BlockModes> State<C> {
    fn new(cipher: C, iv: &[u8], seg: Segment) -> Result<Self, Error> {
        Ok(State {
            reg: load_iv::<C>(iv)?,
            cipher,
            ks: [0; MAX_BLOCK_LEN],
            cur: [0; MAX_BLOCK_LEN],
            pos: C::BLOCK_LEN,
            seg,
        })
    }

    /// `E(reg)` into `out`.
    fn encrypt_reg(&self, out: &mut Buf) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        out[..b].copy_from_slice(&self.reg[..b]);
        self.cipher.encrypt_blocks(&mut out[..b])
    }

    /// Uses up to the rest of the current block's keystream on the start of `data`;
    /// returns how many bytes it took.
    fn partial(&mut self, data: &mut InOutBuf<'_>, dec: bool) -> usize {
        let b = C::BLOCK_LEN;
        let n = (b - self.pos).min(data.len());
        let mut out = [0u8; MAX_BLOCK_LEN];
        for (j, (o, &i)) in out[..n].iter_mut().zip(&data.input()[..n]).enumerate() {
            *o = i ^ self.ks[self.pos + j];
            self.cur[self.pos + j] = if dec { i } else { *o };
        }
        data.write_at(0, &out[..n]);
        crate::wipe::wipe(&mut out[..n]);
        self.pos += n;
        if n > 0 && self.pos == b {
            self.reg = self.cur;
        }
        n
    }

    fn process(&mut self, mut data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        let b = C::BLOCK_LEN;
        match self.seg {
            Segment::Block => {
                let head = self.partial(&mut data, dec);
                let (_, rest) = data.split_at(head);
                let whole = (rest.len() / b) * b;
                let (mid, mut tail) = rest.split_at(whole);
                let reg = &mut self.reg[..b];
                if dec {
                    self.cipher.cfb_decrypt_blocks(reg, mid)?;
                } else {
                    self.cipher.cfb_encrypt_blocks(reg, mid)?;
                }
                if !tail.is_empty() {
                    let mut ks = [0u8; MAX_BLOCK_LEN];
                    self.encrypt_reg(&mut ks)?;
                    self.ks = ks;
                    crate::wipe::wipe(&mut ks[..b]);
                    self.pos = 0;
                    self.partial(&mut tail, dec);
                }
                Ok(())
            }
            Segment::Byte => {
                let mut ks = [0u8; MAX_BLOCK_LEN];
                for j in 0..data.len() {
                    self.encrypt_reg(&mut ks)?;
                    let i = data.input()[j];
                    let o = i ^ ks[0];
                    data.write_at(j, &[o]);
                    self.reg.copy_within(1..b, 0);
                    self.reg[b - 1] = if dec { i } else { o };
                }
                crate::wipe::wipe(&mut ks[..b]);
                Ok(())
            }
            Segment::Bit => {
                let bits = 8 * data.len();
                self.bits(data, bits, dec)
            }
        }
    }

    /// CFB-1 on the first `bits` bits of `data` (most significant bit first).
    fn bits(&mut self, mut data: InOutBuf<'_>, bits: usize, dec: bool) -> Result<(), Error> {
        if self.seg != Segment::Bit {
            return Err(Error::InvalidParameter {
                what: "cfb bit-level call needs Segment::Bit",
            });
        }
        if bits > 8 * data.len() {
            return Err(Error::TooShort {
                what: "cfb-1 buffer for the bit count",
            });
        }
        let b = C::BLOCK_LEN;
        let mut ks = [0u8; MAX_BLOCK_LEN];
        let nbytes = bits.div_ceil(8);
        for j in 0..nbytes {
            let i = data.input()[j];
            let mut o = i;
            for k in 0..(bits - 8 * j).min(8) {
                self.encrypt_reg(&mut ks)?;
                let sh = 7 - k;
                let ib = (i >> sh) & 1;
                let ob = ib ^ (ks[0] >> 7);
                o ^= (ks[0] >> 7) << sh;
                let fb = if dec { ib } else { ob };
                // reg = (reg << 1) | fb over the whole block, big-endian.
                for t in 0..b - 1 {
                    self.reg[t] = (self.reg[t] << 1) | (self.reg[t + 1] >> 7);
                }
                self.reg[b - 1] = (self.reg[b - 1] << 1) | fb;
            }
            data.write_at(j, &[o]);
        }
        crate::wipe::wipe(&mut ks[..b]);
        Ok(())
    }
}

impl<C: BlockModes> Drop for State<C> {
    fn drop(&mut self) {
        // The keystream; the register and `cur` hold ciphertext, which is not secret.
        crate::wipe::wipe(&mut self.ks[..C::BLOCK_LEN]);
    }
}

macro_rules! cfb_direction {
    ($(#[$m:meta])* $name:ident, $dec:expr, $verb:literal) => {
        $(#[$m])*
        pub struct $name<C: BlockModes>(State<C>);

        impl<C: BlockModes> $name<C> {
            /// IV length in bytes: one block.
            pub const IV_LEN: usize = C::BLOCK_LEN;

            /// Full-block CFB from a one-block `iv`.
            pub fn new(cipher: C, iv: &[u8]) -> Result<Self, Error> {
                Self::with_segment(cipher, iv, Segment::Block)
            }

            /// CFB with the given segment size from a one-block `iv`.
            pub fn with_segment(cipher: C, iv: &[u8], seg: Segment) -> Result<Self, Error> {
                State::new(cipher, iv, seg).map($name)
            }

            #[doc = concat!("Continues the stream: ", $verb, " `buf` in place.")]
            pub fn update(&mut self, buf: &mut [u8]) -> Result<(), Error> {
                self.0.process(InOutBuf::in_place(buf), $dec)
            }

            #[doc = concat!("Continues the stream: ", $verb, " `input` into `output` (same length).")]
            pub fn update_to(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
                self.0.process(InOutBuf::new(input, output)?, $dec)
            }

            /// CFB-1 only: processes the first `bits` bits of `buf` (most significant bit
            /// of each byte first) in place; the other bits of the last byte are kept.
            pub fn update_bits(&mut self, buf: &mut [u8], bits: usize) -> Result<(), Error> {
                self.0.bits(InOutBuf::in_place(buf), bits, $dec)
            }
        }
    };
}

cfb_direction!(
    /// Streaming CFB encryption of one message.
    CfbEncryptor,
    false,
    "encrypts"
);
cfb_direction!(
    /// Streaming CFB decryption of one message.
    CfbDecryptor,
    true,
    "decrypts"
);
