//! x86-64 feature detection and tokens.
//!
//! Bits from the Intel SDM, Vol. 2A, CPUID: leaf 1 (ECX, EDX) and leaf 7 sub-leaf 0 (EBX,
//! ECX); OS support from XCR0 (SDM Vol. 1, 13.3 "Enabling the XSAVE feature set"): AVX
//! needs XCR0 bits 1-2 (SSE, YMM), AVX-512 also bits 5-7 (opmask, ZMM_Hi256, Hi16_ZMM).

use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv, CpuidResult};

use super::{Feature, Features};

#[allow(unused_unsafe)] // `__cpuid*` are safe functions on newer toolchains
fn cpuid(leaf: u32, sub: u32) -> CpuidResult {
    // SAFETY: CPUID exists on every x86-64 processor.
    unsafe { __cpuid_count(leaf, sub) }
}

#[target_feature(enable = "xsave")]
unsafe fn xcr0() -> u64 {
    // SAFETY: the caller checked CPUID.1:ECX.OSXSAVE, so XGETBV does not fault.
    unsafe { _xgetbv(0) }
}

/// Whether the processor is Intel's (CPUID leaf 0 vendor string "GenuineIntel"). Only for
/// choosing between implementations that are all correct on it (backends, or kernels of
/// one backend) where measurements showed that the faster one differs between vendors:
/// see the Keccak backends' `demote` and Kalyna's 512-bit chained kernel. The `SHYFR_CPU`
/// feature masks still apply on top. Read once and cached.
pub(crate) fn is_intel() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    if cfg!(miri) {
        // Miri runs no CPUID (and sees no CPU feature: see `detect_raw`).
        return false;
    }
    // 0: not read yet; 1: Intel; 2: another vendor.
    static VENDOR: AtomicU8 = AtomicU8::new(0);
    match VENDOR.load(Ordering::Relaxed) {
        0 => {
            let l0 = cpuid(0, 0);
            // "Genu" "ineI" "ntel" in EBX, EDX, ECX, little-endian.
            let intel = (l0.ebx, l0.edx, l0.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e);
            VENDOR.store(if intel { 1 } else { 2 }, Ordering::Relaxed);
            intel
        }
        v => v == 1,
    }
}

pub(super) fn detect() -> Features {
    let mut f = Features::NONE;
    // SAFETY: CPUID exists on every x86-64 processor.
    #[allow(unused_unsafe)]
    let max_leaf = unsafe { __cpuid(0) }.eax;
    let l1 = cpuid(1, 0);
    let (ecx1, edx1) = (l1.ecx, l1.edx);
    let bit = |r: u32, b: u32| r & (1 << b) != 0;

    if bit(edx1, 26) {
        f = f.with(Feature::Sse2);
    }
    if bit(ecx1, 9) {
        f = f.with(Feature::Ssse3);
    }
    if bit(ecx1, 19) {
        f = f.with(Feature::Sse41);
    }
    if bit(ecx1, 25) {
        f = f.with(Feature::Aes);
    }
    if bit(ecx1, 1) {
        f = f.with(Feature::Pclmulqdq);
    }

    // XCR0 may only be read when the OS has set CR4.OSXSAVE (CPUID.1:ECX bit 27).
    let xcr0 = if bit(ecx1, 27) {
        // SAFETY: OSXSAVE is set, so XGETBV is enabled (SDM Vol. 2C, XGETBV).
        unsafe { xcr0() }
    } else {
        0
    };
    let os_avx = xcr0 & 0b110 == 0b110;
    let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000;

    if os_avx && bit(ecx1, 28) {
        f = f.with(Feature::Avx);
    }

    if max_leaf >= 7 {
        let l7 = cpuid(7, 0);
        let (ebx7, ecx7) = (l7.ebx, l7.ecx);
        if os_avx && bit(ebx7, 5) {
            f = f.with(Feature::Avx2);
        }
        if bit(ebx7, 3) {
            f = f.with(Feature::Bmi1);
        }
        if bit(ebx7, 8) {
            f = f.with(Feature::Bmi2);
        }
        if bit(ebx7, 19) {
            f = f.with(Feature::Adx);
        }
        if bit(ebx7, 29) {
            f = f.with(Feature::Sha);
        }
        if bit(ecx7, 8) {
            f = f.with(Feature::Gfni);
        }
        // VAES and VPCLMULQDQ are VEX/EVEX encoded: usable only with YMM state saved.
        if os_avx && bit(ecx7, 9) {
            f = f.with(Feature::Vaes);
        }
        if os_avx && bit(ecx7, 10) {
            f = f.with(Feature::Vpclmulqdq);
        }
        if os_avx512 {
            if bit(ebx7, 16) {
                f = f.with(Feature::Avx512f);
            }
            if bit(ebx7, 31) {
                f = f.with(Feature::Avx512vl);
            }
            if bit(ebx7, 30) {
                f = f.with(Feature::Avx512bw);
            }
            if bit(ebx7, 21) {
                f = f.with(Feature::Avx512ifma);
            }
            if bit(ecx7, 1) {
                f = f.with(Feature::Avx512vbmi);
            }
            if bit(ecx7, 12) {
                f = f.with(Feature::Avx512bitalg);
            }
        }
    }
    f
}

token!(
    /// AES-NI (SSE2 is the x86-64 baseline).
    AesNi: [Aes]
);
token!(
    /// SSSE3 (`pshufb`).
    Ssse3: [Ssse3]
);
token!(
    /// AVX2 (with the OS saving YMM state).
    Avx2: [Avx, Avx2]
);
token!(
    /// AVX-512 F + VL + BW (with the OS saving ZMM state).
    Avx512: [Avx, Avx2, Avx512f, Avx512vl, Avx512bw]
);
token!(
    /// AVX2 and BMI2 (`rorx` beside ymm code).
    Avx2Bmi2: [Avx, Avx2, Bmi2]
);
token!(
    /// AVX-512 F + VL + BW and BMI1 + BMI2 (`rorx`, `andn` beside the vector code).
    Avx512Bmi2: [Avx, Avx2, Avx512f, Avx512vl, Avx512bw, Bmi1, Bmi2]
);
token!(
    /// AVX-512 F + VL + BW with VBMI (`vpermb`, `vpermi2b`, `vpmultishiftqb`).
    Avx512Vbmi: [Avx, Avx2, Avx512f, Avx512vl, Avx512bw, Avx512vbmi]
);
token!(
    /// AVX-512 F + VL + BW with VBMI (`vpmultishiftqb`, `vpermb`) and BITALG
    /// (`vpshufbitqmb`: 64-entry bit look-ups in registers).
    Avx512VbmiBitalg: [Avx, Avx2, Avx512f, Avx512vl, Avx512bw, Avx512vbmi, Avx512bitalg]
);
token!(
    /// AVX-512 F + VL + BW with VBMI (`vpermb`, `vpermi2b`) and GFNI (`gf2p8affineqb`).
    Avx512VbmiGfni: [Avx, Avx2, Avx512f, Avx512vl, Avx512bw, Avx512vbmi, Gfni]
);
token!(
    /// GFNI (`gf2p8affineqb`) on 128/256-bit registers, with AVX2.
    Avx2Gfni: [Avx, Avx2, Gfni]
);
token!(
    /// BMI1 and BMI2 (`andn`, `rorx`, on general-purpose registers).
    Bmi: [Bmi1, Bmi2]
);
token!(
    /// SHA extensions (SHA-1, SHA-256) with the SSE4.1/SSSE3 they are used with.
    ShaNi: [Ssse3, Sse41, Sha]
);
token!(
    /// Carry-less multiplication on 128-bit registers (with SSSE3 for byte shuffles).
    Pclmul: [Ssse3, Pclmulqdq]
);
token!(
    /// Vector carry-less multiplication on 256-bit registers.
    Vpclmul256: [Ssse3, Pclmulqdq, Avx, Avx2, Vpclmulqdq]
);
token!(
    /// Vector carry-less multiplication on 512-bit registers.
    Vpclmul512: [Ssse3, Pclmulqdq, Avx, Avx2, Vpclmulqdq, Avx512f, Avx512vl, Avx512bw]
);
token!(
    /// VAES on 256-bit registers (needs AVX and AVX2 for the surrounding code).
    Vaes256: [Aes, Avx, Avx2, Vaes]
);
token!(
    /// VAES on 512-bit registers with AVX-512F.
    Vaes512: [Aes, Avx, Avx2, Vaes, Avx512f]
);

token!(
    /// MULX (BMI2) with the ADCX/ADOX carry chains (ADX).
    Adx: [Bmi2, Adx]
);
token!(
    /// AVX-512 IFMA on 256- and 512-bit registers (with the OS saving ZMM state), plus
    /// MULX/ADX for the scalar parts of the same kernels.
    Ifma: [Avx, Avx2, Avx512f, Avx512vl, Avx512ifma, Bmi2, Adx]
);

impl Ifma {
    /// The IFMA token includes MULX and ADX.
    pub fn adx(self) -> Adx {
        Adx(())
    }
}

impl Vaes256 {
    /// VAES implies AES-NI.
    pub fn aesni(self) -> AesNi {
        AesNi(())
    }
}

impl Vaes512 {
    /// VAES on 512-bit registers implies VAES on 256-bit registers.
    pub fn vaes256(self) -> Vaes256 {
        Vaes256(())
    }

    /// VAES implies AES-NI.
    pub fn aesni(self) -> AesNi {
        AesNi(())
    }
}

impl Vpclmul256 {
    /// VPCLMULQDQ with AVX2 implies PCLMULQDQ (with SSSE3).
    pub fn pclmul(self) -> Pclmul {
        Pclmul(())
    }
}

impl Vpclmul512 {
    /// VPCLMULQDQ with AVX-512 implies PCLMULQDQ (with SSSE3).
    pub fn pclmul(self) -> Pclmul {
        Pclmul(())
    }
}

impl Avx512Bmi2 {
    /// AVX-512 with BMI2 implies AVX2 with BMI2.
    pub fn avx2_bmi2(self) -> Avx2Bmi2 {
        Avx2Bmi2(())
    }
}
