/*
 * xts_kw.c -- XTS-AES (IEEE 1619, SP 800-38E) as _aesir.XTS, with data
 * units addressed by sector number or by a raw 16-byte tweak; and AES
 * key wrap (RFC 3394 / SP 800-38F KW, and RFC 5649 KWP, "padded") as
 * module functions, the shape of pyca/cryptography's keywrap module.
 */
#include "_aesir.h"

#include <string.h>

typedef struct {
    PyObject_HEAD aesir_xts_key *key;
} Xts;

/* XTS(key, engine=None): key is Key1 || Key2, 32, 48 or 64 bytes. */
static int xts_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "engine", NULL};
    Xts *x = (Xts *)self;
    Py_buffer k;
    PyObject *eo = Py_None;
    const char *e;
    if (x->key != NULL) {
        PyErr_SetString(PyExc_TypeError, "already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|$O", kwlist, &k, &eo))
        return -1;
    int rc = -1;
    if (aesirpy_engine_arg(eo, &e) == 0 &&
        (x->key = aesirpy_alloc(sizeof(aesir_xts_key))) != NULL) {
        int err = aesir_xts_init_ex(x->key, k.buf, (size_t)k.len, e);
        if (err == AESIR_OK) {
            rc = 0;
        } else {
            aesirpy_free(x->key, sizeof(aesir_xts_key));
            x->key = NULL;
            aesirpy_error(err);
        }
    }
    PyBuffer_Release(&k);
    return rc;
}

static void xts_dealloc(PyObject *self)
{
    Xts *x = (Xts *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (x->key != NULL) {
        aesir_xts_clear(x->key);
        aesirpy_free(x->key, sizeof(aesir_xts_key));
    }
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

/*
 * The work of the four methods. unit is a sector number (int) or a
 * 16-byte tweak; sector_size 0 means one data unit, else consecutive
 * units of that size (unit then must be an int).
 */
static PyObject *xts_crypt(Xts *x, PyObject *unit, Py_ssize_t sector_size,
                           PyObject *data, int enc)
{
    Py_buffer tw = {0}, in;
    unsigned long long sector = 0;
    if (x->key == NULL) {
        PyErr_SetString(PyExc_ValueError, "key not set up");
        return NULL;
    }
    if (PyLong_Check(unit)) {
        sector = PyLong_AsUnsignedLongLong(unit);
        if (sector == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;
    } else if (sector_size != 0) {
        PyErr_SetString(PyExc_TypeError, "first_sector must be an int");
        return NULL;
    } else {
        if (aesirpy_buf(unit, &tw, 0, 0) < 0)
            return NULL;
        if (tw.len != AESIR_XTS_TWEAK_BYTES) {
            PyBuffer_Release(&tw);
            PyErr_SetString(PyExc_ValueError, "the tweak must be 16 bytes");
            return NULL;
        }
    }
    if (aesirpy_buf(data, &in, 0, 0) < 0) {
        aesirpy_release(&tw);
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, in.len);
    if (out != NULL) {
        uint8_t *o = (uint8_t *)PyBytes_AsString(out);
        const uint8_t *i = in.buf;
        size_t n = (size_t)in.len, ss = (size_t)sector_size;
        int rc;
        if (sector_size != 0)
            AESIRPY_NOGIL(n, rc = enc ? aesir_xts_encrypt_sectors(
                                            x->key, sector, ss, o, i, n)
                                      : aesir_xts_decrypt_sectors(
                                            x->key, sector, ss, o, i, n));
        else if (tw.obj != NULL)
            AESIRPY_NOGIL(
                n, rc = enc ? aesir_xts_encrypt(x->key, tw.buf, o, i, n)
                            : aesir_xts_decrypt(x->key, tw.buf, o, i, n));
        else
            AESIRPY_NOGIL(
                n,
                rc = enc ? aesir_xts_encrypt_sector(x->key, sector, o, i, n)
                         : aesir_xts_decrypt_sector(x->key, sector, o, i, n));
        if (rc != AESIR_OK) {
            Py_CLEAR(out);
            aesirpy_error(rc);
        }
    }
    PyBuffer_Release(&in);
    aesirpy_release(&tw);
    return out;
}

static PyObject *encrypt(PyObject *self, PyObject *args)
{
    PyObject *u, *d;
    if (!PyArg_ParseTuple(args, "OO", &u, &d))
        return NULL;
    return xts_crypt((Xts *)self, u, 0, d, 1);
}

static PyObject *decrypt(PyObject *self, PyObject *args)
{
    PyObject *u, *d;
    if (!PyArg_ParseTuple(args, "OO", &u, &d))
        return NULL;
    return xts_crypt((Xts *)self, u, 0, d, 0);
}

static PyObject *sectors(PyObject *self, PyObject *args, int enc)
{
    PyObject *u, *d;
    Py_ssize_t ss;
    if (!PyArg_ParseTuple(args, "OnO", &u, &ss, &d))
        return NULL;
    if (ss <= 0) {
        PyErr_SetString(PyExc_ValueError, "sector_size must be positive");
        return NULL;
    }
    return xts_crypt((Xts *)self, u, ss, d, enc);
}

static PyObject *encrypt_sectors(PyObject *self, PyObject *args)
{
    return sectors(self, args, 1);
}

static PyObject *decrypt_sectors(PyObject *self, PyObject *args)
{
    return sectors(self, args, 0);
}

static PyObject *get_engine(PyObject *self, void *closure)
{
    Xts *x = (Xts *)self;
    (void)closure;
    const char *e = x->key ? aesir_xts_engine(x->key) : NULL;
    if (e == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(e);
}

static PyMethodDef xts_methods[] = {
    {"encrypt", encrypt, METH_VARARGS,
     "encrypt(sector_or_tweak, data) -> one data unit encrypted"},
    {"decrypt", decrypt, METH_VARARGS,
     "decrypt(sector_or_tweak, data) -> one data unit decrypted"},
    {"encrypt_sectors", encrypt_sectors, METH_VARARGS,
     "encrypt_sectors(first_sector, sector_size, data)"},
    {"decrypt_sectors", decrypt_sectors, METH_VARARGS,
     "decrypt_sectors(first_sector, sector_size, data)"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef xts_getset[] = {
    {"engine", get_engine, NULL, "the AES engine's name", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot xts_slots[] = {
    {Py_tp_init, xts_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, xts_dealloc}, {Py_tp_methods, xts_methods},
    {Py_tp_getset, xts_getset},   {0, NULL}};

static PyType_Spec xts_spec = {"aesir.XTS", sizeof(Xts), 0, Py_TPFLAGS_DEFAULT,
                               xts_slots};

/* key_wrap(kek, data, unwrap, padded, engine) -> bytes */
static PyObject *key_wrap(PyObject *self, PyObject *args)
{
    Py_buffer kek, in;
    int unwrap, padded;
    PyObject *eo, *out = NULL;
    const char *e;
    aesir_aes *key = NULL;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*ppO", &kek, &in, &unwrap, &padded, &eo))
        return NULL;
    size_t n = (size_t)in.len, ol = 0;
    /* KW adds 8 bytes; KWP pads to a multiple of 8 first. */
    size_t cap = unwrap ? n : (padded ? ((n + 7) & ~(size_t)7) : n) + 8;
    uint8_t *buf = NULL;
    if (aesirpy_engine_arg(eo, &e) < 0 ||
        (key = aesirpy_alloc(sizeof(aesir_aes))) == NULL ||
        (buf = aesirpy_alloc(cap + 1)) == NULL)
        goto rel;
    int rc = aesir_aes_init_ex(key, kek.buf, (size_t)kek.len, e,
                               unwrap ? AESIR_DECRYPT : AESIR_ENCRYPT);
    if (rc == AESIR_OK) {
        if (unwrap)
            rc = (padded ? aesir_kwp_unwrap : aesir_kw_unwrap)(key, 0, buf, cap,
                                                               &ol, in.buf, n);
        else
            rc = (padded ? aesir_kwp_wrap : aesir_kw_wrap)(key, 0, buf, cap,
                                                           &ol, in.buf, n);
    }
    if (rc == AESIR_OK)
        out = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)ol);
    else
        aesirpy_error(rc);
rel:
    if (key != NULL) {
        aesir_aes_clear(key);
        aesirpy_free(key, sizeof(aesir_aes));
    }
    aesirpy_free(buf, cap + 1); /* unwrapped keys are secrets: wiped */
    PyBuffer_Release(&in);
    PyBuffer_Release(&kek);
    return out;
}

static PyMethodDef kw_functions[] = {
    {"key_wrap", key_wrap, METH_VARARGS,
     "key_wrap(kek, data, unwrap, padded, engine) -> bytes"},
    {NULL, NULL, 0, NULL}};

int aesirpy_add_xts_kw(PyObject *m)
{
    if (aesirpy_add_type(m, &xts_spec, "XTS") < 0)
        return -1;
    return PyModule_AddFunctions(m, kw_functions);
}
