//! Builds the optional C/C++ peers of `shyfr-bench-gost`: with the `cryptopp` feature the
//! Crypto++ shim (`cryptopp/shim.cpp`, linked against the system `libcrypto++`), with
//! `gcrypt` a link to the system `libgcrypt`. Without them nothing is built.

fn main() {
    println!("cargo:rerun-if-changed=cryptopp/shim.cpp");
    #[cfg(feature = "cryptopp")]
    {
        cc::Build::new()
            .cpp(true)
            .file("cryptopp/shim.cpp")
            .flag_if_supported("-std=c++14")
            .opt_level(3)
            .compile("shyfr_cryptopp_shim");
        println!("cargo:rustc-link-lib=dylib=crypto++");
        println!("cargo:rustc-link-lib=dylib=stdc++");
    }
    if std::env::var_os("CARGO_FEATURE_GCRYPT").is_some() {
        println!("cargo:rustc-link-lib=dylib=gcrypt");
    }
}
