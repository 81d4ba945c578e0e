//! The OpenSSL calls the `openssl` crate does not wrap in the form a benchmark needs: an
//! cipher context (ECB, CTR, CBC, XTS) encrypting in place, and `EVP_MAC` (HMAC, KMAC,
//! CMAC) keyed once and copied per message. Everything else uses the `openssl` crate.

use std::ffi::{c_char, c_int, CStr};
use std::ptr;

use openssl_sys as ffi;

extern "C" {
    // In libcrypto 3.x; not declared by openssl-sys.
    fn OSSL_PARAM_construct_utf8_string(
        key: *const c_char,
        buf: *mut c_char,
        bsize: usize,
    ) -> ffi::OSSL_PARAM;
}

/// An `EVP_CIPHER_CTX` set up for encryption with a key, padding off; `update` encrypts whole
/// blocks in place.
pub struct Cipher(*mut ffi::EVP_CIPHER_CTX);

impl Cipher {
    /// `cipher` (e.g. `EVP_aes_128_ecb()`) keyed with `key`.
    pub fn new(cipher: *const ffi::EVP_CIPHER, key: &[u8]) -> Self {
        openssl::init();
        // SAFETY: plain libcrypto calls on a context we own; `key` has the cipher's key
        // length (checked below before use).
        unsafe {
            assert_eq!(ffi::EVP_CIPHER_key_length(cipher) as usize, key.len());
            let ctx = ffi::EVP_CIPHER_CTX_new();
            assert!(!ctx.is_null());
            let ok =
                ffi::EVP_EncryptInit_ex(ctx, cipher, ptr::null_mut(), key.as_ptr(), ptr::null());
            assert_eq!(ok, 1, "EVP_EncryptInit_ex");
            ffi::EVP_CIPHER_CTX_set_padding(ctx, 0);
            Cipher(ctx)
        }
    }

    /// Sets a fresh IV (CTR counter block, CBC IV, XTS tweak) for the next message, keeping
    /// the key schedule.
    pub fn set_iv(&mut self, iv: &[u8]) {
        // SAFETY: re-initialising our context with only an IV; libcrypto reads
        // EVP_CIPHER_CTX_iv_length bytes of it, checked here.
        unsafe {
            assert_eq!(ffi::EVP_CIPHER_CTX_iv_length(self.0) as usize, iv.len());
            let ok = ffi::EVP_EncryptInit_ex(
                self.0,
                ptr::null(),
                ptr::null_mut(),
                ptr::null(),
                iv.as_ptr(),
            );
            assert_eq!(ok, 1, "EVP_EncryptInit_ex (iv)");
        }
    }

    /// Encrypts `buf` in place: whole blocks for ECB and CBC, any length for CTR, one whole
    /// data unit for XTS.
    pub fn update(&mut self, buf: &mut [u8]) {
        let mut outl: c_int = 0;
        let len = c_int::try_from(buf.len()).expect("buffer fits an int");
        // SAFETY: OpenSSL allows in == out exactly; with padding off and whole blocks (or a
        // stream mode, or one XTS unit) it writes exactly `len` bytes and buffers nothing.
        let ok = unsafe {
            ffi::EVP_EncryptUpdate(self.0, buf.as_mut_ptr(), &mut outl, buf.as_ptr(), len)
        };
        assert!(ok == 1 && outl == len, "EVP_EncryptUpdate");
    }
}

impl Drop for Cipher {
    fn drop(&mut self) {
        // SAFETY: we own the context and free it once.
        unsafe { ffi::EVP_CIPHER_CTX_free(self.0) }
    }
}

/// An `EVP_MAC_CTX` keyed once; [`Mac::mac`] copies it (`EVP_MAC_CTX_dup`) per message, so
/// key set-up is not timed, as for every other implementation here.
pub struct Mac(*mut ffi::EVP_MAC_CTX);

impl Mac {
    /// `HMAC` with `param` `("digest", "SHA256")`, `CMAC` with `("cipher", "AES-128-CBC")`,
    /// or `KMAC128` / `KMAC256` (`param` `None`).
    pub fn new(alg: &CStr, param: Option<(&CStr, &CStr)>, key: &[u8]) -> Self {
        openssl::init();
        // SAFETY: libcrypto calls on objects we own; the parameter array lives until
        // EVP_MAC_init returns, and the parameter strings outlive it.
        unsafe {
            let mac = ffi::EVP_MAC_fetch(ptr::null_mut(), alg.as_ptr(), ptr::null());
            assert!(!mac.is_null(), "EVP_MAC_fetch {alg:?}");
            let ctx = ffi::EVP_MAC_CTX_new(mac);
            ffi::EVP_MAC_free(mac);
            assert!(!ctx.is_null());
            let mut params = Vec::new();
            if let Some((name, value)) = param {
                params.push(OSSL_PARAM_construct_utf8_string(
                    name.as_ptr(),
                    value.as_ptr() as *mut c_char,
                    0,
                ));
            }
            params.push(ffi::OSSL_PARAM_construct_end());
            let ok = ffi::EVP_MAC_init(ctx, key.as_ptr(), key.len(), params.as_ptr());
            assert_eq!(ok, 1, "EVP_MAC_init {alg:?}");
            Mac(ctx)
        }
    }

    /// The tag of `data` into `out`; returns its length.
    pub fn mac(&self, data: &[u8], out: &mut [u8]) -> usize {
        // SAFETY: the copy is ours and freed before returning; `out` bounds what
        // EVP_MAC_final may write.
        unsafe {
            let c = ffi::EVP_MAC_CTX_dup(self.0);
            assert!(!c.is_null());
            let mut n = 0usize;
            let ok = ffi::EVP_MAC_update(c, data.as_ptr(), data.len()) == 1
                && ffi::EVP_MAC_final(c, out.as_mut_ptr(), &mut n, out.len()) == 1;
            ffi::EVP_MAC_CTX_free(c);
            assert!(ok, "EVP_MAC_update/final");
            n
        }
    }
}

impl Drop for Mac {
    fn drop(&mut self) {
        // SAFETY: we own the context and free it once.
        unsafe { ffi::EVP_MAC_CTX_free(self.0) }
    }
}
