//! AES's fused mode kernels, wired into the mode-owned trait
//! [`BlockModes`](crate::mode::BlockModes): every hardware backend runs CTR, CBC and CFB
//! decryption and XTS on as many blocks in flight as ECB, the serial modes (CBC and CFB
//! encryption, OFB, CBC-MAC) with the chain in one register, and CCM's two passes in one
//! loop; `soft` takes the portable loops of `mode/generic.rs`. This file is the one place
//! where the cipher reaches up to the modes' trait; the kernels are in the backend files.

#[cfg(target_arch = "x86_64")]
use super::SHORT_BYTES;
use super::{Aes, Block, Inner, Serial, BLOCK_LEN};
use crate::block::{check_iv, check_whole_blocks, InOutBuf};
use crate::mode::generic::{self, ctr_add};
use crate::mode::BlockModes;
use crate::Error;

#[cfg(target_arch = "aarch64")]
use super::aarch64_aes;
#[cfg(target_arch = "x86_64")]
use super::{x86_aesni, x86_vaes, x86_vaes512};

/// The portable CTR loop, out of line: its 4 KiB keystream buffer stays out of the
/// stack frame of the fused path (a page probed on every call).
#[inline(never)]
fn generic_ctr(
    c: &Aes,
    counter: &mut [u8],
    counter_len: usize,
    data: InOutBuf<'_>,
) -> Result<(), Error> {
    generic::ctr(c, counter, counter_len, data)
}

/// The one-block chaining value of a fused call, after the checks every call shares.
fn chaining(v: &mut [u8], data_len: usize) -> Result<&mut Block, Error> {
    check_iv(v.len(), BLOCK_LEN)?;
    check_whole_blocks(data_len, BLOCK_LEN)?;
    Ok(v.try_into().expect("length checked"))
}

/// Calls the backend module's function `$f(keys, token, args...)` for the key's backend,
/// or returns `$soft` (the portable default of the trait) for the bitsliced one.
macro_rules! fused {
    ($self:expr, $len:expr, $f:ident($($arg:expr),*), $soft:expr) => {
        match &$self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) if $len < SHORT_BYTES => x86_aesni::$f(k, t.aesni(), $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) => x86_vaes512::$f(k, *t, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) if $len < SHORT_BYTES => x86_aesni::$f(k, t.aesni(), $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) => x86_vaes::$f(k, *t, $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(k, t) => x86_aesni::$f(k, *t, $($arg),*),
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(k, t) => aarch64_aes::$f(k, *t, $($arg),*),
            Inner::Soft(_) => return $soft,
        }
    };
}

/// [`fused!`] for the one-block-wide chains (the serial modes, CCM): the wide x86 backends
/// run the `x86_aesni` kernel, their register width being of no use to a chain.
macro_rules! fused_chain {
    ($self:expr, $f:ident($($arg:expr),*), $soft:expr) => {
        match &$self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) => x86_aesni::$f(k, t.aesni(), $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) => x86_aesni::$f(k, t.aesni(), $($arg),*),
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(k, t) => x86_aesni::$f(k, *t, $($arg),*),
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(k, t) => aarch64_aes::$f(k, *t, $($arg),*),
            Inner::Soft(_) => return $soft,
        }
    };
}

impl Aes {
    /// Whether this key has fused mode kernels (every backend but `soft`).
    #[inline]
    fn fused(&self) -> bool {
        !matches!(self.inner, Inner::Soft(_))
    }

    /// The key schedule of an x86 backend with the AES-NI token every one of them
    /// implies: what the short paths (one kernel call, nothing set up) run on.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn x86_short(&self) -> Option<(&super::x86::Keys, crate::cpu::x86::AesNi)> {
        match &self.inner {
            Inner::Vaes512(k, t) => Some((k, t.aesni())),
            Inner::Vaes(k, t, _) => Some((k, t.aesni())),
            Inner::AesNi(k, t) => Some((k, *t)),
            Inner::Soft(_) => None,
        }
    }

    fn serial(&self, mode: Serial, v: &mut [u8], mut data: InOutBuf<'_>) -> Result<(), Error> {
        let v = chaining(v, data.len())?;
        if !self.fused() {
            return match mode {
                Serial::CbcEnc => generic::cbc_encrypt(self, v, data),
                Serial::CfbEnc => generic::cfb_encrypt(self, v, data),
                Serial::Ofb => generic::ofb(self, v, data),
                Serial::Mac => generic::cbc_mac(self, v, data.input()),
            };
        }
        let mut io = data.inout();
        let n = io.len() / BLOCK_LEN;
        let (src, dst) = (io.src_ptr(), io.dst_ptr());
        // SAFETY: `io` (alive for the call) is valid for reads of `n` blocks at `src` and
        // writes at `dst`.
        unsafe { fused_chain!(self, serial(mode, v, src, dst, n), Ok(())) };
        Ok(())
    }

    fn xts(&self, tweak: &mut [u8], mut data: InOutBuf<'_>, dec: bool) -> Result<(), Error> {
        check_whole_blocks(data.len(), BLOCK_LEN)?;
        let tweak: &mut Block = chaining(tweak, 0)?;
        #[cfg(target_arch = "x86_64")]
        let short = data.len() < SHORT_BYTES;
        match &self.inner {
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) if short => x86_aesni::xts(k, t.aesni(), tweak, data.inout(), dec),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, _) if short => x86_aesni::xts(k, t.aesni(), tweak, data.inout(), dec),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes512(k, t) => x86_vaes512::xts(k, *t, tweak, data.inout(), dec),
            #[cfg(target_arch = "x86_64")]
            Inner::Vaes(k, t, c) => x86_vaes::xts(k, *t, *c, tweak, data.inout(), dec),
            #[cfg(target_arch = "x86_64")]
            Inner::AesNi(k, t) => x86_aesni::xts(k, *t, tweak, data.inout(), dec),
            #[cfg(target_arch = "aarch64")]
            Inner::ArmCe(k, t) => aarch64_aes::xts(k, *t, tweak, data.inout(), dec),
            Inner::Soft(_) if dec => return generic::xts::<Self, true>(self, tweak, data),
            Inner::Soft(_) => return generic::xts::<Self, false>(self, tweak, data),
        }
        Ok(())
    }

    /// CTR with the counter's last word not wrapping inside `data`.
    fn ctr32(&self, c: &Block, mut data: InOutBuf<'_>) -> Result<(), Error> {
        let mut soft = *c;
        fused!(
            self,
            data.len(),
            ctr32(c, data.inout()),
            generic_ctr(self, &mut soft, 4, data)
        );
        Ok(())
    }
}

impl BlockModes for Aes {
    fn ctr_blocks(
        &self,
        counter: &mut [u8],
        counter_len: usize,
        mut data: InOutBuf<'_>,
    ) -> Result<(), Error> {
        // Short input (what fits the AES-NI short path) with a counter whose last word does
        // not wrap inside it: one kernel call, and the counter's new last word stored
        // (no carry to propagate). The counter is public, so the branch leaks nothing.
        #[cfg(target_arch = "x86_64")]
        if data.len() < SHORT_BYTES
            && (4..=BLOCK_LEN).contains(&counter_len)
            && data.len().is_multiple_of(BLOCK_LEN)
        {
            if let (Some((k, t)), Ok(c)) = (self.x86_short(), <&mut Block>::try_from(&mut *counter))
            {
                let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
                if let Some(next) = low.checked_add((data.len() / BLOCK_LEN) as u32) {
                    x86_aesni::ctr32(k, t, c, data.inout());
                    c[12..].copy_from_slice(&next.to_be_bytes());
                    return Ok(());
                }
            }
        }
        // The kernels increment the last 32-bit word without carry; the data is cut where
        // that word wraps, and the carry into the rest of the counter field is done here.
        if !self.fused() || !(4..=BLOCK_LEN).contains(&counter_len) {
            return generic_ctr(self, counter, counter_len, data);
        }
        let c = chaining(counter, data.len())?;
        while !data.is_empty() {
            let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
            let room = (1u64 << 32) - low as u64; // blocks before the word wraps
            let blocks = (data.len() / BLOCK_LEN) as u64;
            let take = blocks.min(room) as usize * BLOCK_LEN;
            let (now, rest) = data.split_at(take);
            self.ctr32(c, now)?;
            ctr_add(c, counter_len, (take / BLOCK_LEN) as u128);
            data = rest;
        }
        Ok(())
    }

    fn cbc_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.serial(Serial::CbcEnc, iv, data)
    }

    fn cbc_decrypt_blocks(&self, iv: &mut [u8], mut data: InOutBuf<'_>) -> Result<(), Error> {
        let v = chaining(iv, data.len())?;
        fused!(
            self,
            data.len(),
            chain_dec(v, data.inout(), true),
            generic::cbc_decrypt(self, v, data)
        );
        Ok(())
    }

    fn cfb_encrypt_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.serial(Serial::CfbEnc, iv, data)
    }

    fn cfb_decrypt_blocks(&self, iv: &mut [u8], mut data: InOutBuf<'_>) -> Result<(), Error> {
        let v = chaining(iv, data.len())?;
        fused!(
            self,
            data.len(),
            chain_dec(v, data.inout(), false),
            generic::cfb_decrypt(self, v, data)
        );
        Ok(())
    }

    fn ofb_blocks(&self, iv: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.serial(Serial::Ofb, iv, data)
    }

    fn cbc_mac_blocks(&self, state: &mut [u8], data: &[u8]) -> Result<(), Error> {
        let v = chaining(state, data.len())?;
        if !self.fused() {
            return generic::cbc_mac(self, v, data);
        }
        let n = data.len() / BLOCK_LEN;
        let p = data.as_ptr();
        // SAFETY: `data` is readable for `n` blocks; `Serial::Mac` never writes, so the
        // output pointer (the same memory) is never used for a store.
        unsafe { fused_chain!(self, serial(Serial::Mac, v, p, p.cast_mut(), n), Ok(())) };
        Ok(())
    }

    fn xts_encrypt_blocks(&self, tweak: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.xts(tweak, data, false)
    }

    fn xts_decrypt_blocks(&self, tweak: &mut [u8], data: InOutBuf<'_>) -> Result<(), Error> {
        self.xts(tweak, data, true)
    }

    fn xts_unit_blocks(
        &self,
        tweak_cipher: &Self,
        tweak: &[u8],
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))] mut data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        check_iv(tweak.len(), BLOCK_LEN)?;
        check_whole_blocks(data.len(), BLOCK_LEN)?;
        let tw: &Block = tweak.try_into().expect("length checked");
        // A short unit on x86: the tweak and the data in one kernel call (the two keys
        // with as many rounds; `Xts::new` takes any two keys).
        #[cfg(target_arch = "x86_64")]
        if !data.is_empty() && data.len() < SHORT_BYTES {
            if let (Some((k, t)), Some((tk, _))) = (self.x86_short(), tweak_cipher.x86_short()) {
                if k.rounds == tk.rounds {
                    x86_aesni::xts_unit(k, t, tk, tw, data.inout(), decrypt);
                    return Ok(());
                }
            }
        }
        let mut t = *tw;
        tweak_cipher.encrypt_block(&mut t);
        let res = self.xts(&mut t, data, decrypt);
        crate::wipe::wipe(&mut t);
        res
    }

    fn ccm_blocks(
        &self,
        mac: &mut [u8],
        counter: &mut [u8],
        counter_len: usize,
        mut data: InOutBuf<'_>,
        decrypt: bool,
    ) -> Result<(), Error> {
        // As in `ctr_blocks`: the kernels increment the last 32-bit word without carry.
        if !self.fused() || !(4..=BLOCK_LEN).contains(&counter_len) {
            return generic::ccm(self, mac, counter, counter_len, data, decrypt);
        }
        check_iv(mac.len(), BLOCK_LEN)?;
        let m: &mut Block = mac.try_into().expect("length checked");
        let c = chaining(counter, data.len())?;
        while !data.is_empty() {
            let low = u32::from_be_bytes([c[12], c[13], c[14], c[15]]);
            let room = (1u64 << 32) - low as u64; // blocks before the word wraps
            let blocks = (data.len() / BLOCK_LEN) as u64;
            let take = blocks.min(room) as usize * BLOCK_LEN;
            let (mut now, rest) = data.split_at(take);
            let mut io = now.inout();
            let n = io.len() / BLOCK_LEN;
            let (src, dst) = (io.src_ptr(), io.dst_ptr());
            // SAFETY: `io` (alive for the call) is valid for reads of `n` blocks at `src`
            // and writes at `dst`; the counter's last word does not wrap within `n`.
            unsafe { fused_chain!(self, ccm(m, c, src, dst, n, decrypt), Ok(())) };
            ctr_add(c, counter_len, (take / BLOCK_LEN) as u128);
            data = rest;
        }
        Ok(())
    }
}
