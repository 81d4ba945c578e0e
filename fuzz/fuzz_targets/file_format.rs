//! The `shyfr encrypt` file format: the command's own header parser
//! (`crates/shyfr-cli/src/encrypt/format.rs`, compiled in here as a module, since the
//! command is not a library) and the Cobblestone chunked open paths behind it (one-shot
//! `open`, the streaming `Decryptor`, the random-access `SeekingDecryptor`).
//!
//! Two kinds of input: (0) arbitrary bytes as a whole file: the parser either refuses them
//! or returns a header whose bytes are exactly the file's first bytes and which writes
//! back to them, having read nothing past it; every open path refuses the rest without a
//! panic. (1) A valid file (header with fuzzed fields, a message of up to 3 chunks sealed
//! under a fixed key, the header as the context), then damaged (bytes flipped, cut,
//! inserted, removed): every open path returns the message or an error, never another
//! message; the streaming decryptor releases only a prefix of the message, made of whole
//! chunks when it fails, and keeps failing; a seek-and-read returns only the message's
//! bytes at that position.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/shyfr-cli/src/encrypt/format.rs"]
mod format;

use std::io::{Cursor, Read, Seek, SeekFrom};

use format::{Argon2Params, Header, KeySource};
use libfuzzer_sys::fuzz_target;
use shyfr::aead::chunked::{Cobblestone, Decryptor, Encryptor, SeekingDecryptor, Suite, CHUNK_LEN};
use shyfr_fuzz::Input;

/// The header parser on `file`: on success its bytes are the file's first bytes, the
/// header writes back to them, and the reader stands right after them.
fn parse(file: &[u8]) -> Option<(Header, Vec<u8>)> {
    let mut r = Cursor::new(file);
    let (h, bytes) = Header::read(&mut r).ok()?;
    assert_eq!(&file[..bytes.len()], &bytes[..], "header bytes");
    assert_eq!(h.to_bytes(), bytes, "header round trip");
    assert_eq!(r.position() as usize, bytes.len(), "read past the header");
    Some((h, bytes))
}

fn key_for(suite: Suite) -> Cobblestone {
    Cobblestone::new(suite, &[0x5a; 64][..suite.key_len()]).expect("valid key length")
}

/// Every open path on `body` under `key` and `context`. `msg` is the message that was
/// sealed (none for arbitrary bytes), `intact` whether `body` is exactly what sealing
/// wrote. A whole-message open succeeds only on an intact body, and gives `msg`; any
/// plaintext byte released (a streaming prefix, a random-access read of a chunk the
/// damage left alone) is the message's byte at that position.
fn open_all(
    key: &Cobblestone,
    context: &[u8],
    body: &[u8],
    msg: Option<&[u8]>,
    intact: bool,
    inp: &mut Input,
) {
    let whole = |got: &[u8], path: &str| {
        assert!(intact, "{path} opened a damaged or arbitrary input");
        assert_eq!(Some(got), msg, "{path} opened to another message");
    };
    let part = |at: usize, got: &[u8], path: &str| {
        let m = msg.unwrap_or_else(|| panic!("{path} released bytes of an arbitrary input"));
        assert!(
            at + got.len() <= m.len(),
            "{path} released bytes past the end"
        );
        assert_eq!(
            got,
            &m[at..at + got.len()],
            "{path} released other bytes at {at}"
        );
    };
    if let Ok(m) = key.open(context, body) {
        whole(&m, "open");
    }
    // Streaming, in reads of random sizes.
    let batch = 1 + inp.below(3);
    if let Ok(d) = Decryptor::new(key, context, body) {
        let mut d = d.with_batch_chunks(batch);
        let mut got = Vec::new();
        let mut buf = vec![0u8; 1 + inp.below(40_000)];
        loop {
            match d.read(&mut buf) {
                Ok(0) => {
                    whole(&got, "Decryptor");
                    break;
                }
                Ok(n) => {
                    part(got.len(), &buf[..n], "Decryptor");
                    got.extend_from_slice(&buf[..n]);
                }
                Err(_) => {
                    assert_eq!(
                        got.len() % CHUNK_LEN,
                        0,
                        "Decryptor released part of a chunk"
                    );
                    assert!(d.read(&mut buf).is_err(), "Decryptor forgot its error");
                    break;
                }
            }
        }
    }
    // Random access: a few seeks and reads.
    if let Ok(mut s) = SeekingDecryptor::new(key, context, Cursor::new(body)) {
        for _ in 0..1 + inp.below(4) {
            let mut buf = vec![0u8; 1 + inp.below(20_000)];
            let to = if inp.bool() {
                SeekFrom::Start(inp.below(40_000) as u64)
            } else {
                SeekFrom::End(-(inp.below(20_000) as i64))
            };
            let Ok(at) = s.seek(to) else { continue };
            match s.read(&mut buf) {
                Ok(0) => {
                    // The end, reached only once the final chunk authenticated (an
                    // earlier chunk may be damaged): at or past the message's length.
                    let m = msg.expect("SeekingDecryptor found the end of an arbitrary input");
                    assert!(
                        at as usize >= m.len(),
                        "SeekingDecryptor ended early at {at}"
                    );
                }
                Ok(n) => part(at as usize, &buf[..n], "SeekingDecryptor"),
                Err(_) => {}
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    if inp.u8() & 1 == 0 {
        let file = inp.rest();
        if let Some((h, bytes)) = parse(&file) {
            open_all(
                &key_for(h.suite),
                &bytes,
                &file[bytes.len()..],
                None,
                false,
                &mut Input::new(&file),
            );
        }
        // Whatever the header said, the chunked layer refuses arbitrary bytes.
        open_all(
            &key_for(Suite::Cobblestone256),
            b"",
            &file,
            None,
            false,
            &mut Input::new(&file),
        );
        return;
    }
    // A valid file.
    // The suites the format names (AES-GCM Cobblestone and the Kalyna GCM ones).
    let suite = inp.pick(&format::AEADS).1;
    let source = if inp.bool() {
        KeySource::KeyFile
    } else {
        let mut salt = [0u8; 16];
        salt.copy_from_slice(&inp.bytes(16));
        KeySource::Passphrase(Argon2Params {
            memory_kib: 64 + inp.below(1 << 15) as u32,
            passes: 1 + inp.below(32) as u32,
            lanes: 1 + inp.below(8) as u32,
            salt,
        })
    };
    let header = Header { suite, source };
    let hb = header.to_bytes();
    let key = key_for(suite);
    let mut salt = [0u8; 24];
    salt.copy_from_slice(&inp.bytes(24));
    let len = inp.below(3 * CHUNK_LEN + 100);
    let seed = inp.u8();
    let msg: Vec<u8> = (0..len)
        .map(|i| (i as u8).wrapping_mul(seed) ^ (i >> 8) as u8)
        .collect();
    let mut enc = Encryptor::with_salt(&key, &salt, &hb, Vec::new()).expect("encryptor");
    std::io::Write::write_all(&mut enc, &msg).expect("write");
    let mut file = hb.clone();
    file.extend_from_slice(&enc.finish().expect("finish"));
    let intact = file.clone();
    // Damage.
    for _ in 0..inp.below(4) {
        let at = inp.below(file.len() + 1);
        match inp.below(4) {
            0 => {
                if at < file.len() {
                    file[at] ^= 1 << inp.below(8);
                }
            }
            1 => file.truncate(at),
            2 => {
                let extra = inp.data(40);
                file.splice(at..at, extra);
            }
            _ => {
                let end = (at + inp.below(20_000)).min(file.len());
                file.drain(at..end);
            }
        }
    }
    let Some((h, bytes)) = parse(&file) else {
        assert_ne!(
            file[..hb.len().min(file.len())],
            hb[..],
            "valid header refused"
        );
        return;
    };
    // An intact file opens; a damaged one opens only if the damage changed nothing.
    if file == intact {
        assert_eq!(h, header);
        assert_eq!(
            key.open(&bytes, &file[bytes.len()..]).as_deref(),
            Ok(&msg[..])
        );
    }
    let ok = file == intact;
    open_all(
        &key_for(h.suite),
        &bytes,
        &file[bytes.len()..],
        Some(&msg),
        ok,
        &mut inp,
    );
});
