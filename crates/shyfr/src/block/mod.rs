//! Block ciphers: one folder per cipher, one file per backend.
//!
//! [`BlockCipher`] is the interface the modes of operation ([`crate::mode`]) are written
//! against. Besides the four raw multi-block calls it has *provided* methods, one per
//! mode-specific inner loop (CTR, CBC, CFB, OFB, XTS, CBC-MAC), each with a portable default
//! written in terms of [`BlockCipher::encrypt_blocks`] / [`BlockCipher::decrypt_blocks`].
//! A cipher with fused kernels (AES) overrides them; the mode files only ever call the
//! trait, so they never mention an instruction set.

pub mod aes;
pub mod kalyna;

use crate::Error;

/// The largest block length the provided methods support (Kalyna-512: 64 bytes).
pub const MAX_BLOCK_LEN: usize = 64;

/// Scratch size of the portable defaults: whole blocks of up to [`MAX_BLOCK_LEN`] bytes,
/// enough for eight 64-byte or thirty-two 16-byte blocks per call into the cipher.
const CHUNK: usize = 512;

/// Input and output of a bulk call: one buffer worked on in place, or an input buffer read
/// and an output buffer of the same length written.
///
/// Every provided method of [`BlockCipher`] takes one, so that each kernel serves both
/// forms of every API.
#[derive(Debug)]
pub struct InOutBuf<'a> {
    repr: Repr<'a>,
}

#[derive(Debug)]
enum Repr<'a> {
    InPlace(&'a mut [u8]),
    Split {
        input: &'a [u8],
        output: &'a mut [u8],
    },
}

impl<'a> InOutBuf<'a> {
    /// Work in place on `buf`.
    #[inline]
    pub fn in_place(buf: &'a mut [u8]) -> Self {
        InOutBuf {
            repr: Repr::InPlace(buf),
        }
    }

    /// Read `input`, write `output`; [`Error::LengthMismatch`] unless the lengths agree.
    #[inline]
    pub fn new(input: &'a [u8], output: &'a mut [u8]) -> Result<Self, Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        Ok(InOutBuf {
            repr: Repr::Split { input, output },
        })
    }

    /// Length in bytes (of the input and of the output).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::InPlace(b) => b.len(),
            Repr::Split { input, .. } => input.len(),
        }
    }

    /// Whether the length is zero.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The input bytes (for an in-place buffer: its current contents).
    #[inline]
    pub fn input(&self) -> &[u8] {
        match &self.repr {
            Repr::InPlace(b) => b,
            Repr::Split { input, .. } => input,
        }
    }

    /// A shorter-lived view of the same regions.
    #[inline]
    pub fn reborrow(&mut self) -> InOutBuf<'_> {
        match &mut self.repr {
            Repr::InPlace(b) => InOutBuf::in_place(b),
            Repr::Split { input, output } => InOutBuf {
                repr: Repr::Split { input, output },
            },
        }
    }

    /// Splits into `[0, mid)` and `[mid, len)`. Panics (a bug) if `mid > len()`.
    #[inline]
    pub fn split_at(self, mid: usize) -> (InOutBuf<'a>, InOutBuf<'a>) {
        match self.repr {
            Repr::InPlace(b) => {
                let (x, y) = b.split_at_mut(mid);
                (InOutBuf::in_place(x), InOutBuf::in_place(y))
            }
            Repr::Split { input, output } => {
                let (i0, i1) = input.split_at(mid);
                let (o0, o1) = output.split_at_mut(mid);
                (
                    InOutBuf {
                        repr: Repr::Split {
                            input: i0,
                            output: o0,
                        },
                    },
                    InOutBuf {
                        repr: Repr::Split {
                            input: i1,
                            output: o1,
                        },
                    },
                )
            }
        }
    }

    /// Copies the input to the output (nothing to do in place) and returns the output, for
    /// code that then works in place.
    #[inline]
    pub fn into_copied_output(self) -> &'a mut [u8] {
        match self.repr {
            Repr::InPlace(b) => b,
            Repr::Split { input, output } => {
                output.copy_from_slice(input);
                output
            }
        }
    }

    /// `output[off..off + x.len()] = input[off..off + x.len()] ^ x`.
    #[inline]
    pub fn xor_at(&mut self, off: usize, x: &[u8]) {
        match &mut self.repr {
            Repr::InPlace(b) => xor_in(&mut b[off..off + x.len()], x),
            Repr::Split { input, output } => {
                let (i, o) = (&input[off..off + x.len()], &mut output[off..off + x.len()]);
                for ((o, i), x) in o.iter_mut().zip(i).zip(x) {
                    *o = i ^ x;
                }
            }
        }
    }

    /// `output[off..off + x.len()] = x`.
    #[inline]
    pub fn write_at(&mut self, off: usize, x: &[u8]) {
        match &mut self.repr {
            Repr::InPlace(b) => b[off..off + x.len()].copy_from_slice(x),
            Repr::Split { output, .. } => output[off..off + x.len()].copy_from_slice(x),
        }
    }

    /// The crate's raw-pointer view, for backend kernels.
    #[inline]
    #[allow(dead_code)] // only targets with fused kernels use it
    pub(crate) fn inout(&mut self) -> crate::inout::InOut<'_> {
        match &mut self.repr {
            Repr::InPlace(b) => crate::inout::InOut::in_place(b),
            Repr::Split { input, output } => {
                crate::inout::InOut::new(input, output).expect("lengths checked at construction")
            }
        }
    }
}

/// `a ^= b` over the shorter of the two.
#[inline]
pub(crate) fn xor_in(a: &mut [u8], b: &[u8]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// A block cipher with a fixed key: the interface the modes of operation are written against.
///
/// The multi-block calls are the ones backends make fast; they take whole blocks only and
/// return [`Error::NotWholeBlocks`] otherwise.
///
/// The provided methods are the inner loops of the modes in [`crate::mode`], on whole
/// blocks, with the chaining value (IV, counter, tweak, MAC state) passed in and updated.
/// Their defaults are portable and correct for any block length up to
/// [`MAX_BLOCK_LEN`]; ciphers with fused kernels override them. Use the mode types rather
/// than calling them directly: the mode types add partial blocks, padding, limits and
/// streaming. Every provided method checks its arguments and returns an error, never
/// panics: a chaining value that is not one block is [`Error::InvalidNonceLength`], data
/// that is not whole blocks [`Error::NotWholeBlocks`].
pub trait BlockCipher {
    /// Block length in bytes.
    const BLOCK_LEN: usize;

    /// Encrypts whole blocks in place.
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks in place.
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error>;
    /// Encrypts whole blocks from `input` into `output` (same length).
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;
    /// Decrypts whole blocks from `input` into `output` (same length).
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error>;

    /// CTR on whole blocks: XORs `E(counter + i)` into block `i`, where the last
    /// `counter_len` bytes of the one-block `counter` are a big-endian integer incremented
    /// modulo `2^(8 * counter_len)` (the bytes before it never change). On return `counter`
    /// is the next unused counter block. `counter_len` is `BLOCK_LEN` for SP 800-38A and 4
    /// for the GCM / RFC 3686 32-bit counter; outside `1..=BLOCK_LEN` it is
    /// [`Error::InvalidParameter`]. Wrapping is not an error here: the mode checks limits.
    fn ctr_blocks(
        &self,
        counter: &mut [u8],
        counter_len: usize,
        data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        generic::ctr(self, counter, counter_len, data)
    }

    /// CBC encryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cbc_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cbc_encrypt(self, iv, data)
    }

    /// CBC decryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cbc_decrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cbc_decrypt(self, iv, data)
    }

    /// Full-block CFB encryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cfb_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cfb_encrypt(self, iv, data)
    }

    /// Full-block CFB decryption of whole blocks; `iv` becomes the last ciphertext block.
    fn cfb_decrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::cfb_decrypt(self, iv, data)
    }

    /// OFB on whole blocks: `iv` is replaced by `E(iv)` once per block and XORed in; on
    /// return it is the last keystream block.
    fn ofb_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::ofb(self, iv, data)
    }

    /// CBC-MAC absorption: `state = E(state ^ block)` for every whole block of `data`.
    fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        generic::cbc_mac(self, state, data)
    }

    /// XTS (IEEE 1619) encryption of whole blocks with the *encrypted* tweak `tweak` for
    /// the first block; on return `tweak` is the tweak of the next block (multiplied by
    /// `x` once per block, little-endian as in IEEE 1619). 128-bit block ciphers only
    /// ([`Error::InvalidParameter`] otherwise).
    fn xts_encrypt_blocks(&self, tweak: &mut [u8; 16], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::xts::<Self, false>(self, tweak, data)
    }

    /// XTS decryption of whole blocks; `tweak` as for
    /// [`xts_encrypt_blocks`](Self::xts_encrypt_blocks).
    fn xts_decrypt_blocks(&self, tweak: &mut [u8; 16], data: InOutBuf<'_>) -> Result<(), Error> {
        generic::xts::<Self, true>(self, tweak, data)
    }

    /// CCM's bulk pass (SP 800-38C) on whole blocks: counter mode as in
    /// [`ctr_blocks`](Self::ctr_blocks) (`counter`, `counter_len`) and the CBC-MAC
    /// `mac = E(mac ^ p)` of every *plaintext* block `p` as in
    /// [`cbc_mac_blocks`](Self::cbc_mac_blocks): with `decrypt` false the input is the
    /// plaintext (MACed, then encrypted), with `decrypt` true the input is the ciphertext
    /// (decrypted, then its output MACed). On return `counter` is the next unused counter
    /// block and `mac` the chain value after the last block. The default runs the two
    /// passes one after the other; fused kernels run both in one loop, the counter blocks
    /// in the latency shadow of the serial MAC chain.
    fn ccm_blocks(
        &self,
        mac: &mut [u8],
        counter: &mut [u8],
        counter_len: usize,
        data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        generic::ccm(self, mac, counter, counter_len, data, decrypt)
    }
}

/// A shared reference to a cipher is a cipher: modes own their cipher, so a key set up
/// once can serve several modes (`Ctr::new(&aes, iv)`).
impl<T: BlockCipher> BlockCipher for &T {
    const BLOCK_LEN: usize = T::BLOCK_LEN;
    #[inline]
    fn encrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        (**self).encrypt_blocks(data)
    }
    #[inline]
    fn decrypt_blocks(&self, data: &mut [u8]) -> Result<(), Error> {
        (**self).decrypt_blocks(data)
    }
    #[inline]
    fn encrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        (**self).encrypt_blocks_to(input, output)
    }
    #[inline]
    fn decrypt_blocks_to(&self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        (**self).decrypt_blocks_to(input, output)
    }
    #[inline]
    fn ctr_blocks(&self, c: &mut [u8], n: usize, d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).ctr_blocks(c, n, d)
    }
    #[inline]
    fn cbc_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cbc_encrypt_blocks(iv, d)
    }
    #[inline]
    fn cbc_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cbc_decrypt_blocks(iv, d)
    }
    #[inline]
    fn cfb_encrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cfb_encrypt_blocks(iv, d)
    }
    #[inline]
    fn cfb_decrypt_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).cfb_decrypt_blocks(iv, d)
    }
    #[inline]
    fn ofb_blocks(&self, iv: &mut [u8], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).ofb_blocks(iv, d)
    }
    #[inline]
    fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        (**self).cbc_mac_blocks(state, data)
    }
    #[inline]
    fn xts_encrypt_blocks(&self, t: &mut [u8; 16], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).xts_encrypt_blocks(t, d)
    }
    #[inline]
    fn xts_decrypt_blocks(&self, t: &mut [u8; 16], d: InOutBuf<'_>) -> Result<(), Error> {
        (**self).xts_decrypt_blocks(t, d)
    }
    #[inline]
    fn ccm_blocks(
        &self,
        mac: &mut [u8],
        c: &mut [u8],
        n: usize,
        d: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        (**self).ccm_blocks(mac, c, n, d, decrypt)
    }
}

/// `Ok` when `len` is a whole number of `block`-byte blocks.
#[inline]
pub(crate) fn check_whole_blocks(len: usize, block: usize) -> Result<(), Error> {
    if len.is_multiple_of(block) {
        Ok(())
    } else {
        Err(Error::NotWholeBlocks { len, block })
    }
}

/// `Ok` when a chaining value (IV, counter, MAC state) is exactly one `block`-byte block.
#[inline]
pub(crate) fn check_iv(len: usize, block: usize) -> Result<(), Error> {
    if len == block {
        Ok(())
    } else {
        Err(Error::InvalidNonceLength { got: len })
    }
}

/// Adds `n` to the big-endian integer in the last `counter_len` bytes of `counter`,
/// modulo `2^(8 * counter_len)`; the bytes before it are untouched.
pub(crate) fn ctr_add(counter: &mut [u8], counter_len: usize, n: u128) {
    let start = counter.len() - counter_len;
    let mut carry = n;
    for b in counter[start..].iter_mut().rev() {
        if carry == 0 {
            break;
        }
        let s = *b as u128 + (carry & 0xff);
        *b = s as u8;
        carry = (carry >> 8) + (s >> 8);
    }
}

/// `t * x` in GF(2^128) as IEEE 1619 encodes it: `t` is a little-endian 128-bit integer,
/// shifted left by one, with the reduction `x^7 + x^2 + x + 1` (0x87) folded into the low
/// byte when the top bit falls out. Branch-free.
#[inline]
pub(crate) fn xts_mul_x(t: &mut [u8; 16]) {
    let v = u128::from_le_bytes(*t);
    let carry = (v >> 127) as u8;
    let v = (v << 1) ^ (0x87 & (carry.wrapping_neg() as u128));
    *t = v.to_le_bytes();
}

/// The portable defaults of the provided methods, also the fallback of fused backends for
/// parameters they do not specialise.
pub(crate) mod generic {
    use super::{check_iv, check_whole_blocks, ctr_add, xor_in, xts_mul_x, InOutBuf, CHUNK};
    use super::{BlockCipher, MAX_BLOCK_LEN};
    use crate::Error;
    use zeroize::Zeroize;

    /// Whole blocks that fit in the scratch buffer, in bytes, for block length `b`.
    #[inline]
    fn chunk_len(b: usize) -> usize {
        (CHUNK / b) * b
    }

    fn check_block_len(b: usize) -> Result<(), Error> {
        if b == 0 || b > MAX_BLOCK_LEN {
            return Err(Error::InvalidParameter {
                what: "block length above MAX_BLOCK_LEN",
            });
        }
        Ok(())
    }

    /// Checks the common arguments of the chaining-value calls.
    fn check<C: BlockCipher + ?Sized>(iv_len: usize, data_len: usize) -> Result<(), Error> {
        check_block_len(C::BLOCK_LEN)?;
        check_iv(iv_len, C::BLOCK_LEN)?;
        check_whole_blocks(data_len, C::BLOCK_LEN)
    }

    pub(crate) fn ctr<C: BlockCipher + ?Sized>(
        c: &C,
        counter: &mut [u8],
        counter_len: usize,
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(counter.len(), data.len())?;
        let b = C::BLOCK_LEN;
        if counter_len == 0 || counter_len > b {
            return Err(Error::InvalidParameter {
                what: "ctr counter length",
            });
        }
        let mut ks = [0u8; CHUNK];
        let mut off = 0;
        while off < data.len() {
            let n = chunk_len(b).min(data.len() - off);
            for blk in ks[..n].chunks_exact_mut(b) {
                blk.copy_from_slice(counter);
                ctr_add(counter, counter_len, 1);
            }
            c.encrypt_blocks(&mut ks[..n])?;
            data.xor_at(off, &ks[..n]);
            off += n;
        }
        ks.zeroize();
        Ok(())
    }

    pub(crate) fn cbc_encrypt<C: BlockCipher + ?Sized>(
        c: &C,
        iv: &mut [u8],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(iv.len(), data.len())?;
        let b = C::BLOCK_LEN;
        let mut off = 0;
        while off < data.len() {
            xor_in(iv, &data.input()[off..off + b]);
            c.encrypt_blocks(iv)?;
            data.write_at(off, iv);
            off += b;
        }
        Ok(())
    }

    pub(crate) fn cbc_decrypt<C: BlockCipher + ?Sized>(
        c: &C,
        iv: &mut [u8],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(iv.len(), data.len())?;
        let b = C::BLOCK_LEN;
        let (mut ct, mut pt) = ([0u8; CHUNK], [0u8; CHUNK]);
        let mut off = 0;
        while off < data.len() {
            let n = chunk_len(b).min(data.len() - off);
            ct[..n].copy_from_slice(&data.input()[off..off + n]);
            pt[..n].copy_from_slice(&ct[..n]);
            c.decrypt_blocks(&mut pt[..n])?;
            xor_in(&mut pt[..b], iv);
            xor_in(&mut pt[b..n], &ct[..n - b]);
            iv.copy_from_slice(&ct[n - b..n]);
            data.write_at(off, &pt[..n]);
            off += n;
        }
        pt.zeroize();
        Ok(())
    }

    pub(crate) fn cfb_encrypt<C: BlockCipher + ?Sized>(
        c: &C,
        iv: &mut [u8],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(iv.len(), data.len())?;
        let b = C::BLOCK_LEN;
        let mut off = 0;
        while off < data.len() {
            c.encrypt_blocks(iv)?;
            xor_in(iv, &data.input()[off..off + b]);
            data.write_at(off, iv);
            off += b;
        }
        Ok(())
    }

    pub(crate) fn cfb_decrypt<C: BlockCipher + ?Sized>(
        c: &C,
        iv: &mut [u8],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(iv.len(), data.len())?;
        let b = C::BLOCK_LEN;
        let mut ks = [0u8; CHUNK];
        let mut off = 0;
        while off < data.len() {
            let n = chunk_len(b).min(data.len() - off);
            ks[..b].copy_from_slice(iv);
            ks[b..n].copy_from_slice(&data.input()[off..off + n - b]);
            iv.copy_from_slice(&data.input()[off + n - b..off + n]);
            c.encrypt_blocks(&mut ks[..n])?;
            data.xor_at(off, &ks[..n]);
            off += n;
        }
        ks.zeroize();
        Ok(())
    }

    pub(crate) fn ofb<C: BlockCipher + ?Sized>(
        c: &C,
        iv: &mut [u8],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check::<C>(iv.len(), data.len())?;
        let b = C::BLOCK_LEN;
        let mut off = 0;
        while off < data.len() {
            c.encrypt_blocks(iv)?;
            data.xor_at(off, iv);
            off += b;
        }
        Ok(())
    }

    pub(crate) fn cbc_mac<C: BlockCipher + ?Sized>(
        c: &C,
        state: &mut [u8],
        data: &[u8],
    ) -> Result<(), Error> {
        check::<C>(state.len(), data.len())?;
        for blk in data.chunks_exact(C::BLOCK_LEN) {
            xor_in(state, blk);
            c.encrypt_blocks(state)?;
        }
        Ok(())
    }

    pub(crate) fn ccm<C: BlockCipher + ?Sized>(
        c: &C,
        mac: &mut [u8],
        counter: &mut [u8],
        counter_len: usize,
        data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        // Both chaining values and the length are checked before anything is written.
        check::<C>(mac.len(), data.len())?;
        check_iv(counter.len(), C::BLOCK_LEN)?;
        if counter_len == 0 || counter_len > C::BLOCK_LEN {
            return Err(Error::InvalidParameter {
                what: "ctr counter length",
            });
        }
        if decrypt {
            let out = data.into_copied_output();
            c.ctr_blocks(counter, counter_len, InOutBuf::in_place(out))?;
            c.cbc_mac_blocks(mac, out)
        } else {
            c.cbc_mac_blocks(mac, data.input())?;
            c.ctr_blocks(counter, counter_len, data)
        }
    }

    /// `Err` unless the cipher has 128-bit blocks (XTS is defined for those only).
    pub(crate) fn check_xts<C: BlockCipher + ?Sized>(data_len: usize) -> Result<(), Error> {
        if C::BLOCK_LEN != 16 {
            return Err(Error::InvalidParameter {
                what: "xts needs a 128-bit block cipher",
            });
        }
        check_whole_blocks(data_len, 16)
    }

    pub(crate) fn xts<C: BlockCipher + ?Sized, const DEC: bool>(
        c: &C,
        tweak: &mut [u8; 16],
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        check_xts::<C>(data.len())?;
        let (mut buf, mut tw) = ([0u8; CHUNK], [0u8; CHUNK]);
        let mut off = 0;
        while off < data.len() {
            let n = CHUNK.min(data.len() - off);
            for t in tw[..n].chunks_exact_mut(16) {
                t.copy_from_slice(tweak);
                xts_mul_x(tweak);
            }
            buf[..n].copy_from_slice(&data.input()[off..off + n]);
            xor_in(&mut buf[..n], &tw[..n]);
            if DEC {
                c.decrypt_blocks(&mut buf[..n])?;
            } else {
                c.encrypt_blocks(&mut buf[..n])?;
            }
            xor_in(&mut buf[..n], &tw[..n]);
            data.write_at(off, &buf[..n]);
            off += n;
        }
        buf.zeroize();
        tw.zeroize();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ctr_add_carries_inside_the_field_only() {
        let mut c = [0xffu8; 16];
        ctr_add(&mut c, 4, 1);
        assert_eq!(c[..12], [0xff; 12]);
        assert_eq!(c[12..], [0; 4]);
        let mut c = [0u8; 16];
        c[15] = 0xff;
        ctr_add(&mut c, 16, 0x0101);
        assert_eq!(c[13..], [0x00, 0x02, 0x00]);
        let mut c = [0xffu8; 16];
        ctr_add(&mut c, 16, 2);
        assert_eq!(c, {
            let mut e = [0u8; 16];
            e[15] = 1;
            e
        });
        let mut c = [0u8; 16];
        ctr_add(&mut c, 16, u128::MAX);
        assert_eq!(c, [0xff; 16]);
    }

    #[test]
    fn xts_doubling() {
        let mut t = [0u8; 16];
        t[15] = 0x80;
        xts_mul_x(&mut t);
        let mut e = [0u8; 16];
        e[0] = 0x87;
        assert_eq!(t, e);
        let mut t = [0u8; 16];
        t[0] = 0x80;
        xts_mul_x(&mut t);
        assert_eq!(t[1], 1);
        assert_eq!(t[0], 0);
    }
}
