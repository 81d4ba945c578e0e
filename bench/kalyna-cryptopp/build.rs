//! Compiles the small C++ shim over Crypto++ (`cryptopp.cpp`, our code) and links the
//! system Crypto++ (`libcrypto++-dev` on Debian: headers in /usr/include/cryptopp).
fn main() {
    println!("cargo:rerun-if-changed=cryptopp.cpp");
    cc::Build::new()
        .cpp(true)
        .file("cryptopp.cpp")
        .flag_if_supported("-std=c++17")
        .opt_level(2)
        .compile("kalyna_cryptopp_shim");
    println!("cargo:rustc-link-lib=cryptopp");
}
