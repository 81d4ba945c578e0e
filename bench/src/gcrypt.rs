//! libgcrypt (system library) through its C API: GOST 28147-89 (ECB, CTR, CFB, the
//! imitovstavka MAC) with the test S-box, GOST R 34.11-94 (= GOST 34.311-95 with the test
//! S-box), DES and 3DES.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::{imp, Op, Row};

type H = *mut c_void;

extern "C" {
    fn gcry_check_version(req: *const c_char) -> *const c_char;
    fn gcry_control(cmd: c_int, ...) -> c_uint;
    fn gcry_cipher_open(h: *mut H, algo: c_int, mode: c_int, flags: c_uint) -> c_uint;
    fn gcry_cipher_setkey(h: H, key: *const c_void, len: usize) -> c_uint;
    fn gcry_cipher_setiv(h: H, iv: *const c_void, len: usize) -> c_uint;
    fn gcry_cipher_setctr(h: H, ctr: *const c_void, len: usize) -> c_uint;
    fn gcry_cipher_ctl(h: H, cmd: c_int, buf: *mut c_void, len: usize) -> c_uint;
    fn gcry_cipher_encrypt(
        h: H,
        out: *mut c_void,
        olen: usize,
        inp: *const c_void,
        ilen: usize,
    ) -> c_uint;
    fn gcry_cipher_decrypt(
        h: H,
        out: *mut c_void,
        olen: usize,
        inp: *const c_void,
        ilen: usize,
    ) -> c_uint;
    fn gcry_md_hash_buffer(algo: c_int, digest: *mut c_void, buf: *const c_void, len: usize);
    fn gcry_mac_open(h: *mut H, algo: c_int, flags: c_uint, ctx: *mut c_void) -> c_uint;
    fn gcry_mac_setkey(h: H, key: *const c_void, len: usize) -> c_uint;
    fn gcry_mac_ctl(h: H, cmd: c_int, buf: *mut c_void, len: usize) -> c_uint;
    fn gcry_mac_write(h: H, buf: *const c_void, len: usize) -> c_uint;
    fn gcry_mac_read(h: H, buf: *mut c_void, len: *mut usize) -> c_uint;
}

const GCRYCTL_INITIALIZATION_FINISHED: c_int = 38;
const GCRYCTL_RESET: c_int = 4;
const GCRYCTL_SET_SBOX: c_int = 73;
const CIPHER_3DES: c_int = 2;
const CIPHER_DES: c_int = 302;
const CIPHER_GOST28147: c_int = 315;
const MODE_ECB: c_int = 1;
const MODE_CFB: c_int = 2;
const MODE_CBC: c_int = 3;
const MODE_CTR: c_int = 6;
const MD_GOSTR3411_94: c_int = 308;
const MAC_GOST28147_IMIT: c_int = 1;
/// id-GostR3411-94-TestParamSet: the test S-box of GOST R 34.11-94 (= `Sbox::TEST`).
const TEST_SBOX: &[u8] = b"1.2.643.2.2.30.0\0";

fn ok(e: c_uint, what: &str) {
    assert_eq!(e, 0, "libgcrypt {what}: error {e}");
}

fn init() {
    // SAFETY: plain library initialisation with a null version requirement.
    unsafe {
        assert!(!gcry_check_version(std::ptr::null()).is_null());
        gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
    }
}

/// A cipher handle keyed once; each call resets the IV (or counter) and processes the
/// buffer in place.
fn cipher(algo: c_int, mode: c_int, key: &[u8], iv: Option<[u8; 8]>, decrypt: bool) -> Op {
    let mut h: H = std::ptr::null_mut();
    // SAFETY: handle creation and keying with buffers valid for the lengths given; the
    // S-box OID is a NUL-terminated string.
    unsafe {
        ok(gcry_cipher_open(&mut h, algo, mode, 0), "cipher_open");
        if algo == CIPHER_GOST28147 {
            ok(
                gcry_cipher_ctl(h, GCRYCTL_SET_SBOX, TEST_SBOX.as_ptr() as *mut c_void, 0),
                "set_sbox",
            );
        }
        ok(
            gcry_cipher_setkey(h, key.as_ptr().cast(), key.len()),
            "setkey",
        );
    }
    Box::new(move |buf, _| {
        // SAFETY: `h` is a live handle; `buf` is valid for its length (in place: null
        // input).
        unsafe {
            if let Some(v) = iv {
                if mode == MODE_CTR {
                    ok(gcry_cipher_setctr(h, v.as_ptr().cast(), 8), "setctr");
                } else {
                    ok(gcry_cipher_setiv(h, v.as_ptr().cast(), 8), "setiv");
                }
            }
            let f = if decrypt {
                gcry_cipher_decrypt
            } else {
                gcry_cipher_encrypt
            };
            ok(
                f(h, buf.as_mut_ptr().cast(), buf.len(), std::ptr::null(), 0),
                "crypt",
            );
        }
        0
    })
}

fn imit(key: &[u8]) -> Op {
    let mut h: H = std::ptr::null_mut();
    // SAFETY: as in `cipher`.
    unsafe {
        ok(
            gcry_mac_open(&mut h, MAC_GOST28147_IMIT, 0, std::ptr::null_mut()),
            "mac_open",
        );
        ok(
            gcry_mac_ctl(h, GCRYCTL_SET_SBOX, TEST_SBOX.as_ptr() as *mut c_void, 0),
            "mac set_sbox",
        );
        ok(
            gcry_mac_setkey(h, key.as_ptr().cast(), key.len()),
            "mac_setkey",
        );
    }
    Box::new(move |buf, out| {
        let mut n = 4usize;
        // SAFETY: `h` is live; `buf` and `out` (64 bytes, 4 read) are valid.
        unsafe {
            ok(
                gcry_mac_ctl(h, GCRYCTL_RESET, std::ptr::null_mut(), 0),
                "mac reset",
            );
            ok(
                gcry_mac_write(h, buf.as_ptr().cast(), buf.len()),
                "mac_write",
            );
            ok(
                gcry_mac_read(h, out.as_mut_ptr().cast(), &mut n),
                "mac_read",
            );
        }
        n
    })
}

fn hash() -> Op {
    Box::new(|buf, out| {
        // SAFETY: `out` has room for the 32-byte digest; `buf` is valid for its length.
        unsafe {
            gcry_md_hash_buffer(
                MD_GOSTR3411_94,
                out.as_mut_ptr().cast(),
                buf.as_ptr().cast(),
                buf.len(),
            )
        };
        32
    })
}

/// Adds the libgcrypt implementations to the rows that have one.
pub fn add(rows: &mut [Row], k32: &[u8], iv: &[u8; 8]) {
    init();
    let k24: Vec<u8> = (0..24u8)
        .map(|i| i.wrapping_mul(29).wrapping_add(7))
        .collect();
    let iv = Some(*iv);
    let g = CIPHER_GOST28147;
    for r in rows.iter_mut() {
        let (same, op) = match r.name {
            "gost28147-ecb" => (true, cipher(g, MODE_ECB, k32, None, false)),
            "gost28147-ctr" => (false, cipher(g, MODE_CTR, k32, iv, false)),
            "gost28147-cfb" => (true, cipher(g, MODE_CFB, k32, iv, false)),
            "gost28147-cfb-dec" => (true, cipher(g, MODE_CFB, k32, iv, true)),
            "gost28147-mac" => (true, imit(k32)),
            "gost34311" => (true, hash()),
            "des-ecb" => (true, cipher(CIPHER_DES, MODE_ECB, &k24[..8], None, false)),
            "des-ede3-ecb" => (true, cipher(CIPHER_3DES, MODE_ECB, &k24, None, false)),
            "des-ede3-cbc" => (true, cipher(CIPHER_3DES, MODE_CBC, &k24, iv, false)),
            "des-ede3-cbc-dec" => (true, cipher(CIPHER_3DES, MODE_CBC, &k24, iv, true)),
            _ => continue,
        };
        r.imps.push(imp("libgcrypt", same, op));
    }
}
