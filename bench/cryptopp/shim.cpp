// A C interface to the few Crypto++ primitives shyfr-bench-gost compares against
// (built only with the bench's `cryptopp` feature). Written for shyfr.
#include <cryptopp/cbcmac.h>
#include <cryptopp/des.h>
#include <cryptopp/gost.h>
#include <cryptopp/modes.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

using namespace CryptoPP;

namespace {

struct Op {
    virtual ~Op() {}
    // Processes buf in place; writes a tag to out and returns its length (MACs).
    virtual size_t run(uint8_t *buf, size_t len, uint8_t *out) = 0;
};

template <class Mode> struct Plain : Op {
    Mode m;
    Plain(const uint8_t *key, size_t klen) { m.SetKey(key, klen); }
    size_t run(uint8_t *buf, size_t len, uint8_t *) override {
        m.ProcessData(buf, buf, len);
        return 0;
    }
};

template <class Mode> struct WithIv : Op {
    Mode m;
    uint8_t iv[8];
    WithIv(const uint8_t *key, size_t klen, const uint8_t *v) {
        std::memcpy(iv, v, 8);
        m.SetKeyWithIV(key, klen, iv, 8);
    }
    size_t run(uint8_t *buf, size_t len, uint8_t *) override {
        m.Resynchronize(iv, 8);
        m.ProcessData(buf, buf, len);
        return 0;
    }
};

struct GostCbcMac : Op {
    CBC_MAC<GOST> m;
    GostCbcMac(const uint8_t *key, size_t klen) { m.SetKey(key, klen); }
    size_t run(uint8_t *buf, size_t len, uint8_t *out) override {
        m.Update(buf, len);
        m.Final(out);
        return 8;
    }
};

} // namespace

extern "C" void *shyfr_cpp_new(int alg, const uint8_t *key, size_t klen, const uint8_t *iv) {
    try {
        switch (alg) {
        case 0: return new Plain<ECB_Mode<GOST>::Encryption>(key, klen);
        case 1: return new WithIv<CTR_Mode<GOST>::Encryption>(key, klen, iv);
        case 2: return new WithIv<CFB_Mode<GOST>::Encryption>(key, klen, iv);
        case 3: return new WithIv<CFB_Mode<GOST>::Decryption>(key, klen, iv);
        case 4: return new GostCbcMac(key, klen);
        case 5: return new Plain<ECB_Mode<DES>::Encryption>(key, klen);
        case 6: return new Plain<ECB_Mode<DES_EDE3>::Encryption>(key, klen);
        case 7: return new WithIv<CBC_Mode<DES_EDE3>::Encryption>(key, klen, iv);
        case 8: return new WithIv<CBC_Mode<DES_EDE3>::Decryption>(key, klen, iv);
        default: return nullptr;
        }
    } catch (...) {
        return nullptr;
    }
}

extern "C" size_t shyfr_cpp_run(void *h, uint8_t *buf, size_t len, uint8_t *out) {
    return static_cast<Op *>(h)->run(buf, len, out);
}

extern "C" void shyfr_cpp_free(void *h) { delete static_cast<Op *>(h); }
