//! The portable inner loops of the modes: the defaults of [`BlockModes`]'s methods, and
//! the fallback of fused backends for parameters they do not specialise. Written with the
//! cipher's multi-block calls only, for any block length up to [`MAX_BLOCK_LEN`]; the
//! parallel ones (CTR, CBC and CFB decryption, XTS) hand the cipher batches of at least
//! its [`BlockCipher::PAR_BLOCKS`] blocks.

use super::BlockModes;
use crate::block::{check_iv, check_whole_blocks, xor_in, BlockCipher, InOutBuf, MAX_BLOCK_LEN};
use crate::wipe::wipe;
use crate::Error;

/// Scratch size: whole blocks of up to [`MAX_BLOCK_LEN`] bytes, as many as the cipher's
/// widest kernel keeps in flight ([`BlockCipher::PAR_BLOCKS`]) up to 4 KiB.
const CHUNK: usize = 4096;

/// Bytes per call into the cipher for block length `b`: at least 512 (thirty-two 16-byte
/// blocks, what a portable bitsliced kernel amortises its set-up over), at least the
/// cipher's [`BlockCipher::PAR_BLOCKS`], at most [`CHUNK`], in whole blocks.
#[inline]
fn chunk_len<C: BlockCipher + ?Sized>() -> usize {
    let b = C::BLOCK_LEN;
    let want = (C::PAR_BLOCKS * b).clamp(512, CHUNK);
    (want / b) * b
}

fn check_block_len(b: usize) -> Result<(), Error> {
    if b == 0 || b > MAX_BLOCK_LEN {
        return Err(Error::InvalidParameter {
            what: "block length above MAX_BLOCK_LEN",
        });
    }
    Ok(())
}

/// Calls `step(off, buf)` for consecutive pieces of `len` bytes, each at most
/// [`chunk_len`] bytes, `buf` a scratch buffer of the piece's length (the cipher's batch);
/// the scratch is wiped afterwards, also when a step fails.
#[inline]
fn in_chunks<C: BlockCipher + ?Sized>(
    len: usize,
    mut step: impl FnMut(usize, &mut [u8]) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut buf = [0u8; CHUNK];
    let mut off = 0;
    let mut r = Ok(());
    while off < len && r.is_ok() {
        let n = chunk_len::<C>().min(len - off);
        r = step(off, &mut buf[..n]);
        off += n;
    }
    wipe(&mut buf[..chunk_len::<C>().min(len)]);
    r
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
    in_chunks::<C>(data.len(), |off, ks| {
        for blk in ks.chunks_exact_mut(b) {
            blk.copy_from_slice(counter);
            ctr_add(counter, counter_len, 1);
        }
        c.encrypt_blocks(ks)?;
        data.xor_at(off, ks);
        Ok(())
    })
}

/// The serial feedback modes, one block at a time through the chaining value `iv`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Feedback {
    /// CBC encryption: the input block is XORed in before the cipher.
    Cbc,
    /// CFB encryption: after it, the ciphertext fed back.
    Cfb,
    /// OFB: the cipher's output is the keystream and is fed back.
    Ofb,
}

#[inline(always)]
fn feedback<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    mut data: InOutBuf<'_>,
    mode: Feedback,
) -> Result<(), Error> {
    check::<C>(iv.len(), data.len())?;
    let b = C::BLOCK_LEN;
    let mut off = 0;
    while off < data.len() {
        if mode == Feedback::Cbc {
            xor_in(iv, &data.input()[off..off + b]);
        }
        c.encrypt_blocks(iv)?;
        match mode {
            Feedback::Cbc => data.write_at(off, iv),
            Feedback::Cfb => {
                xor_in(iv, &data.input()[off..off + b]);
                data.write_at(off, iv);
            }
            Feedback::Ofb => data.xor_at(off, iv),
        }
        off += b;
    }
    Ok(())
}

pub(crate) fn cbc_encrypt<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    data: InOutBuf<'_>,
) -> Result<(), Error> {
    feedback(c, iv, data, Feedback::Cbc)
}

pub(crate) fn cbc_decrypt<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    mut data: InOutBuf<'_>,
) -> Result<(), Error> {
    check::<C>(iv.len(), data.len())?;
    let b = C::BLOCK_LEN;
    // The ciphertext is kept apart: decrypting in place overwrites it.
    let mut ct = [0u8; CHUNK];
    in_chunks::<C>(data.len(), |off, pt| {
        let n = pt.len();
        ct[..n].copy_from_slice(&data.input()[off..off + n]);
        pt.copy_from_slice(&ct[..n]);
        c.decrypt_blocks(pt)?;
        xor_in(&mut pt[..b], iv);
        xor_in(&mut pt[b..], &ct[..n - b]);
        iv.copy_from_slice(&ct[n - b..n]);
        data.write_at(off, pt);
        Ok(())
    })
}

pub(crate) fn cfb_encrypt<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    data: InOutBuf<'_>,
) -> Result<(), Error> {
    feedback(c, iv, data, Feedback::Cfb)
}

pub(crate) fn cfb_decrypt<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    mut data: InOutBuf<'_>,
) -> Result<(), Error> {
    check::<C>(iv.len(), data.len())?;
    let b = C::BLOCK_LEN;
    in_chunks::<C>(data.len(), |off, ks| {
        let n = ks.len();
        ks[..b].copy_from_slice(iv);
        ks[b..].copy_from_slice(&data.input()[off..off + n - b]);
        iv.copy_from_slice(&data.input()[off + n - b..off + n]);
        c.encrypt_blocks(ks)?;
        data.xor_at(off, ks);
        Ok(())
    })
}

pub(crate) fn ofb<C: BlockCipher + ?Sized>(
    c: &C,
    iv: &mut [u8],
    data: InOutBuf<'_>,
) -> Result<(), Error> {
    feedback(c, iv, data, Feedback::Ofb)
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

pub(crate) fn ccm<C: BlockModes + ?Sized>(
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

/// `Err` unless the cipher's block length has an XTS tweak field (16, 32 or 64 bytes) and
/// `data_len` is whole blocks.
pub(crate) fn check_xts<C: BlockCipher + ?Sized>(data_len: usize) -> Result<(), Error> {
    xts_poly(C::BLOCK_LEN)?;
    check_whole_blocks(data_len, C::BLOCK_LEN)
}

pub(crate) fn xts<C: BlockCipher + ?Sized, const DEC: bool>(
    c: &C,
    tweak: &mut [u8],
    mut data: InOutBuf<'_>,
) -> Result<(), Error> {
    check_xts::<C>(data.len())?;
    let b = C::BLOCK_LEN;
    check_iv(tweak.len(), b)?;
    let mut tw = [0u8; CHUNK];
    let r = in_chunks::<C>(data.len(), |off, buf| {
        let tw = &mut tw[..buf.len()];
        for t in tw.chunks_exact_mut(b) {
            t.copy_from_slice(tweak);
            xts_mul_x(tweak);
        }
        buf.copy_from_slice(&data.input()[off..off + buf.len()]);
        xor_in(buf, tw);
        if DEC {
            c.decrypt_blocks(buf)?;
        } else {
            c.encrypt_blocks(buf)?;
        }
        xor_in(buf, tw);
        data.write_at(off, buf);
        Ok(())
    });
    wipe(&mut tw[..chunk_len::<C>().min(data.len())]);
    r
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

/// The reduction polynomial of the tweak field for `block`-byte blocks, without its top
/// term: `x^128 + x^7 + x^2 + x + 1` (IEEE 1619) for 16 bytes, and for 32 and 64 bytes the
/// low-weight polynomials `x^256 + x^10 + x^5 + x^2 + 1` and `x^512 + x^8 + x^5 + x^2 + 1`
/// (the same table SP 800-38B's CMAC subkeys come from; DSTU 7624 uses these fields).
pub(crate) fn xts_poly(block: usize) -> Result<u16, Error> {
    match block {
        16 => Ok(0x87),
        32 => Ok(0x425),
        64 => Ok(0x125),
        _ => Err(Error::InvalidParameter {
            what: "xts block length (16, 32 or 64 bytes)",
        }),
    }
}

/// `t * x` in the tweak field of `t.len()` bytes as IEEE 1619 encodes it: `t` is a
/// little-endian integer, shifted left by one, with the reduction polynomial
/// ([`xts_poly`]) folded into the low bytes when the top bit falls out. Branch-free; a
/// length without a field is left unchanged (callers check it first).
#[inline]
pub(crate) fn xts_mul_x(t: &mut [u8]) {
    if let Ok(t) = <&mut [u8; 16]>::try_from(&mut *t) {
        let v = u128::from_le_bytes(*t);
        let carry = (v >> 127) as u8;
        let v = (v << 1) ^ (0x87 & (carry.wrapping_neg() as u128));
        *t = v.to_le_bytes();
        return;
    }
    let Ok(poly) = xts_poly(t.len()) else {
        return;
    };
    let mask = (t[t.len() - 1] >> 7).wrapping_neg();
    let mut carry = 0u8;
    for b in t.iter_mut() {
        let next = *b >> 7;
        *b = (*b << 1) | carry;
        carry = next;
    }
    t[0] ^= (poly as u8) & mask;
    t[1] ^= ((poly >> 8) as u8) & mask;
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
        // The wide fields: the top bit folds the polynomial into the low bytes.
        let mut t = [0u8; 32];
        t[31] = 0x80;
        xts_mul_x(&mut t);
        assert_eq!((t[0], t[1], t[31]), (0x25, 0x04, 0));
        let mut t = [0u8; 64];
        t[63] = 0x80;
        t[5] = 0x81;
        xts_mul_x(&mut t);
        assert_eq!((t[0], t[1], t[5], t[6], t[63]), (0x25, 0x01, 0x02, 0x01, 0));
        let mut t = [0u8; 16];
        t[0] = 0x80;
        xts_mul_x(&mut t);
        assert_eq!(t[1], 1);
        assert_eq!(t[0], 0);
    }
}
