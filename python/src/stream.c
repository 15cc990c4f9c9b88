/*
 * stream.c -- incremental GCM, CCM, OCB3 and AEGIS: _aesir.Stream, made
 * by the encryptor() and decryptor() methods of aesir.AESGCM, AESCCM,
 * AESOCB3 and the AEGIS classes, for messages too large to hold at once. The
 * shape is pyca/cryptography's Cipher(AES(key), GCM(iv)).encryptor():
 * authenticate_additional_data, update, update_into, finalize, tag;
 * decryption ends with finalize_with_tag(tag).
 *
 * The three C APIs differ in two ways this file evens out: CCM needs
 * the lengths of the associated data and of the message before it
 * starts (they are in its first block, RFC 3610), and OCB3 holds back
 * up to 15 bytes between calls (update returns whole blocks; finalize
 * returns the rest).
 *
 * Decryption releases plaintext before the tag is checked (the C API's
 * *_decrypt_update_unverified): nothing read from update() may be acted
 * on until finalize_with_tag() returns. The object keeps its key object
 * alive (the C context points into it).
 */
#include "_aesir.h"

#include <string.h>

typedef struct {
    PyObject_HEAD PyObject *keyobj;
    void *ctx; /* aesir_gcm, aesir_ccm, aesir_ocb or aesir_aegis */
    size_t ctx_bytes;
    int kind, decrypt, done;
    int busy; /* an update runs with the GIL released */
    size_t tag_len;
    uint8_t tag[32]; /* AEGIS tags may be 32 bytes */
} Stream;

#define CTX_BYTES 192 /* GCM, CCM, OCB3 */
_Static_assert(sizeof(aesir_gcm) <= CTX_BYTES &&
                   sizeof(aesir_ccm) <= CTX_BYTES &&
                   sizeof(aesir_ocb) <= CTX_BYTES,
               "stream contexts");

/* Stream(key, kind, nonce, decrypt, aad_len, msg_len); the lengths are
 * CCM's only. */
static int stream_init(PyObject *self, PyObject *args, PyObject *kw)
{
    Stream *s = (Stream *)self;
    PyObject *ko;
    Py_buffer n;
    int kind, dec;
    unsigned long long alen = 0, mlen = 0;
    if ((kw != NULL && PyDict_Size(kw) != 0) || s->ctx != NULL) {
        PyErr_SetString(PyExc_TypeError, "Stream: bad call");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "Oiy*p|KK", &ko, &kind, &n, &dec, &alen, &mlen))
        return -1;
    int rc = -1, err = AESIR_E_ARGUMENT;
    void *key = aesirpy_aead_key(ko, kind, &s->tag_len);
    s->ctx_bytes = kind == KIND_AEGIS ? sizeof(aesir_aegis) : CTX_BYTES;
    if (key == NULL || (s->ctx = aesirpy_alloc(s->ctx_bytes)) == NULL)
        goto out;
    if (kind == KIND_GCM)
        err = aesir_gcm_start(s->ctx, key, n.buf, (size_t)n.len);
    else if (kind == KIND_CCM)
        err = aesir_ccm_start(s->ctx, key, n.buf, (size_t)n.len, alen, mlen,
                              s->tag_len);
    else if (kind == KIND_OCB)
        err = aesir_ocb_start(s->ctx, key, n.buf, (size_t)n.len, s->tag_len);
    else if (kind == KIND_AEGIS)
        err = aesir_aegis_start(s->ctx, key, n.buf, (size_t)n.len);
    if (err != AESIR_OK) {
        aesirpy_error(err);
        goto out;
    }
    Py_INCREF(ko);
    s->keyobj = ko;
    s->kind = kind;
    s->decrypt = dec;
    rc = 0;
out:
    PyBuffer_Release(&n);
    return rc;
}

static void stream_dealloc(PyObject *self)
{
    Stream *s = (Stream *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (s->ctx != NULL) {
        if (!s->done) { /* wipes; the C API wiped it when done */
            if (s->kind == KIND_GCM)
                aesir_gcm_abort(s->ctx);
            else if (s->kind == KIND_CCM)
                aesir_ccm_abort(s->ctx);
            else if (s->kind == KIND_OCB)
                aesir_ocb_abort(s->ctx);
            else if (s->kind == KIND_AEGIS)
                aesir_aegis_abort(s->ctx);
        }
        aesirpy_free(s->ctx, s->ctx_bytes);
    }
    Py_XDECREF(s->keyobj);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

static int check_open(Stream *s)
{
    if (s->ctx == NULL || s->done) {
        PyErr_SetString(PyExc_ValueError, "context already finalized");
        return -1;
    }
    /* Set and read with the GIL held: a second thread cannot slip in. */
    if (s->busy) {
        PyErr_SetString(PyExc_ValueError,
                        "context in use by another thread (a context "
                        "belongs to one thread at a time)");
        return -1;
    }
    return 0;
}

static PyObject *aad(PyObject *self, PyObject *arg)
{
    Stream *s = (Stream *)self;
    Py_buffer b;
    if (check_open(s) < 0 || aesirpy_buf(arg, &b, 0, 0) < 0)
        return NULL;
    size_t n = (size_t)b.len;
    int rc = s->kind == KIND_GCM   ? aesir_gcm_aad(s->ctx, b.buf, n)
             : s->kind == KIND_CCM ? aesir_ccm_aad(s->ctx, b.buf, n)
             : s->kind == KIND_OCB ? aesir_ocb_aad(s->ctx, b.buf, n)
                                   : aesir_aegis_aad(s->ctx, b.buf, n);
    PyBuffer_Release(&b);
    if (rc != AESIR_OK) {
        s->done = 1; /* every error wipes the C context */
        return aesirpy_error(rc), NULL;
    }
    Py_RETURN_NONE;
}

/* One update of n bytes into out (cap bytes); *ol the bytes written. */
static int step(Stream *s, uint8_t *out, size_t cap, size_t *ol,
                const uint8_t *in, size_t n)
{
    *ol = n;
    if (s->kind == KIND_GCM)
        return s->decrypt
                   ? aesir_gcm_decrypt_update_unverified(s->ctx, out, in, n)
                   : aesir_gcm_encrypt_update(s->ctx, out, in, n);
    if (s->kind == KIND_CCM)
        return s->decrypt
                   ? aesir_ccm_decrypt_update_unverified(s->ctx, out, in, n)
                   : aesir_ccm_encrypt_update(s->ctx, out, in, n);
    if (s->kind == KIND_AEGIS)
        return s->decrypt
                   ? aesir_aegis_decrypt_update_unverified(s->ctx, out, in, n)
                   : aesir_aegis_encrypt_update(s->ctx, out, in, n);
    return s->decrypt ? aesir_ocb_decrypt_update_unverified(s->ctx, out, cap,
                                                            ol, in, n)
                      : aesir_ocb_encrypt_update(s->ctx, out, cap, ol, in, n);
}

/* update(data) -> bytes, or update_into(data, buf) -> count (out_o). */
static PyObject *do_update(Stream *s, PyObject *in_o, PyObject *out_o)
{
    Py_buffer in, ob = {0};
    PyObject *bytes = NULL, *res = NULL;
    uint8_t *out;
    size_t ol = 0;
    if (check_open(s) < 0 || aesirpy_buf(in_o, &in, 0, 0) < 0)
        return NULL;
    /* OCB3 may release up to 15 held-back bytes more than it reads. */
    size_t cap = (size_t)in.len + (s->kind == KIND_OCB ? 15 : 0);
    if (out_o != NULL) {
        if (aesirpy_buf(out_o, &ob, 1, 0) < 0)
            goto rel;
        if ((size_t)ob.len < cap) {
            PyErr_Format(PyExc_ValueError,
                         "output buffer too small: %zu bytes needed", cap);
            goto rel;
        }
        out = ob.buf;
    } else {
        bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
        if (bytes == NULL)
            goto rel;
        out = (uint8_t *)PyBytes_AsString(bytes);
    }
    int rc;
    s->busy = 1;
    AESIRPY_NOGIL(in.len, rc = step(s, out, cap, &ol, in.buf, (size_t)in.len));
    s->busy = 0;
    if (rc != AESIR_OK) {
        s->done = 1;
        aesirpy_error(rc);
    } else if (out_o != NULL) {
        res = PyLong_FromSize_t(ol);
    } else if (ol == cap) {
        res = bytes;
        bytes = NULL;
    } else {
        res = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)ol);
    }
rel:
    Py_XDECREF(bytes);
    aesirpy_release(&ob);
    PyBuffer_Release(&in);
    return res;
}

static PyObject *update(PyObject *self, PyObject *arg)
{
    return do_update((Stream *)self, arg, NULL);
}

static PyObject *update_into(PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "update_into(data, buf)");
        return NULL;
    }
    return do_update((Stream *)self, args[0], args[1]);
}

/* finalize() -> the last bytes (OCB3's held-back block; b"" otherwise);
 * the tag is then .tag. */
static PyObject *finalize(PyObject *self, PyObject *unused)
{
    Stream *s = (Stream *)self;
    uint8_t last[16];
    size_t ol = 0;
    int rc;
    (void)unused;
    if (check_open(s) < 0)
        return NULL;
    if (s->decrypt) {
        PyErr_SetString(PyExc_ValueError,
                        "a decryptor ends with finalize_with_tag(tag)");
        return NULL;
    }
    if (s->kind == KIND_GCM)
        rc = aesir_gcm_finish(s->ctx, s->tag, s->tag_len);
    else if (s->kind == KIND_CCM)
        rc = aesir_ccm_finish(s->ctx, s->tag, s->tag_len);
    else if (s->kind == KIND_AEGIS)
        rc = aesir_aegis_finish(s->ctx, s->tag, s->tag_len);
    else
        rc = aesir_ocb_finish(s->ctx, last, sizeof last, &ol, s->tag,
                              s->tag_len);
    s->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyBytes_FromStringAndSize((const char *)last, (Py_ssize_t)ol);
}

/* finalize_with_tag(tag) -> the last bytes (OCB3), after the check. */
static PyObject *finalize_with_tag(PyObject *self, PyObject *arg)
{
    Stream *s = (Stream *)self;
    Py_buffer t;
    uint8_t last[16];
    size_t ol = 0, n;
    int rc;
    if (check_open(s) < 0)
        return NULL;
    if (!s->decrypt) {
        PyErr_SetString(PyExc_ValueError, "an encryptor ends with finalize()");
        return NULL;
    }
    if (aesirpy_buf(arg, &t, 0, 0) < 0)
        return NULL;
    n = (size_t)t.len;
    if (s->kind == KIND_GCM)
        rc = aesir_gcm_verify(s->ctx, t.buf, n);
    else if (s->kind == KIND_CCM)
        rc = aesir_ccm_verify(s->ctx, t.buf, n);
    else if (s->kind == KIND_AEGIS)
        rc = aesir_aegis_verify(s->ctx, t.buf, n);
    else
        rc = aesir_ocb_verify(s->ctx, last, sizeof last, &ol, t.buf, n);
    PyBuffer_Release(&t);
    s->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    PyObject *res =
        PyBytes_FromStringAndSize((const char *)last, (Py_ssize_t)ol);
    memset(last, 0, sizeof last);
    return res;
}

static PyObject *get_tag(PyObject *self, void *closure)
{
    Stream *s = (Stream *)self;
    (void)closure;
    if (s->decrypt || !s->done) {
        PyErr_SetString(PyExc_ValueError,
                        "the tag is there after an encryptor's finalize()");
        return NULL;
    }
    return PyBytes_FromStringAndSize((const char *)s->tag,
                                     (Py_ssize_t)s->tag_len);
}

static PyMethodDef methods[] = {
    {"authenticate_additional_data", aad, METH_O,
     "more associated data (before any update)"},
    {"update", update, METH_O, "update(data) -> bytes"},
    {"update_into", (PyCFunction)(void (*)(void))update_into, METH_FASTCALL,
     "update_into(data, buf) -> bytes written (buf: len(data) + 15 for "
     "OCB3)"},
    {"finalize", finalize, METH_NOARGS,
     "ends an encryption: the last bytes, then .tag"},
    {"finalize_with_tag", finalize_with_tag, METH_O,
     "ends a decryption: the last bytes; raises InvalidTag when the tag "
     "does not match"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"tag", get_tag, NULL, "the tag, after finalize()", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot slots[] = {
    {Py_tp_init, stream_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, stream_dealloc}, {Py_tp_methods, methods},
    {Py_tp_getset, getset},          {0, NULL}};

static PyType_Spec spec = {"aesir._aesir.Stream", sizeof(Stream), 0,
                           Py_TPFLAGS_DEFAULT, slots};

int aesirpy_add_stream(PyObject *m)
{
    return aesirpy_add_type(m, &spec, "Stream");
}
