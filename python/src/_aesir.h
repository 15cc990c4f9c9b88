/*
 * _aesir.h -- what the files of the _aesir extension module share.
 *
 * The extension is written against CPython's limited API (PEP 384, the
 * stable ABI "abi3", version 3.11: the first with the buffer protocol in
 * it), so one wheel serves every later CPython. Methods use METH_FASTCALL
 * (PEP 590's vectorcall convention): no argument tuple is built per call,
 * which is most of the per-call cost at 64-byte messages (python/README.md,
 * "Design", has the figures that chose this over cffi).
 */
#ifndef AESIR_PY_H
#define AESIR_PY_H

#ifndef Py_LIMITED_API /* CMake's USE_SABI 3.11 defines it too */
#define Py_LIMITED_API 0x030B0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "aesir.h"

/* Exceptions, created by module.c and exported by the aesir package. */
extern PyObject *aesirpy_InvalidTag;
extern PyObject *aesirpy_EngineError;

/* Inputs of at least this many bytes are processed with the GIL released
 * (module.c explains the default; tests lower it). */
extern Py_ssize_t aesirpy_gil_min;

#define AESIRPY_NOGIL(len, stmt)                                               \
    do {                                                                       \
        if ((Py_ssize_t)(len) >= aesirpy_gil_min) {                            \
            Py_BEGIN_ALLOW_THREADS stmt;                                       \
            Py_END_ALLOW_THREADS                                               \
        } else {                                                               \
            stmt;                                                              \
        }                                                                      \
    } while (0)

/* Sets the Python exception for AESIR_E_* code rc (rc != 0); returns -1. */
int aesirpy_error(int rc);

/* A 64-byte-aligned block for a key or context (the C API needs 16; 64
 * puts round keys on whole cache lines), and its release, which wipes. */
void *aesirpy_alloc(size_t n);
void aesirpy_free(void *p, size_t n);

/* engine= argument: None gives NULL (the default engine), a str its
 * UTF-8 text (valid while o lives); anything else is a TypeError. */
int aesirpy_engine_arg(PyObject *o, const char **name);

/* The buffer of o: read-only, or writable when writable != 0; None gives
 * an empty buffer with buf NULL when none_ok. Returns 0 or -1 (raised). */
int aesirpy_buf(PyObject *o, Py_buffer *b, int writable, int none_ok);
void aesirpy_release(Py_buffer *b);

/*
 * Arguments of a METH_FASTCALL | METH_KEYWORDS method, by position or by
 * name: fills out[0..n-1] (NULL where not given) from names[]; the first
 * nreq are required. Returns 0 or -1 (TypeError raised).
 */
int aesirpy_args(const char *fn, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, const char *const *names, int n, int nreq,
                 PyObject **out);

typedef PyObject *(*aesirpy_fastkw)(PyObject *, PyObject *const *, Py_ssize_t,
                                    PyObject *);
#define AESIRPY_METH(f) ((PyCFunction)(void (*)(void))(aesirpy_fastkw)(f))

/*
 * The one-shot AEADs behind aesir.AESGCM and its siblings (aead_kinds.c):
 * every mode's key setup, seal and open under one signature.
 */
typedef int (*init_fn)(void *key, const uint8_t *k, size_t kl, const char *eng,
                       const char *ghash, int variant);
/* For AES-SIV, aad is an aesir_siv_ad array and aad_len its count. */
typedef int (*crypt_fn)(const void *key, const uint8_t *n, size_t nl,
                        const uint8_t *a, size_t al, uint8_t *out, size_t cap,
                        size_t *ol, const uint8_t *in, size_t inl, size_t tag);

struct aesirpy_kind {
    size_t key_size; /* sizeof the C key struct */
    init_fn init;
    void (*clear)(void *key);
    crypt_fn seal, open;
};

/* Kind numbers, as aesir/_aead.py passes them. */
enum {
    KIND_GCM = 1,
    KIND_CCM,
    KIND_OCB,
    KIND_GCMSIV,
    KIND_SIV,
    KIND_XAES,
    KIND_AEGIS
};
/* The kind numbered kindno, or NULL. */
const struct aesirpy_kind *aesirpy_kind(int kindno);

/* The C key and tag length of an AEAD object of kind kindno (aead.c),
 * or NULL with TypeError raised. */
void *aesirpy_aead_key(PyObject *o, int kindno, size_t *tag);

/* Each file adds its types or functions to the module. */
int aesirpy_add_aead(PyObject *m);
int aesirpy_add_stream(PyObject *m);
int aesirpy_add_block(PyObject *m);
int aesirpy_add_cmac(PyObject *m);
int aesirpy_add_xts_kw(PyObject *m);

/* Adds a type made from spec to m under its short name. */
int aesirpy_add_type(PyObject *m, PyType_Spec *spec, const char *name);

#endif
