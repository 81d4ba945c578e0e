//! The national and legacy ciphers through the real binary: Kalyna (DSTU 7624:2014),
//! GOST 28147-89, GOST 34.311-95 and triple DES in `shyfr enc`, `shyfr mac`, `shyfr hash`
//! and `shyfr speed`.
//!
//! Known answers come from `testdata/kalyna/`, `testdata/gost/` and `testdata/des/` (each
//! file names its sources) and run once for every backend of the family that this machine
//! has: a `--cpu portable,+FEATURE...` override enabling exactly the backend's features makes
//! the library select it, which `shyfr cpu --json` confirms before the vectors run. Triple
//! DES is also compared byte for byte with the `openssl` binary (skipped with a note when
//! it is not installed), with and without OpenSSL 3's legacy provider. Large inputs are
//! checked against the library itself, so the command's streaming (chunks, carried
//! segments and padding blocks) is checked too, not only its round trips.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
use common::{
    backend_specs, cpu_json, field, h, ok, rsp_records, run_with, shyfr, unhex, Rng, BIN,
};

/// Fails with `code`, one error line in the command's style that mentions `needle`, and
/// nothing on standard output.
fn fails(args: &[&str], input: &[u8], code: i32, needle: &str) {
    let r = shyfr(args, input);
    assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
    assert!(r.stdout.is_empty(), "{args:?} wrote output");
    assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
    assert!(r.stderr.starts_with("shyfr: "), "{args:?}: {}", r.stderr);
    assert!(
        r.stderr.contains(needle),
        "{args:?}: {:?} lacks {needle:?}",
        r.stderr
    );
}

fn testdata_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata")
        .join(rel)
}

fn testdata(rel: &str) -> String {
    let p = testdata_path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn json(rel: &str) -> Value {
    serde_json::from_str(&testdata(rel)).expect("json")
}

fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v[k].as_str().unwrap_or_else(|| panic!("no {k} in {v}"))
}

fn n(v: &Value, k: &str) -> usize {
    v[k].as_u64().unwrap_or_else(|| panic!("no {k} in {v}")) as usize
}

fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("shyfr-national-{tag}-"))
        .tempdir()
        .unwrap()
}

// ---- Kalyna ------------------------------------------------------------------------------

/// The `shyfr enc` arguments of a Kalyna vector of `mode`: cipher, key, IV, and `-nopad`
/// for the examples of whole blocks (the standard pads only a partial block), `-segment`
/// for CFB with segments shorter than the block.
fn kalyna_enc_args(mode: &str, v: &Value) -> Vec<String> {
    let (b, k) = (n(v, "block_bits"), n(v, "key_bits"));
    let mut args = vec![
        "enc".to_string(),
        format!("-kalyna-{b}-{k}-{mode}"),
        "-K".into(),
        s(v, "key").into(),
    ];
    if mode != "ecb" {
        args.extend(["-iv".into(), s(v, "iv").into()]);
    }
    if (mode == "ecb" || mode == "cbc") && v.get("padding").is_none() {
        args.push("-nopad".into());
    }
    if mode == "cfb" && n(v, "q_bytes") != b / 8 {
        args.extend(["-segment".into(), n(v, "q_bytes").to_string()]);
    }
    args
}

/// `shyfr --cpu SPEC enc ARGS` turns `pt` into `ct`, and `ARGS -d` turns `ct` back.
fn enc_both_ways(spec: &str, args: &[&str], pt: &[u8], ct: &[u8], what: &str) {
    assert!(ok(Some(spec), args, pt) == ct, "{what}: encryption");
    let dec = [args, &["-d"]].concat();
    assert!(ok(Some(spec), &dec, ct) == pt, "{what}: decryption");
}

#[test]
fn kalyna_enc_vectors_on_every_backend() {
    for (backend, spec) in backend_specs("kalyna") {
        let mut checked = 0;
        for mode in ["ecb", "cbc", "ctr", "cfb", "ofb"] {
            for v in json(&format!("kalyna/{mode}.json"))["vectors"]
                .as_array()
                .unwrap()
            {
                let args = kalyna_enc_args(mode, v);
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let (pt, ct) = (unhex(s(v, "plaintext")), unhex(s(v, "ciphertext")));
                let what = format!("{backend} {mode} vector {}", v["id"]);
                enc_both_ways(&spec, &args, &pt, &ct, &what);
                checked += 1;
            }
        }
        // ECB 10, CBC 10, CTR 4, CFB 8, OFB 9.
        assert_eq!(checked, 41, "{backend}");
        println!("kalyna enc on {backend}: {checked} vectors, both directions");
    }
}

#[test]
fn kalyna_mac_vectors_on_every_backend() {
    let cmac = json("kalyna/cmac.json");
    let gcm = json("kalyna/gcm.json");
    let gmac = gcm["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["type"] == "gmac");
    let vectors: Vec<(&str, &Value)> = cmac["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| ("cmac", v))
        .chain(gmac.map(|v| ("gmac", v)))
        .collect();
    for (backend, spec) in backend_specs("kalyna") {
        let mut checked = 0;
        for (mode, v) in &vectors {
            let name = format!("kalyna-{}-{}-{mode}", v["block_bits"], v["key_bits"]);
            let q = n(v, "q_bytes").to_string();
            let out = ok(
                Some(&spec),
                &["mac", &name, "--key-hex", s(v, "key"), "--length", &q],
                &unhex(s(v, "message")),
            );
            let want = format!("{}  -\n", s(v, "mac").to_ascii_lowercase());
            assert_eq!(String::from_utf8(out).unwrap(), want, "{backend} {name}");
            checked += 1;
        }
        // CMAC 3, GMAC 5.
        assert_eq!(checked, 8, "{backend}");
        println!("kalyna mac on {backend}: {checked} vectors");
    }
    // Without --length the tag is a whole block.
    let key = "00".repeat(64);
    let out = ok(
        None,
        &["mac", "kalyna-512-512-gmac", "--key-hex", &key],
        b"x",
    );
    assert_eq!(out.len(), 128 + 4);
}

/// Vector 2 of the standard's CBC examples is the one with a partial last block: shyfr's
/// default padding (0x80 00..) gives its ciphertext and takes it back; for whole blocks it
/// adds a block of 0x80 00.. so that decryption can tell.
#[test]
fn kalyna_padding_is_the_standards() {
    let cbc = json("kalyna/cbc.json");
    let v = &cbc["vectors"][1];
    assert_eq!(v["padding"], "0x80 then zeros");
    let args = [
        "enc",
        "-kalyna-128-256-cbc",
        "-K",
        s(v, "key"),
        "-iv",
        s(v, "iv"),
    ];
    let (pt, ct) = (unhex(s(v, "plaintext")), unhex(s(v, "ciphertext")));
    assert_eq!(pt.len(), 46);
    assert!(ok(None, &args, &pt) == ct);
    assert!(ok(None, &[&args[..], &["-d"]].concat(), &ct) == pt);
    // The padded plaintext of the vector is what -nopad decryption shows.
    let raw = ok(None, &[&args[..], &["-d", "-nopad"]].concat(), &ct);
    assert_eq!(h(&raw), s(v, "padded_plaintext").to_ascii_lowercase());

    // Whole blocks: one more block, 80 00 .. 00.
    let key = "0f".repeat(64);
    for (cipher, block) in [("-kalyna-512-512-ecb", 64), ("-kalyna-256-512-cbc", 32)] {
        let iv = "a5".repeat(block);
        let mut a = vec!["enc", cipher, "-K", &key];
        if cipher.ends_with("cbc") {
            a.extend(["-iv", iv.as_str()]);
        }
        let msg = vec![7u8; 2 * block];
        let ct = ok(None, &a, &msg);
        assert_eq!(ct.len(), 3 * block, "{cipher}");
        let raw = ok(None, &[&a[..], &["-d", "-nopad"]].concat(), &ct);
        assert_eq!(raw[2 * block], 0x80, "{cipher}");
        assert!(raw[2 * block + 1..].iter().all(|&b| b == 0), "{cipher}");
        assert!(ok(None, &[&a[..], &["-d"]].concat(), &ct) == msg);
        // A last block without the 0x80 marker is a bad decrypt, exit status 1.
        let bad = ok(None, &[&a[..], &["-nopad"]].concat(), &vec![0u8; 2 * block]);
        let r = shyfr(&[&a[..], &["-d"]].concat(), &bad);
        assert_eq!(r.code, 1, "{cipher}: {}", r.stderr);
        assert!(r.stderr.contains("bad decrypt"), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1);
        // Not whole blocks with -nopad: exit status 1, naming the block length.
        let r = shyfr(&[&a[..], &["-nopad"]].concat(), &[1u8; 10]);
        assert_eq!(r.code, 1);
        assert!(
            r.stderr.contains(&format!("{block}-byte blocks")),
            "{}",
            r.stderr
        );
    }
}

/// Every Kalyna cipher of `shyfr enc`, on lengths around its block, round trips; and on a
/// message longer than the command's read chunk (4 MiB) the output equals the library's
/// one-call result (chunks, carried CFB segments and padding included).
#[test]
fn kalyna_round_trips_and_streams_like_the_library() {
    use shyfr::kalyna::Kalyna128_256;
    use shyfr::mode::dstu7624::{cfb::Cfb, ctr::Ctr};
    let list = String::from_utf8(ok(None, &["enc", "-list"], b"")).unwrap();
    let kalyna: Vec<&str> = list.lines().filter(|c| c.starts_with("-kalyna")).collect();
    assert_eq!(kalyna.len(), 25, "{list}");
    let mut rng = Rng(0x6b61_6c79_6e61);
    for c in kalyna {
        let bits: Vec<usize> = c.split('-').filter_map(|p| p.parse().ok()).collect();
        let (block, key) = (bits[0] / 8, bits[1] / 8);
        let k = h(&rng.bytes(key));
        let iv = h(&rng.bytes(block));
        let mut args = vec!["enc", c, "-K", &k];
        if !c.ends_with("ecb") {
            args.extend(["-iv", iv.as_str()]);
        }
        for len in [0, 1, block - 1, block, block + 1, 3 * block + 5, 1000] {
            let pt = rng.bytes(len);
            let ct = ok(None, &args, &pt);
            let padded = c.ends_with("ecb") || c.ends_with("cbc");
            let want_len = if padded {
                (len / block + 1) * block
            } else {
                len
            };
            assert_eq!(ct.len(), want_len, "{c} {len}");
            assert!(
                ok(None, &[&args[..], &["-d"]].concat(), &ct) == pt,
                "{c} {len}"
            );
        }
    }

    let key: [u8; 32] = core::array::from_fn(|i| i as u8 * 3 + 1);
    let iv = [0x5au8; 16];
    let k = Kalyna128_256::new(&key);
    let big = rng.bytes((4 << 20) + 13);
    let (kh, ivh) = (h(&key), h(&iv));
    let base = ["enc", "-K", kh.as_str(), "-iv", ivh.as_str()];

    let mut want = big.clone();
    Ctr::new(&k, &iv)
        .unwrap()
        .apply_keystream(&mut want)
        .unwrap();
    let got = ok(None, &[&base[..], &["-kalyna-128-256-ctr"]].concat(), &big);
    assert!(got == want, "ctr over 4 MiB");

    for q in [16usize, 7, 1] {
        let mut want = big.clone();
        Cfb::new(&k, &iv, q).unwrap().encrypt(&mut want).unwrap();
        let qs = q.to_string();
        let a = [&base[..], &["-kalyna-128-256-cfb", "-segment", &qs]].concat();
        let got = ok(None, &a, &big);
        assert!(got == want, "cfb segment {q} over 4 MiB");
        assert!(
            ok(None, &[&a[..], &["-d"]].concat(), &got) == big,
            "cfb {q} -d"
        );
    }

    // CBC with the standard's padding, against the library's CBC over the padded message.
    let mut padded = big.clone();
    padded.push(0x80);
    padded.resize(padded.len().next_multiple_of(16), 0);
    shyfr::mode::cbc::Cbc::new(&k)
        .encrypt(&iv, &mut padded)
        .unwrap();
    let a = [&base[..], &["-kalyna-128-256-cbc"]].concat();
    let got = ok(None, &a, &big);
    assert!(got == padded, "cbc over 4 MiB");
    assert!(ok(None, &[&a[..], &["-d"]].concat(), &got) == big);
}

// ---- GOST 28147-89 ----------------------------------------------------------------------

/// Writes the S-boxes of the vector file in three file forms and returns their paths:
/// `(name, [hex of 128 nibbles, packed 64 bytes raw, packed 64 bytes as hex])`.
fn sbox_files(dir: &Path) -> Vec<(String, Vec<PathBuf>)> {
    let g = json("gost/gost28147.json");
    let mut out = Vec::new();
    for (name, sb) in g["sboxes"].as_object().unwrap() {
        let nibbles = s(sb, "sbox_hex_k1_to_k8");
        let packed = unhex(s(sb, "dke_packed_64"));
        let files = [
            (format!("{name}.hex"), nibbles.as_bytes().to_vec()),
            (format!("{name}.bin"), packed.clone()),
            (
                format!("{name}.packed.txt"),
                format!("{}\n", h(&packed)).into_bytes(),
            ),
        ];
        let mut paths = Vec::new();
        for (f, data) in files {
            let p = dir.join(f);
            std::fs::write(&p, data).unwrap();
            paths.push(p);
        }
        out.push((name.to_ascii_lowercase(), paths));
    }
    out
}

#[test]
fn gost28147_enc_vectors_on_every_backend() {
    let g = json("gost/gost28147.json");
    let vectors: Vec<&Value> = g["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["mode"] != "mac")
        .collect();
    for (backend, spec) in backend_specs("gost28147") {
        let mut checked = 0;
        for v in &vectors {
            let mode = s(v, "mode");
            let cipher = format!("-gost28147-{mode}");
            let sbox = s(v, "sbox").to_ascii_lowercase();
            let mut args = vec!["enc", &cipher, "-K", s(v, "key"), "-sbox", &sbox];
            if mode == "ecb" {
                args.push("-nopad");
            } else {
                args.extend(["-iv", s(v, "iv")]);
            }
            let (pt, ct) = (unhex(s(v, "plaintext")), unhex(s(v, "ciphertext")));
            let what = format!("{backend} vector {} ({mode}, {sbox})", v["id"]);
            enc_both_ways(&spec, &args, &pt, &ct, &what);
            checked += 1;
        }
        // ECB 10, CTR 2, CFB 2.
        assert_eq!(checked, 14, "{backend}");
        println!("gost28147 enc on {backend}: {checked} vectors, both directions");
    }
}

#[test]
fn gost28147_sbox_files_and_names_agree() {
    let dir = scratch("sbox");
    let key = "3f".repeat(32);
    let iv = "0102030405060708";
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
    let mut checked = 0;
    for (name, files) in sbox_files(dir.path()) {
        for mode in ["ecb", "ctr", "cfb"] {
            let cipher = format!("-gost28147-{mode}");
            let by_name = ok(
                None,
                &["enc", &cipher, "-K", &key, "-iv", iv, "-sbox", &name],
                &msg,
            );
            for f in &files {
                let fs = f.to_str().unwrap();
                let by_file = ok(
                    None,
                    &["enc", &cipher, "-K", &key, "-iv", iv, "-sbox", fs],
                    &msg,
                );
                assert!(by_file == by_name, "{name} {mode} {fs}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 18);
    // Without -sbox: DKE No. 1.
    let a = ["enc", "-gost28147-ctr", "-K", &key, "-iv", iv];
    let dke = ok(None, &[&a[..], &["-sbox", "dke1"]].concat(), &msg);
    assert!(ok(None, &a, &msg) == dke);
    let test = ok(None, &[&a[..], &["-sbox", "test"]].concat(), &msg);
    assert!(test != dke);
}

#[test]
fn gost28147_bad_sbox_files_are_clear_errors() {
    let dir = scratch("badsbox");
    let d = dir.path();
    let key = "3f".repeat(32);
    let mut bad_row = shyfr::gost28147::Sbox::DKE1.to_expanded();
    bad_row[40] = bad_row[41]; // row K3 repeats a value
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("short", vec![1u8; 63], "63 bytes"),
        ("long", vec![1u8; 129], "129 bytes"),
        ("empty", Vec::new(), "0 bytes"),
        ("row", bad_row.to_vec(), "row K3 is not a permutation"),
        ("big-nibble", vec![16u8; 128], "above 15"),
        ("hex-odd", b"0a0b0c".repeat(40).to_vec(), "bytes"),
        ("huge", vec![b'0'; 10000], "longer than"),
    ];
    for (name, data, needle) in cases {
        let p = d.join(name);
        std::fs::write(&p, data).unwrap();
        let ps = p.to_str().unwrap();
        let out = d.join("out");
        let outs = out.to_str().unwrap();
        let args = [
            "enc",
            "-gost28147-ecb",
            "-K",
            &key,
            "-sbox",
            ps,
            "-out",
            outs,
        ];
        fails(&args, b"data", 2, needle);
        fails(&args, b"data", 2, "not a GOST 28147-89 S-box");
        assert!(!out.exists(), "{name}: an output file appeared");
        fails(
            &["mac", "gost28147-mac", "--key-hex", &key, "--sbox", ps],
            b"data",
            2,
            needle,
        );
        fails(&["hash", "gost34311", "--sbox", ps], b"data", 2, needle);
    }
    // Neither a name nor a file: a usage error naming the names.
    fails(
        &["enc", "-gost28147-ecb", "-K", &key, "-sbox", "dke2"],
        b"",
        2,
        "dke1, test",
    );
    // A folder: a failure to read it (exit status 1).
    let ds = d.to_str().unwrap();
    fails(
        &["enc", "-gost28147-ecb", "-K", &key, "-sbox", ds],
        b"",
        1,
        "Is a directory",
    );
    // -sbox with another cipher, --sbox with another algorithm.
    let k16 = "00".repeat(16);
    fails(
        &["enc", "-aes-128-ecb", "-K", &k16, "-sbox", "test"],
        b"",
        2,
        "only for the GOST",
    );
    fails(&["hash", "sha256", "--sbox", "test"], b"", 2, "gost34311");
    fails(
        &["mac", "hmac-gost34311", "--key-hex", "00", "--sbox", "test"],
        b"",
        2,
        "gost28147-mac",
    );
}

#[test]
fn gost28147_mac_vector_on_every_backend() {
    let g = json("gost/gost28147.json");
    let v = g["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["mode"] == "mac")
        .unwrap();
    let msg = unhex(s(v, "message"));
    let want = s(v, "mac").to_ascii_lowercase();
    for (backend, spec) in backend_specs("gost28147") {
        let args = ["mac", "gost28147-mac", "--key-hex", s(v, "key"), "--sbox"];
        let out = ok(Some(&spec), &[&args[..], &["test"]].concat(), &msg);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("{want}  -\n"),
            "{backend}"
        );
        // Truncated tags are its first bytes.
        for len in 1..=4 {
            let l = len.to_string();
            let out = ok(
                Some(&spec),
                &[&args[..], &["test", "--length", &l]].concat(),
                &msg,
            );
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("{}  -\n", &want[..2 * len]),
                "{backend} {len}"
            );
        }
        println!("gost28147-mac on {backend}: 1 vector, 4 truncations");
    }
    // The S-box changes the tag; DKE No. 1 is the default.
    let k = s(v, "key");
    let dke = ok(None, &["mac", "gost28147-mac", "--key-hex", k], &msg);
    let dke1 = ok(
        None,
        &["mac", "gost28147-mac", "--key-hex", k, "--sbox", "dke1"],
        &msg,
    );
    assert_eq!(dke, dke1);
    assert_ne!(String::from_utf8(dke).unwrap(), format!("{want}  -\n"));
}

// ---- GOST 34.311-95 ---------------------------------------------------------------------

#[test]
fn gost34311_hash_and_hmac_vectors_on_every_backend() {
    let g = json("gost/gost34311.json");
    let dir = scratch("gost34311");
    let mut files = Vec::new();
    for v in g["vectors"].as_array().unwrap() {
        if v.get("h0").is_some() {
            continue; // a starting value other than zero: not an option of the command
        }
        let mut msg = unhex(s(v, "message"));
        if let Some(r) = v["message_repeat"].as_u64() {
            msg = msg.repeat(r as usize);
        }
        let p = dir.path().join(format!("m{}", v["id"]));
        std::fs::write(&p, &msg).unwrap();
        files.push((p, s(v, "sbox").to_ascii_lowercase(), s(v, "digest")));
    }
    assert_eq!(files.len(), 15);
    let hv = &g["hmac_vectors"][0];
    assert_eq!(hv["sbox"], "DKE1");
    for (backend, spec) in backend_specs("gost34311") {
        for (p, sbox, digest) in &files {
            let ps = p.to_str().unwrap();
            let out = ok(Some(&spec), &["hash", "gost34311", "--sbox", sbox, ps], b"");
            let want = format!("{}  {ps}\n", digest.to_ascii_lowercase());
            assert_eq!(String::from_utf8(out).unwrap(), want, "{backend}");
            if sbox == "dke1" {
                let out = ok(Some(&spec), &["hash", "gost34311", ps], b"");
                assert_eq!(String::from_utf8(out).unwrap(), want, "{backend} default");
            }
        }
        let out = ok(
            Some(&spec),
            &["mac", "hmac-gost34311", "--key-hex", s(hv, "key")],
            &unhex(s(hv, "message")),
        );
        let want = format!("{}  -\n", s(hv, "mac").to_ascii_lowercase());
        assert_eq!(String::from_utf8(out).unwrap(), want, "{backend} hmac");
        println!("gost34311 on {backend}: 15 hash vectors, 1 HMAC vector");
    }
}

#[test]
fn gost34311_check_and_tag_lines() {
    let dir = scratch("gost34311-check");
    let d = dir.path();
    std::fs::write(d.join("a"), b"abc").unwrap();
    std::fs::write(d.join("b"), b"message digest").unwrap();
    let run = |args: &[&str]| {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(d)
            .env_remove("SHYFR_CPU")
            .output()
            .unwrap();
        (
            o.status.code().unwrap(),
            String::from_utf8(o.stdout).unwrap(),
        )
    };
    let (code, sums) = run(&["hash", "gost34311", "--sbox", "test", "a", "b"]);
    assert_eq!(code, 0);
    assert!(sums.starts_with("f3134348c44fb1b2"), "{sums}");
    std::fs::write(d.join("SUMS"), &sums).unwrap();
    let (code, out) = run(&["hash", "gost34311", "--sbox", "test", "-c", "SUMS"]);
    assert_eq!((code, out.as_str()), (0, "a: OK\nb: OK\n"));
    // The same sums do not verify with another S-box.
    let (code, _) = run(&["hash", "gost34311", "-c", "SUMS"]);
    assert_eq!(code, 1);
    let (code, out) = run(&["hash", "gost34311", "--tag", "a"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("GOST34311 (a) = "), "{out}");
}

// ---- triple DES -------------------------------------------------------------------------

#[test]
fn tdes_nist_mmt_vectors_on_every_backend() {
    for (backend, spec) in backend_specs("des") {
        let mut checked = 0;
        for (mode, cipher) in [("ECB", "-des-ede3-ecb"), ("CBC", "-des-ede3-cbc")] {
            for keying in 1..=3 {
                let file = format!("des/T{mode}MMT{keying}.rsp");
                for (section, rec) in rsp_records(&testdata(&file)) {
                    let key = format!(
                        "{}{}{}",
                        field(&rec, "KEY1"),
                        field(&rec, "KEY2"),
                        field(&rec, "KEY3")
                    );
                    let mut args = vec!["enc", cipher, "-K", &key, "-nopad"];
                    if mode == "CBC" {
                        args.extend(["-iv", field(&rec, "IV")]);
                    }
                    let (pt, ct) = (
                        unhex(field(&rec, "PLAINTEXT")),
                        unhex(field(&rec, "CIPHERTEXT")),
                    );
                    let what = format!("{backend} {file} {section} {}", field(&rec, "COUNT"));
                    if section == "ENCRYPT" {
                        assert!(ok(Some(&spec), &args, &pt) == ct, "{what}");
                    } else {
                        args.push("-d");
                        assert!(ok(Some(&spec), &args, &ct) == pt, "{what}");
                    }
                    checked += 1;
                }
            }
        }
        // 20 records in each of the six files.
        assert_eq!(checked, 120, "{backend}");
        println!("tdes enc on {backend}: {checked} NIST MMT records");
    }
}

fn openssl_works(args: &[&str]) -> bool {
    Command::new("openssl")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// `shyfr enc -des-ede3-{cbc,ecb}` and `openssl enc` agree byte for byte both ways, with
/// and without padding, and with OpenSSL 3's legacy provider loaded as well (where the
/// `openssl` binary has it).
#[test]
fn tdes_matches_openssl() {
    if !openssl_works(&["version"]) {
        eprintln!("note: no `openssl` binary found; skipping the comparison with openssl enc");
        return;
    }
    let key = "0123456789abcdeffedcba987654321089abcdef01234567";
    let mut prefixes: Vec<Vec<&str>> = vec![vec![]];
    let legacy = ["-provider", "legacy", "-provider", "default"];
    let probe = [
        &["enc"],
        &legacy[..],
        &["-des-ede3-ecb", "-K", key, "-in", "/dev/null"],
    ]
    .concat();
    if openssl_works(&probe) {
        prefixes.push(legacy.to_vec());
    } else {
        eprintln!("note: openssl has no legacy provider here; compared with the default one only");
    }
    let mut rng = Rng(0x3de5);
    let mut compared = 0;
    for prefix in &prefixes {
        for cipher in ["-des-ede3-cbc", "-des-ede3-ecb"] {
            for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 1000, 65537] {
                let key = h(&rng.bytes(24));
                let iv = h(&rng.bytes(8));
                let pt = rng.bytes(len);
                for nopad in [false, true] {
                    if nopad && len % 8 != 0 {
                        continue;
                    }
                    let mut args = vec![cipher, "-K", key.as_str()];
                    if cipher.ends_with("cbc") {
                        args.extend(["-iv", iv.as_str()]);
                    }
                    if nopad {
                        args.push("-nopad");
                    }
                    let what = format!("{prefix:?} {cipher} len {len} nopad {nopad}");
                    let ossl = |extra: &[&str], input: &[u8]| {
                        let a = [&["enc"], &prefix[..], &args[..], extra].concat();
                        let r = run_with("openssl", &a, input);
                        assert_eq!(r.code, 0, "openssl {what}: {}", r.stderr);
                        r.stdout
                    };
                    let ours = ok(None, &[&["enc"], &args[..]].concat(), &pt);
                    let theirs = ossl(&[], &pt);
                    assert!(ours == theirs, "{what}: ciphertexts differ");
                    let back = ok(None, &[&["enc", "-d"], &args[..]].concat(), &theirs);
                    assert!(back == pt, "{what}: shyfr -d of openssl's output");
                    assert!(ossl(&["-d"], &ours) == pt, "{what}: openssl -d of ours");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 28, "{compared}");
    println!("tdes against openssl: {compared} comparisons");
}

// ---- bad input --------------------------------------------------------------------------

#[test]
fn wrong_lengths_are_usage_errors() {
    let hex = |n: usize| "00".repeat(n);
    let (k16, k24, k32, k64) = (hex(16), hex(24), hex(32), hex(64));
    let (iv8, iv16, iv32) = (hex(8), hex(16), hex(32));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["-kalyna-128-256-cbc", "-K", &k16, "-iv", &iv16],
            "expected exactly 64",
        ),
        (
            vec!["-kalyna-512-512-ctr", "-K", &k64, "-iv", &iv32],
            "expected exactly 128",
        ),
        (
            vec!["-kalyna-256-256-ofb", "-K", &k32, "-iv", &iv16],
            "32-byte IV",
        ),
        (
            vec!["-kalyna-256-256-cfb", "-K", &k32],
            "an IV of 64 hex digits",
        ),
        (vec!["-kalyna-128-512-ecb", "-K", &k64], "unknown cipher"),
        (
            vec!["-kalyna-128-128-xts", "-K", &k16, "-iv", &iv16],
            "unknown cipher",
        ),
        (
            vec![
                "-kalyna-128-128-cfb",
                "-K",
                &k16,
                "-iv",
                &iv16,
                "-segment",
                "17",
            ],
            "1 to 16",
        ),
        (
            vec![
                "-kalyna-128-128-cfb",
                "-K",
                &k16,
                "-iv",
                &iv16,
                "-segment",
                "0",
            ],
            "1 to 16",
        ),
        (
            vec![
                "-kalyna-128-128-cfb",
                "-K",
                &k16,
                "-iv",
                &iv16,
                "-segment",
                "x",
            ],
            "1 to 16",
        ),
        (
            vec![
                "-kalyna-128-128-ofb",
                "-K",
                &k16,
                "-iv",
                &iv16,
                "-segment",
                "8",
            ],
            "-segment",
        ),
        (vec!["-gost28147-ecb", "-K", &k24], "expected exactly 64"),
        (
            vec!["-gost28147-ctr", "-K", &k32, "-iv", &iv16],
            "8-byte IV",
        ),
        (vec!["-gost28147-cfb", "-K", &k32], "an IV of 16 hex digits"),
        (vec!["-gost28147-mac", "-K", &k32], "unknown cipher"),
        (vec!["-gost28147-ecb", "-K", &k32, "-sbox"], "needs a value"),
        (
            vec!["-des-ede3-cbc", "-K", &k16, "-iv", &iv8],
            "expected exactly 48",
        ),
        (vec!["-des-ede3-cbc", "-K", &k24, "-iv", &iv16], "8-byte IV"),
        (vec!["-des-ede3-ecb", "-K", &k32], "expected exactly 48"),
        (vec!["-des-cbc", "-K", &k24, "-iv", &iv8], "unknown cipher"),
        (vec!["-des-ecb", "-K", &iv8], "unknown cipher"),
    ];
    for (args, needle) in cases {
        fails(&[&["enc"], &args[..]].concat(), b"data", 2, needle);
    }
    let mac_cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["kalyna-128-128-cmac", "--key-hex", &k32],
            "exactly 16 bytes",
        ),
        (
            vec!["kalyna-256-512-gmac", "--key-hex", &k32],
            "exactly 64 bytes",
        ),
        (vec!["gost28147-mac", "--key-hex", &k16], "exactly 32 bytes"),
        (
            vec!["kalyna-128-128-cmac", "--key-hex", &k16, "--length", "7"],
            "8 to 16",
        ),
        (
            vec!["kalyna-128-128-cmac", "--key-hex", &k16, "--length", "17"],
            "8 to 16",
        ),
        (
            vec!["kalyna-512-512-gmac", "--key-hex", &k64, "--length", "65"],
            "8 to 64",
        ),
        (
            vec!["gost28147-mac", "--key-hex", &k32, "--length", "5"],
            "1 to 4",
        ),
        (
            vec!["gost28147-mac", "--key-hex", &k32, "--length", "0"],
            "1 to 4",
        ),
        (
            vec!["hmac-gost34311", "--key-hex", &k16, "--length", "16"],
            "--length",
        ),
        (vec!["kalyna-128-128-ecb", "--key-hex", &k16], "unknown MAC"),
        (vec!["gost34311", "--key-hex", &k16], "unknown MAC"),
    ];
    for (args, needle) in mac_cases {
        fails(&[&["mac"], &args[..]].concat(), b"data", 2, needle);
    }
    fails(&["hash", "gost34311", "--length", "16"], b"", 2, "--length");
    fails(&["hash", "gost28147-mac"], b"", 2, "unknown hash");
}

#[test]
fn bad_padding_and_partial_blocks_are_failures() {
    let k32 = "11".repeat(32);
    let k24 = "0123456789abcdeffedcba987654321089abcdef01234567";
    let iv8 = "0001020304050607";
    for (cipher, key, iv) in [
        ("-gost28147-ecb", k32.as_str(), None),
        ("-des-ede3-ecb", k24, None),
        ("-des-ede3-cbc", k24, Some(iv8)),
    ] {
        let mut a = vec!["enc", cipher, "-K", key];
        if let Some(iv) = iv {
            a.extend(["-iv", iv]);
        }
        // One block, so that nothing is written before the end shows the error (a longer
        // streamed message has its earlier blocks written, as with OpenSSL).
        let zeros = ok(None, &[&a[..], &["-nopad"]].concat(), &[0u8; 8]);
        assert_eq!(zeros.len(), 8);
        fails(&[&a[..], &["-d"]].concat(), &zeros, 1, "bad decrypt");
        fails(&[&a[..], &["-d"]].concat(), &zeros[..4], 1, "8-byte blocks");
        fails(
            &[&a[..], &["-nopad"]].concat(),
            &[0u8; 4],
            1,
            "8-byte blocks",
        );
        fails(
            &[&a[..], &["-d", "-nopad"]].concat(),
            &[0u8; 4],
            1,
            "8-byte blocks",
        );
        fails(&[&a[..], &["-d"]].concat(), b"", 1, "bad decrypt");
    }
}

// ---- speed ------------------------------------------------------------------------------

/// The rows this file is about.
fn national_rows() -> Vec<String> {
    let mut rows = Vec::new();
    for v in ["128-128", "128-256", "256-256", "256-512", "512-512"] {
        for m in [
            "ecb", "ctr", "cbc", "cfb", "ofb", "xts", "cmac", "gmac", "gcm", "ccm",
        ] {
            rows.push(format!("kalyna-{v}-{m}"));
        }
    }
    for r in [
        "gost28147-ecb",
        "gost28147-ctr",
        "gost28147-cfb",
        "gost28147-mac",
        "gost34311",
        "hmac-gost34311",
        "des-ecb",
        "des-ede3-ecb",
        "des-ede3-cbc",
    ] {
        rows.push(r.to_string());
    }
    rows
}

fn speed_json(args: &[&str]) -> Vec<Value> {
    let out = ok(None, &[&["speed"], args, &["--json"]].concat(), b"");
    let v: Value = serde_json::from_slice(&out).expect("speed --json");
    v["results"].as_array().unwrap().clone()
}

#[test]
fn speed_lists_and_runs_every_row_against_portable() {
    let rows = national_rows();
    assert_eq!(rows.len(), 59);
    let list = String::from_utf8(ok(None, &["speed", "--list"], b"")).unwrap();
    for r in &rows {
        let line = list
            .lines()
            .find(|l| l.split_whitespace().next() == Some(r))
            .unwrap_or_else(|| panic!("--list lacks {r}"));
        assert!(line.contains("soft"), "{line}");
    }
    // Every row, encrypting (or its MAC or hash), and decrypting where it can, each against
    // the portable backend: the command checks first that both give the same output.
    let names: Vec<&str> = rows.iter().map(String::as_str).collect();
    let common = [
        "--sizes",
        "64",
        "--seconds",
        "0.003",
        "--trials",
        "1",
        "--ghz",
        "3",
        "--compare",
        "portable",
    ];
    let results = speed_json(&[&names[..], &common[..]].concat());
    assert_eq!(results.len(), 2 * rows.len());
    for r in &results {
        let bps = r["bytes_per_second"].as_f64().unwrap();
        assert!(bps > 0.0 && bps.is_finite(), "{r}");
        assert!(r["cycles_per_byte"].as_f64().unwrap() > 0.0, "{r}");
    }
    let decryptable: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !(n.ends_with("mac") || n.starts_with("hmac-") || *n == "gost34311"))
        .collect();
    // Not the 10 Kalyna CMAC/GMAC rows, gost28147-mac, gost34311, hmac-gost34311.
    assert_eq!(decryptable.len(), 59 - 13);
    let results = speed_json(&[&decryptable[..], &common[..], &["--decrypt"]].concat());
    assert_eq!(results.len(), 2 * decryptable.len());
    assert!(results.iter().all(|r| r["operation"] == "decrypt"));
}

#[test]
fn speed_runs_on_every_backend_of_each_family() {
    let all = cpu_json(None);
    let mut ran = 0;
    for (family, rows) in [
        (
            "kalyna",
            &[
                "kalyna-128-128-ctr",
                "kalyna-512-512-gcm",
                "kalyna-256-512-cmac",
            ][..],
        ),
        (
            "gost28147",
            &["gost28147-ecb", "gost28147-cfb", "gost28147-mac"][..],
        ),
        ("gost34311", &["gost34311", "hmac-gost34311"][..]),
        ("des", &["des-ecb", "des-ede3-cbc"][..]),
    ] {
        for b in all["backends"].as_array().unwrap() {
            if b["algorithm"] != family || b["available"] != true {
                continue;
            }
            let backend = b["backend"].as_str().unwrap();
            let args = [
                rows,
                &[
                    "--sizes",
                    "8192",
                    "--seconds",
                    "0.003",
                    "--trials",
                    "1",
                    "--ghz",
                    "3",
                    "--backend",
                    backend,
                ][..],
            ]
            .concat();
            for r in speed_json(&args) {
                assert_eq!(r["backend"], backend, "{r}");
                ran += 1;
            }
        }
    }
    assert!(ran >= 4 * 2, "{ran}");
}

/// Without --sizes, each algorithm measures the default sizes it takes.
#[test]
fn speed_default_sizes_follow_each_algorithm() {
    let results = speed_json(&[
        "kalyna-512-512-ecb",
        "kalyna-256-256-xts",
        "gost28147-ecb",
        "--seconds",
        "0.012",
        "--trials",
        "1",
        "--ghz",
        "3",
    ]);
    let sizes = |alg: &str| -> Vec<u64> {
        results
            .iter()
            .filter(|r| r["algorithm"] == alg)
            .map(|r| r["size"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(sizes("kalyna-512-512-ecb"), [64, 256, 1024, 8192, 16384]);
    assert_eq!(sizes("kalyna-256-256-xts"), [64, 256, 1024, 8192, 16384]);
    assert_eq!(sizes("gost28147-ecb"), [16, 64, 256, 1024, 8192, 16384]);
    // Given sizes are still checked against every algorithm.
    fails(
        &["speed", "kalyna-512-512-ecb", "--sizes", "16"],
        b"",
        2,
        "too small",
    );
    fails(
        &["speed", "kalyna-256-256-cbc", "--sizes", "48"],
        b"",
        2,
        "multiple of 32",
    );
}
