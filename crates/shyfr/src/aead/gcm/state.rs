//! The state machine of one GCM message (SP 800-38D algorithms 4 and 5): `J0`, the AAD,
//! the data in pieces of any length (whole blocks through the key's bulk pass, partial
//! blocks here), the length block and the tag. Shared by the one-shot verbs, the streaming
//! types and every engine.

use zeroize::Zeroize;

use super::{Bulk, Core, ParCore, BLOCK, MAX_AAD_LEN, MAX_NONCE_LEN, MAX_PLAINTEXT_LEN, NONCE_LEN};
use crate::aead::{check_same_len, Tag};
use crate::wipe::wipe;
use crate::Error;

/// Adds one to the last 32 bits of a counter block, modulo 2^32 (SP 800-38D `inc_32`).
#[inline]
pub(super) fn inc32(ctr: &mut [u8; 16]) {
    let c = u32::from_be_bytes([ctr[12], ctr[13], ctr[14], ctr[15]]).wrapping_add(1);
    ctr[12..].copy_from_slice(&c.to_be_bytes());
}

/// The state of one message: counter, GHASH accumulator, lengths, the pending partial block.
pub(crate) struct State {
    /// The next counter block.
    pub(super) ctr: [u8; 16],
    /// `E(K, J0)`, XORed onto the GHASH result to make the tag.
    pub(super) ek_j0: [u8; 16],
    /// The GHASH accumulator.
    pub(super) y: [u8; 16],
    pub(super) aad_len: u64,
    pub(super) data_len: u64,
    /// Bytes of an incomplete block: AAD before the data starts, ciphertext after.
    pub(super) buf: [u8; 16],
    pub(super) buf_len: usize,
    /// Keystream of the incomplete data block.
    pub(super) ks: [u8; 16],
    pub(super) in_data: bool,
    pub(super) tag_len: usize,
}

impl Drop for State {
    fn drop(&mut self) {
        for b in [
            &mut self.ctr,
            &mut self.ek_j0,
            &mut self.y,
            &mut self.buf,
            &mut self.ks,
        ] {
            wipe(b);
        }
    }
}

impl State {
    /// SP 800-38D algorithm 4, steps 1-2: `J0` from the nonce, `E(K, J0)`, first counter.
    pub(crate) fn new(core: &dyn Core, tag_len: usize, nonce: &[u8]) -> Result<State, Error> {
        if nonce.is_empty() || nonce.len() as u64 > MAX_NONCE_LEN {
            return Err(Error::InvalidNonceLength { got: nonce.len() });
        }
        let mut j0 = [0u8; 16];
        if nonce.len() == NONCE_LEN {
            j0[..12].copy_from_slice(nonce);
            j0[15] = 1;
        } else {
            let gk = core.ghash();
            gk.update_padded(&mut j0, nonce);
            let mut len = [0u8; 16];
            len[8..].copy_from_slice(&(nonce.len() as u64 * 8).to_be_bytes());
            gk.update(&mut j0, &len);
        }
        let mut st = State {
            ctr: j0,
            ek_j0: j0,
            y: [0; 16],
            aad_len: 0,
            data_len: 0,
            buf: [0; 16],
            buf_len: 0,
            ks: [0; 16],
            in_data: false,
            tag_len,
        };
        j0.zeroize();
        core.encrypt_block(&mut st.ek_j0)?;
        inc32(&mut st.ctr);
        Ok(st)
    }

    pub(super) fn aad(&mut self, core: &dyn Core, mut aad: &[u8]) -> Result<(), Error> {
        if self.in_data {
            return Err(Error::InvalidParameter {
                what: "gcm aad after data",
            });
        }
        let total = self.aad_len.checked_add(aad.len() as u64);
        match total {
            Some(t) if t <= MAX_AAD_LEN => self.aad_len = t,
            _ => return Err(Error::TooLong { what: "gcm aad" }),
        }
        let gk = core.ghash();
        if self.buf_len > 0 {
            let take = aad.len().min(BLOCK - self.buf_len);
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&aad[..take]);
            self.buf_len += take;
            aad = &aad[take..];
            if self.buf_len < BLOCK {
                return Ok(());
            }
            gk.update(&mut self.y, &self.buf);
            self.buf_len = 0;
        }
        let whole = aad.len() - aad.len() % BLOCK;
        gk.update(&mut self.y, &aad[..whole]);
        let rest = &aad[whole..];
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
        Ok(())
    }

    /// Ends the AAD: its last partial block is absorbed zero-padded.
    pub(super) fn start_data(&mut self, core: &dyn Core) {
        if !self.in_data {
            self.flush_padded(core);
            self.in_data = true;
        }
    }

    pub(super) fn flush_padded(&mut self, core: &dyn Core) {
        if self.buf_len > 0 {
            self.buf[self.buf_len..].fill(0);
            core.ghash().update(&mut self.y, &self.buf);
            self.buf_len = 0;
        }
    }

    /// Encrypts or decrypts `dst` (from `src` when given, else in place).
    pub(super) fn data(
        &mut self,
        core: &dyn Core,
        decrypt: bool,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        check_same_len(src, dst)?;
        let total = self.data_len.checked_add(dst.len() as u64);
        let total = match total {
            Some(t) if t <= MAX_PLAINTEXT_LEN => t,
            _ => {
                return Err(Error::TooLong {
                    what: "gcm plaintext",
                })
            }
        };
        self.start_data(core);
        let n = dst.len();
        let mut off = 0;
        if self.buf_len > 0 {
            off = n.min(BLOCK - self.buf_len);
            self.partial(decrypt, src.map(|s| &s[..off]), &mut dst[..off]);
            if self.buf_len == BLOCK {
                core.ghash().update(&mut self.y, &self.buf);
                self.buf_len = 0;
            }
        }
        let whole = (n - off) - (n - off) % BLOCK;
        if whole > 0 {
            core.ctr_ghash(Bulk {
                decrypt,
                ctr: &mut self.ctr,
                y: &mut self.y,
                src: src.map(|s| &s[off..off + whole]),
                dst: &mut dst[off..off + whole],
            })?;
            off += whole;
        }
        if off < n {
            self.ks = self.ctr;
            core.encrypt_block(&mut self.ks)?;
            inc32(&mut self.ctr);
            self.partial(decrypt, src.map(|s| &s[off..]), &mut dst[off..]);
        }
        self.data_len = total;
        Ok(())
    }

    /// Bytes of the incomplete block (`dst` fits in what is left of it): XOR with the
    /// saved keystream, ciphertext kept for GHASH.
    fn partial(&mut self, decrypt: bool, src: Option<&[u8]>, dst: &mut [u8]) {
        for i in 0..dst.len() {
            let x = match src {
                Some(s) => s[i],
                None => dst[i],
            };
            let y = x ^ self.ks[self.buf_len + i];
            self.buf[self.buf_len + i] = if decrypt { x } else { y };
            dst[i] = y;
        }
        self.buf_len += dst.len();
    }

    /// The data of a one-shot call: with the `parallel` feature and a core threads may
    /// share, a buffer of [`PARALLEL_MIN_LEN`] bytes or more is split across threads
    /// ([`State::data_parallel`]); otherwise (and always for the tail) [`State::data`].
    pub(super) fn data_one_shot(
        &mut self,
        core: &dyn Core,
        par: ParCore<'_>,
        decrypt: bool,
        src: Option<&[u8]>,
        dst: &mut [u8],
    ) -> Result<(), Error> {
        #[cfg(feature = "parallel")]
        if let Some(pc) = par {
            let n = super::parallel::pieces(dst.len());
            if n > 1 && self.data_len == 0 && !self.in_data {
                return self.data_parallel(pc, n, decrypt, src, dst);
            }
        }
        let _ = par;
        self.data(core, decrypt, src, dst)
    }

    /// The full 16-byte tag: GHASH of the length block on top, XOR `E(K, J0)`.
    pub(super) fn finish(&mut self, core: &dyn Core) -> [u8; 16] {
        self.start_data(core);
        self.flush_padded(core);
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&(self.aad_len * 8).to_be_bytes());
        len[8..].copy_from_slice(&(self.data_len * 8).to_be_bytes());
        core.ghash().update(&mut self.y, &len);
        let mut t = self.y;
        for (t, e) in t.iter_mut().zip(&self.ek_j0) {
            *t ^= *e;
        }
        t
    }

    pub(super) fn tag(&mut self, core: &dyn Core) -> Tag {
        let mut full = self.finish(core);
        let tag = Tag::truncated(&full, self.tag_len);
        full.zeroize();
        tag
    }
}
