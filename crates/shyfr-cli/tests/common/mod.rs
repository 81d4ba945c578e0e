//! What the command's test files share: running the binary with input, a deterministic
//! byte source, hex, and the `--cpu` override that makes the library select each backend
//! of a family.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_shyfr");

/// A finished process: exit status, standard output, standard error.
pub struct Out {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `prog args` (any bytes) with `input` on standard input, in `dir` if given, without
/// `SHYFR_CPU` from the environment; returns the finished process as it is.
pub fn spawn_output<S: AsRef<OsStr>>(
    prog: &str,
    args: &[S],
    dir: Option<&Path>,
    input: &[u8],
) -> Output {
    let mut cmd = Command::new(prog);
    cmd.args(args)
        .env_remove("SHYFR_CPU")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {prog}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    // Written from a thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

/// Runs `prog args` with `input` on standard input (no `SHYFR_CPU` from the environment).
pub fn run_with(prog: &str, args: &[&str], input: &[u8]) -> Out {
    let out = spawn_output(prog, args, None, input);
    Out {
        code: out.status.code().expect("exited normally"),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `shyfr args` with `input`.
pub fn shyfr(args: &[&str], input: &[u8]) -> Out {
    run_with(BIN, args, input)
}

/// `shyfr --cpu SPEC args...` (no override for `None`).
pub fn shyfr_on(spec: Option<&str>, args: &[&str], input: &[u8]) -> Out {
    match spec {
        Some(s) => shyfr(&[&["--cpu", s], args].concat(), input),
        None => shyfr(args, input),
    }
}

/// Succeeds and returns standard output.
pub fn ok(spec: Option<&str>, args: &[&str], input: &[u8]) -> Vec<u8> {
    let r = shyfr_on(spec, args, input);
    assert_eq!(r.code, 0, "{spec:?} {args:?}: {}", r.stderr);
    r.stdout
}

/// A cheap deterministic PRNG (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next() >> 56) as u8).collect()
    }
}

pub fn h(b: &[u8]) -> String {
    hex::encode(b)
}

pub fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

/// The six keys every `speed --json` result has first, in this order (and the first CSV
/// columns).
pub const RESULT_KEYS: [&str; 6] = [
    "algorithm",
    "operation",
    "backend",
    "size",
    "bytes_per_second",
    "cycles_per_byte",
];

/// `shyfr [--cpu SPEC] cpu --json`.
pub fn cpu_json(spec: Option<&str>) -> Value {
    let out = ok(spec, &["cpu", "--json"], b"");
    serde_json::from_slice(&out).expect("cpu --json")
}

/// For every backend of `family` available here: (backend, a `--cpu` spec under which the
/// library selects it), checked with `shyfr --cpu SPEC cpu --json`.
pub fn backend_specs(family: &str) -> Vec<(String, String)> {
    let all = cpu_json(None);
    let mut out = Vec::new();
    for b in all["backends"].as_array().unwrap() {
        if b["algorithm"] != family || b["available"] != true {
            continue;
        }
        let needs: Vec<&str> = b["needs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        let spec = if needs.is_empty() {
            "portable".to_string()
        } else {
            format!("portable,+{}", needs.join(",+"))
        };
        let name = b["backend"].as_str().unwrap().to_string();
        let chosen = cpu_json(Some(&spec));
        let selected: Vec<&str> = chosen["backends"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["algorithm"] == family && r["selected"] == true)
            .map(|r| r["backend"].as_str().unwrap())
            .collect();
        assert_eq!(selected, [name.as_str()], "--cpu {spec} for {family}");
        out.push((name, spec));
    }
    assert!(!out.is_empty(), "no {family} backend");
    out
}

/// Records of a CAVP `.rsp` file: (section, fields).
pub fn rsp_records(text: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut cur: Vec<(String, String)> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            if !cur.is_empty() {
                out.push((section.clone(), std::mem::take(&mut cur)));
            }
            section = line.trim_matches(|c| c == '[' || c == ']').to_string();
        } else if let Some((k, v)) = line.split_once(" = ") {
            if k == "COUNT" && !cur.is_empty() {
                out.push((section.clone(), std::mem::take(&mut cur)));
            }
            cur.push((k.to_string(), v.to_string()));
        }
    }
    if !cur.is_empty() {
        out.push((section, cur));
    }
    out
}

pub fn field<'a>(rec: &'a [(String, String)], name: &str) -> &'a str {
    rec.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {name} in {rec:?}"))
}
