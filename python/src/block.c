/*
 * block.c -- the unauthenticated block modes of SP 800-38A (ECB, CBC,
 * CFB128, CFB8, OFB, CTR) as one incremental type, _aesir.BlockCipher,
 * over the C API's aesir_cipher (init / update / final). aesir.hazmat
 * wraps it in per-mode classes with encryptor()/decryptor() objects in
 * the shape of pyca/cryptography's Cipher(...).encryptor().
 *
 * Each object owns its expanded key (aesir_aes) and its message context:
 * one object is one message in one direction.
 */
#include "_aesir.h"

#include <string.h>

typedef struct {
    PyObject_HEAD aesir_aes *key;
    aesir_cipher *ctx;
    int done;
    int busy; /* an update runs with the GIL released */
} Block;

static void block_free(Block *b)
{
    if (b->ctx != NULL) {
        aesir_cipher_clear(b->ctx);
        aesirpy_free(b->ctx, sizeof(aesir_cipher));
        b->ctx = NULL;
    }
    if (b->key != NULL) {
        aesir_aes_clear(b->key);
        aesirpy_free(b->key, sizeof(aesir_aes));
        b->key = NULL;
    }
}

/* BlockCipher(key, mode, decrypt, iv, option, engine) with mode an
 * AESIR_MODE_* number and option the padding or CTR counter width. */
static int block_init(PyObject *self, PyObject *args, PyObject *kw)
{
    Block *b = (Block *)self;
    Py_buffer k, iv = {0};
    int mode, dec;
    unsigned option;
    PyObject *ivo, *eo;
    const char *e;
    if ((kw != NULL && PyDict_Size(kw) != 0) || b->key != NULL) {
        PyErr_SetString(PyExc_TypeError, "BlockCipher: bad call");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "y*ipOIO", &k, &mode, &dec, &ivo, &option, &eo))
        return -1;
    int rc = -1, err;
    if (aesirpy_engine_arg(eo, &e) < 0 || aesirpy_buf(ivo, &iv, 0, 1) < 0)
        goto out;
    b->key = aesirpy_alloc(sizeof(aesir_aes));
    b->ctx = aesirpy_alloc(sizeof(aesir_cipher));
    if (b->key == NULL || b->ctx == NULL)
        goto out;
    /* ECB and CBC decrypt with the inverse cipher; the others use the
     * forward cipher both ways. */
    int inverse = dec && (mode == AESIR_MODE_ECB || mode == AESIR_MODE_CBC);
    err = aesir_aes_init_ex(b->key, k.buf, (size_t)k.len, e,
                            inverse ? AESIR_DECRYPT : AESIR_ENCRYPT);
    if (err == AESIR_OK)
        err = aesir_cipher_init(b->ctx, b->key, (aesir_mode)mode,
                                dec ? AESIR_DECRYPT : AESIR_ENCRYPT, iv.buf,
                                (size_t)iv.len, option);
    if (err != AESIR_OK) {
        block_free(b);
        aesirpy_error(err);
        goto out;
    }
    rc = 0;
out:
    if (rc < 0)
        block_free(b);
    aesirpy_release(&iv);
    PyBuffer_Release(&k);
    return rc;
}

static void block_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    block_free((Block *)self);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

static int check_open(Block *b)
{
    if (b->ctx == NULL || b->done) {
        PyErr_SetString(PyExc_ValueError, "context already finalized");
        return -1;
    }
    /* Set and read with the GIL held: a second thread cannot slip in. */
    if (b->busy) {
        PyErr_SetString(PyExc_ValueError,
                        "context in use by another thread (a context "
                        "belongs to one thread at a time)");
        return -1;
    }
    return 0;
}

/* update(data) -> bytes; update_into(data, buf) -> count (out_o). */
static PyObject *do_update(Block *b, PyObject *in_o, PyObject *out_o)
{
    Py_buffer in, ob = {0};
    PyObject *bytes = NULL, *res = NULL;
    uint8_t *out;
    size_t cap, ol = 0;
    if (check_open(b) < 0 || aesirpy_buf(in_o, &in, 0, 0) < 0)
        return NULL;
    cap = aesir_cipher_update_size(b->ctx, (size_t)in.len);
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
    b->busy = 1;
    AESIRPY_NOGIL(in.len, rc = aesir_cipher_update(b->ctx, out, cap, &ol,
                                                   in.buf, (size_t)in.len));
    b->busy = 0;
    if (rc != AESIR_OK) {
        aesirpy_error(rc);
    } else if (out_o != NULL) {
        res = PyLong_FromSize_t(ol);
    } else if (ol == cap) {
        res = bytes;
        bytes = NULL;
    } else { /* ECB/CBC held part of a block back */
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
    return do_update((Block *)self, arg, NULL);
}

static PyObject *update_into(PyObject *self, PyObject *const *args,
                             Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "update_into(data, buf)");
        return NULL;
    }
    return do_update((Block *)self, args[0], args[1]);
}

/* finalize() -> the last bytes (padding added, or checked and removed). */
static PyObject *finalize(PyObject *self, PyObject *unused)
{
    Block *b = (Block *)self;
    uint8_t last[AESIR_BLOCK_SIZE];
    size_t ol = 0;
    (void)unused;
    if (check_open(b) < 0)
        return NULL;
    int rc = aesir_cipher_final(b->ctx, last, sizeof last, &ol);
    b->done = 1;
    PyObject *res =
        rc == AESIR_OK
            ? PyBytes_FromStringAndSize((const char *)last, (Py_ssize_t)ol)
            : (aesirpy_error(rc), NULL);
    memset(last, 0, sizeof last);
    return res;
}

static PyObject *get_engine(PyObject *self, void *closure)
{
    Block *b = (Block *)self;
    (void)closure;
    const char *e = b->key ? aesir_aes_engine(b->key) : NULL;
    if (e == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(e);
}

static PyMethodDef methods[] = {
    {"update", update, METH_O, "update(data) -> bytes"},
    {"update_into", (PyCFunction)(void (*)(void))update_into, METH_FASTCALL,
     "update_into(data, buf) -> bytes written"},
    {"finalize", finalize, METH_NOARGS, "finalize() -> the last bytes"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"engine", get_engine, NULL, "the AES engine's name", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot slots[] = {
    {Py_tp_init, block_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, block_dealloc}, {Py_tp_methods, methods},
    {Py_tp_getset, getset},         {0, NULL}};

static PyType_Spec spec = {"aesir._aesir.BlockCipher", sizeof(Block), 0,
                           Py_TPFLAGS_DEFAULT, slots};

int aesirpy_add_block(PyObject *m)
{
    return aesirpy_add_type(m, &spec, "BlockCipher");
}
