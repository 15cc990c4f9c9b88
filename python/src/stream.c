/*
 * stream.c -- incremental GCM: _aesir.GCMStream, made by
 * aesir.AESGCM.encryptor(nonce) and .decryptor(nonce), for messages too
 * large to hold at once. The shape is pyca/cryptography's
 * Cipher(AES(key), GCM(iv)).encryptor(): authenticate_additional_data,
 * update, update_into, finalize, tag; decryption ends with
 * finalize_with_tag(tag).
 *
 * Decryption releases plaintext before the tag is checked (the C API's
 * aesir_gcm_decrypt_update_unverified): nothing read from update() may be
 * acted on until finalize_with_tag() returns. The object keeps its
 * AESGCM key object alive (the C context points into it).
 */
#include "_aesir.h"

#include <string.h>

typedef struct {
    PyObject_HEAD PyObject *keyobj;
    aesir_gcm *ctx;
    int decrypt;
    int done;
    uint8_t tag[AESIR_GCM_TAG_BYTES];
} Stream;

/* GCMStream(aesgcm, nonce, decrypt) */
static int stream_init(PyObject *self, PyObject *args, PyObject *kw)
{
    Stream *s = (Stream *)self;
    PyObject *ko;
    Py_buffer n;
    int dec;
    if ((kw != NULL && PyDict_Size(kw) != 0) || s->ctx != NULL) {
        PyErr_SetString(PyExc_TypeError, "GCMStream(key, nonce, decrypt)");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "Oy*p", &ko, &n, &dec))
        return -1;
    int rc = -1;
    void *key = aesirpy_aead_key(ko, KIND_GCM);
    if (key == NULL)
        goto out;
    s->ctx = aesirpy_alloc(sizeof(aesir_gcm));
    if (s->ctx == NULL)
        goto out;
    int err = aesir_gcm_start(s->ctx, key, n.buf, (size_t)n.len);
    if (err != AESIR_OK) {
        aesirpy_error(err);
        goto out;
    }
    Py_INCREF(ko);
    s->keyobj = ko;
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
        aesir_gcm_abort(s->ctx); /* wipes; harmless after finish */
        aesirpy_free(s->ctx, sizeof(aesir_gcm));
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
    return 0;
}

static PyObject *aad(PyObject *self, PyObject *arg)
{
    Stream *s = (Stream *)self;
    Py_buffer b;
    if (check_open(s) < 0 || aesirpy_buf(arg, &b, 0, 0) < 0)
        return NULL;
    int rc = aesir_gcm_aad(s->ctx, b.buf, (size_t)b.len);
    PyBuffer_Release(&b);
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    Py_RETURN_NONE;
}

/* update(data) -> bytes, or update_into(data, buf) -> count (out_o). */
static PyObject *do_update(Stream *s, PyObject *in_o, PyObject *out_o)
{
    Py_buffer in, ob = {0};
    PyObject *bytes = NULL, *res = NULL;
    uint8_t *out;
    if (check_open(s) < 0 || aesirpy_buf(in_o, &in, 0, 0) < 0)
        return NULL;
    if (out_o != NULL) {
        if (aesirpy_buf(out_o, &ob, 1, 0) < 0)
            goto rel;
        if (ob.len < in.len) {
            PyErr_SetString(PyExc_ValueError, "output buffer too small");
            goto rel;
        }
        out = ob.buf;
    } else {
        bytes = PyBytes_FromStringAndSize(NULL, in.len);
        if (bytes == NULL)
            goto rel;
        out = (uint8_t *)PyBytes_AsString(bytes);
    }
    int rc;
    AESIRPY_NOGIL(in.len, rc = s->decrypt
                                   ? aesir_gcm_decrypt_update_unverified(
                                         s->ctx, out, in.buf, (size_t)in.len)
                                   : aesir_gcm_encrypt_update(
                                         s->ctx, out, in.buf, (size_t)in.len));
    if (rc != AESIR_OK) {
        s->done = 1; /* the C API wiped the context */
        aesirpy_error(rc);
    } else if (out_o != NULL) {
        res = PyLong_FromSsize_t(in.len);
    } else {
        res = bytes;
        bytes = NULL;
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

/* finalize() -> b"" (GCM holds nothing back); the tag is then .tag. */
static PyObject *finalize(PyObject *self, PyObject *unused)
{
    Stream *s = (Stream *)self;
    (void)unused;
    if (check_open(s) < 0)
        return NULL;
    if (s->decrypt) {
        PyErr_SetString(PyExc_ValueError,
                        "a decryptor ends with finalize_with_tag(tag)");
        return NULL;
    }
    int rc = aesir_gcm_finish(s->ctx, s->tag, sizeof s->tag);
    s->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyBytes_FromStringAndSize(NULL, 0);
}

static PyObject *finalize_with_tag(PyObject *self, PyObject *arg)
{
    Stream *s = (Stream *)self;
    Py_buffer t;
    if (check_open(s) < 0)
        return NULL;
    if (!s->decrypt) {
        PyErr_SetString(PyExc_ValueError, "an encryptor ends with finalize()");
        return NULL;
    }
    if (aesirpy_buf(arg, &t, 0, 0) < 0)
        return NULL;
    int rc = aesir_gcm_verify(s->ctx, t.buf, (size_t)t.len);
    PyBuffer_Release(&t);
    s->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyBytes_FromStringAndSize(NULL, 0);
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
    return PyBytes_FromStringAndSize((const char *)s->tag, sizeof s->tag);
}

static PyMethodDef methods[] = {
    {"authenticate_additional_data", aad, METH_O,
     "more associated data (before any update)"},
    {"update", update, METH_O, "update(data) -> bytes"},
    {"update_into", (PyCFunction)(void (*)(void))update_into, METH_FASTCALL,
     "update_into(data, buf) -> bytes written"},
    {"finalize", finalize, METH_NOARGS, "ends an encryption: b'', then .tag"},
    {"finalize_with_tag", finalize_with_tag, METH_O,
     "ends a decryption: raises InvalidTag when the tag does not match"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"tag", get_tag, NULL, "the 16-byte tag, after finalize()", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot slots[] = {
    {Py_tp_init, stream_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, stream_dealloc}, {Py_tp_methods, methods},
    {Py_tp_getset, getset},          {0, NULL}};

static PyType_Spec spec = {"aesir._aesir.GCMStream", sizeof(Stream), 0,
                           Py_TPFLAGS_DEFAULT, slots};

int aesirpy_add_stream(PyObject *m)
{
    return aesirpy_add_type(m, &spec, "GCMStream");
}
