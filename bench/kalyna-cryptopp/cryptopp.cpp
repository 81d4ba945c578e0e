// A C interface over Crypto++'s Kalyna for the shyfr benchmark: one object per (mode,
// variant, direction), processing whole buffers. Written for shyfr; it only calls the
// public Crypto++ API.
#include <cryptopp/kalyna.h>
#include <cryptopp/modes.h>
#include <cryptopp/cmac.h>
#include <cstddef>
#include <cstdint>

using namespace CryptoPP;

namespace {

struct Shim {
    virtual ~Shim() {}
    virtual void process(const uint8_t* in, uint8_t* out, size_t len) = 0;
};

template <class T>
struct Stream : Shim {
    T t;
    void process(const uint8_t* in, uint8_t* out, size_t len) override {
        t.ProcessData(out, in, len);
    }
};

template <class C>
struct Mac : Shim {
    CMAC<C> m;
    void process(const uint8_t* in, uint8_t* out, size_t len) override {
        m.Update(in, len);
        m.Final(out);
    }
};

// mode: 0 ECB encrypt, 1 ECB decrypt, 2 CBC encrypt, 3 CBC decrypt, 4 CTR, 5 CFB encrypt,
// 6 CFB decrypt, 7 OFB, 8 CMAC (tag of the input, written to the output's first block).
template <class C>
Shim* make(int mode, const uint8_t* key, size_t klen, const uint8_t* iv) {
    switch (mode) {
    case 0: { auto* s = new Stream<typename ECB_Mode<C>::Encryption>(); s->t.SetKey(key, klen); return s; }
    case 1: { auto* s = new Stream<typename ECB_Mode<C>::Decryption>(); s->t.SetKey(key, klen); return s; }
    case 2: { auto* s = new Stream<typename CBC_Mode<C>::Encryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 3: { auto* s = new Stream<typename CBC_Mode<C>::Decryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 4: { auto* s = new Stream<typename CTR_Mode<C>::Encryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 5: { auto* s = new Stream<typename CFB_Mode<C>::Encryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 6: { auto* s = new Stream<typename CFB_Mode<C>::Decryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 7: { auto* s = new Stream<typename OFB_Mode<C>::Encryption>(); s->t.SetKeyWithIV(key, klen, iv); return s; }
    case 8: { auto* s = new Mac<C>(); s->m.SetKey(key, klen); return s; }
    default: return nullptr;
    }
}

}  // namespace

extern "C" {

void* kp_new(int mode, int block_bits, const uint8_t* key, size_t klen, const uint8_t* iv) {
    try {
        switch (block_bits) {
        case 128: return make<Kalyna128>(mode, key, klen, iv);
        case 256: return make<Kalyna256>(mode, key, klen, iv);
        case 512: return make<Kalyna512>(mode, key, klen, iv);
        default: return nullptr;
        }
    } catch (...) {
        return nullptr;
    }
}

void kp_process(void* h, const uint8_t* in, uint8_t* out, size_t len) {
    static_cast<Shim*>(h)->process(in, out, len);
}

void kp_free(void* h) { delete static_cast<Shim*>(h); }

}
