/*
 * aead.c -- one type, _aesir.AEAD, for every one-shot AEAD of the C API:
 * GCM, CCM, OCB3, GCM-SIV, AES-SIV, XAES-256-GCM and the AEGIS family.
 * The Python classes (aesir/_aead.py) subclass it and pass a kind; the
 * encrypt/decrypt methods stay C methods, so a call costs one vectorcall
 * and no Python frame.
 *
 * A kind is a table of adapters that give every mode's seal/open one
 * signature: (key, nonce, aad, out, in, tag length). Output is
 * ciphertext || tag (AES-SIV: V || ciphertext, RFC 5297), as in
 * pyca/cryptography's AEAD classes, whose method names and argument
 * order these follow (encrypt(nonce, data, associated_data),
 * encrypt_into(nonce, data, associated_data, buf)).
 */
#include "_aesir.h"

#include <string.h>
#include <time.h>

typedef struct {
    PyObject_HEAD const struct aesirpy_kind *kind;
    void *key;
    size_t tag;
    int kindno;
} Aead;

/* AEAD(kind, key, tag_length, engine=None, ghash_engine=None, variant=0) */
static int aead_init(PyObject *self, PyObject *args, PyObject *kw)
{
    Aead *a = (Aead *)self;
    int kindno, variant = 0;
    Py_buffer k;
    Py_ssize_t tag;
    PyObject *eo = Py_None, *go = Py_None;
    const char *e, *g;
    if (kw != NULL && PyDict_Size(kw) != 0) {
        PyErr_SetString(PyExc_TypeError, "AEAD() takes no keywords");
        return -1;
    }
    if (a->key != NULL) {
        PyErr_SetString(PyExc_TypeError, "already initialised");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "iy*n|OOi", &kindno, &k, &tag, &eo, &go,
                          &variant))
        return -1;
    int rc = -1;
    if (aesirpy_kind(kindno) == NULL || tag < 0) {
        PyErr_SetString(PyExc_ValueError, "bad AEAD kind or tag length");
        goto out;
    }
    if (aesirpy_engine_arg(eo, &e) < 0 || aesirpy_engine_arg(go, &g) < 0)
        goto out;
    a->kind = aesirpy_kind(kindno);
    a->kindno = kindno;
    a->tag = (size_t)tag;
    a->key = aesirpy_alloc(a->kind->key_size);
    if (a->key == NULL)
        goto out;
    int err = a->kind->init(a->key, k.buf, (size_t)k.len, e, g, variant);
    if (err != AESIR_OK) {
        aesirpy_free(a->key, a->kind->key_size);
        a->key = NULL;
        aesirpy_error(err);
        goto out;
    }
    rc = 0;
out:
    PyBuffer_Release(&k);
    return rc;
}

static void aead_dealloc(PyObject *self)
{
    Aead *a = (Aead *)self;
    PyTypeObject *tp = Py_TYPE(self);
    if (a->key != NULL) {
        a->kind->clear(a->key);
        aesirpy_free(a->key, a->kind->key_size);
    }
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

/* AES-SIV's associated data: a sequence of bytes-like objects. */
static int siv_ads(PyObject *o, Py_buffer *bufs, aesir_siv_ad *ads, size_t *n)
{
    *n = 0;
    if (o == NULL || o == Py_None)
        return 0;
    PyObject *seq = PySequence_Fast(o, "associated_data must be a list of "
                                       "bytes-like objects");
    if (seq == NULL)
        return -1;
    Py_ssize_t len = PySequence_Size(seq);
    if (len > AESIR_SIV_MAX_AD) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many associated data items");
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        int r = item ? aesirpy_buf(item, &bufs[i], 0, 0) : -1;
        Py_XDECREF(item);
        if (r < 0) {
            Py_DECREF(seq);
            return -1;
        }
        ads[i].p = bufs[i].buf;
        ads[i].len = (size_t)bufs[i].len;
        *n = (size_t)i + 1;
    }
    Py_DECREF(seq);
    return 0;
}

/* The work of encrypt, decrypt, encrypt_into and decrypt_into: bytes, or
 * (into) the count of bytes written to out_o. */
static PyObject *aead_crypt(Aead *a, PyObject *no, PyObject *dob, PyObject *ao,
                            PyObject *out_o, int enc)
{
    Py_buffer nb, db, ab, ob = {0};
    Py_buffer sivbufs[AESIR_SIV_MAX_AD];
    aesir_siv_ad ads[AESIR_SIV_MAX_AD];
    size_t nads = 0, ol = 0;
    PyObject *res = NULL, *bytes = NULL;
    int siv = a->kindno == KIND_SIV;
    if (a->key == NULL) {
        PyErr_SetString(PyExc_ValueError, "key not set up");
        return NULL;
    }
    memset(&ab, 0, sizeof ab);
    if (aesirpy_buf(no, &nb, 0, siv) < 0)
        return NULL;
    if (aesirpy_buf(dob, &db, 0, 0) < 0)
        goto rel_n;
    if (siv ? siv_ads(ao, sivbufs, ads, &nads) < 0
            : aesirpy_buf(ao, &ab, 0, 1) < 0)
        goto rel_d;
    size_t in = (size_t)db.len, need;
    if (enc) {
        need = in + a->tag;
    } else {
        if (in < a->tag) { /* no room for a tag: cannot be authentic */
            PyErr_SetString(aesirpy_InvalidTag, aesir_strerror(AESIR_E_AUTH));
            goto rel_a;
        }
        need = in - a->tag;
    }
    uint8_t *out;
    if (out_o != NULL) {
        if (aesirpy_buf(out_o, &ob, 1, 0) < 0)
            goto rel_a;
        if ((size_t)ob.len < need) {
            PyErr_Format(PyExc_ValueError,
                         "output buffer too small: %zu bytes needed", need);
            goto rel_o;
        }
        out = ob.buf;
        const uint8_t *ip = db.buf, *op = out;
        /* Exactly in place works; a partial overlap would not. */
        if (op != ip && op < ip + in && ip < op + need) {
            PyErr_SetString(PyExc_ValueError,
                            "output buffer overlaps the input");
            goto rel_o;
        }
    } else {
        bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)need);
        if (bytes == NULL)
            goto rel_a;
        out = (uint8_t *)PyBytes_AsString(bytes);
    }
    const uint8_t *ap = siv ? (const uint8_t *)(const void *)ads : ab.buf;
    size_t al = siv ? nads : (size_t)ab.len;
    /* AES-SIV's nonce: None is no nonce component at all. */
    const uint8_t *np = nb.obj ? (nb.buf ? nb.buf : (const uint8_t *)"") : NULL;
    crypt_fn f = enc ? a->kind->seal : a->kind->open;
    int rc;
    AESIRPY_NOGIL(in, rc = f(a->key, np, (size_t)nb.len, ap, al, out, need, &ol,
                             db.buf, in, a->tag));
    if (rc == AESIR_E_INPUT_LENGTH) {
        /* aesir_strerror speaks of block multiples; here it means the
         * mode's limits (CCM: 2^(8 * (15 - nonce length)) bytes). */
        PyErr_SetString(PyExc_ValueError,
                        "data or associated data too long for this mode "
                        "(CCM: for this nonce length)");
        Py_CLEAR(bytes);
    } else if (rc != AESIR_OK) {
        aesirpy_error(rc);
        Py_CLEAR(bytes);
    } else if (out_o != NULL) {
        res = PyLong_FromSize_t(ol);
    } else {
        res = bytes;
        bytes = NULL;
    }
    Py_XDECREF(bytes);
rel_o:
    aesirpy_release(&ob);
rel_a:
    aesirpy_release(&ab);
    for (size_t i = 0; i < nads; i++)
        PyBuffer_Release(&sivbufs[i]);
rel_d:
    PyBuffer_Release(&db);
rel_n:
    aesirpy_release(&nb);
    return res;
}

static const char *const crypt_names[] = {"nonce", "data", "associated_data",
                                          "buf"};

static PyObject *encrypt(PyObject *self, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[3];
    if (aesirpy_args("encrypt", args, nargs, kwnames, crypt_names, 3, 2, v))
        return NULL;
    return aead_crypt((Aead *)self, v[0], v[1], v[2], NULL, 1);
}

static PyObject *decrypt(PyObject *self, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[3];
    if (aesirpy_args("decrypt", args, nargs, kwnames, crypt_names, 3, 2, v))
        return NULL;
    return aead_crypt((Aead *)self, v[0], v[1], v[2], NULL, 0);
}

static PyObject *encrypt_into(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[4];
    if (aesirpy_args("encrypt_into", args, nargs, kwnames, crypt_names, 4, 4,
                     v))
        return NULL;
    return aead_crypt((Aead *)self, v[0], v[1], v[2], v[3], 1);
}

static PyObject *decrypt_into(PyObject *self, PyObject *const *args,
                              Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[4];
    if (aesirpy_args("decrypt_into", args, nargs, kwnames, crypt_names, 4, 4,
                     v))
        return NULL;
    return aead_crypt((Aead *)self, v[0], v[1], v[2], v[3], 0);
}

/* engine -> the AES engine's name (and, where a mode has one, GHASH's). */
static PyObject *get_engine(PyObject *self, void *closure)
{
    Aead *a = (Aead *)self;
    const char *e = NULL, *g = NULL;
    (void)closure;
    if (a->key == NULL)
        Py_RETURN_NONE;
    switch (a->kindno) {
    case KIND_GCM:
        (void)aesir_gcm_engines(a->key, &e, &g);
        break;
    case KIND_CCM:
        e = aesir_ccm_engine(a->key);
        break;
    case KIND_OCB:
        e = aesir_ocb_engine(a->key);
        break;
    case KIND_GCMSIV:
        (void)aesir_gcm_siv_engines(a->key, &e, &g);
        break;
    case KIND_AEGIS:
        (void)aesir_aegis_engine(a->key, &e, &g);
        break;
    default:
        break; /* SIV and XAES do not say */
    }
    if (e == NULL)
        Py_RETURN_NONE;
    return g ? Py_BuildValue("(ss)", e, g) : PyUnicode_FromString(e);
}

/*
 * _c_loop(nonce, data, buf, iters, decrypt) -> seconds: seals (or opens)
 * data into buf iters times in a C loop, GIL released, timed with
 * CLOCK_MONOTONIC: the C library's own speed on this key, with no
 * Python in the loop, for aesir.bench's "within 10 % of C" figure.
 */
static PyObject *c_loop(PyObject *self, PyObject *args)
{
    Aead *a = (Aead *)self;
    Py_buffer nb, db, ob;
    Py_ssize_t iters;
    int dec, rc = AESIR_OK;
    struct timespec t0, t1;
    size_t ol;
    if (a->key == NULL || a->kindno == KIND_SIV) {
        PyErr_SetString(PyExc_ValueError, "not for this key");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*w*np", &nb, &db, &ob, &iters, &dec))
        return NULL;
    crypt_fn f = dec ? a->kind->open : a->kind->seal;
    Py_BEGIN_ALLOW_THREADS clock_gettime(CLOCK_MONOTONIC, &t0);
    for (Py_ssize_t i = 0; i < iters && rc == AESIR_OK; i++)
        rc = f(a->key, nb.buf, (size_t)nb.len, NULL, 0, ob.buf, (size_t)ob.len,
               &ol, db.buf, (size_t)db.len, a->tag);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    Py_END_ALLOW_THREADS PyBuffer_Release(&nb);
    PyBuffer_Release(&db);
    PyBuffer_Release(&ob);
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyFloat_FromDouble((double)(t1.tv_sec - t0.tv_sec) +
                              (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
}

static PyMethodDef methods[] = {
    {"_c_loop", c_loop, METH_VARARGS,
     "_c_loop(nonce, data, buf, iters, decrypt) -> seconds (benchmark)"},
    {"encrypt", AESIRPY_METH(encrypt), METH_FASTCALL | METH_KEYWORDS,
     "encrypt(nonce, data, associated_data=None) -> ciphertext || tag"},
    {"decrypt", AESIRPY_METH(decrypt), METH_FASTCALL | METH_KEYWORDS,
     "decrypt(nonce, data, associated_data=None) -> plaintext; raises "
     "InvalidTag"},
    {"encrypt_into", AESIRPY_METH(encrypt_into), METH_FASTCALL | METH_KEYWORDS,
     "encrypt_into(nonce, data, associated_data, buf) -> bytes written"},
    {"decrypt_into", AESIRPY_METH(decrypt_into), METH_FASTCALL | METH_KEYWORDS,
     "decrypt_into(nonce, data, associated_data, buf) -> bytes written"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"_engine", get_engine, NULL,
     "the engine name, or (AES engine, GHASH engine / AEGIS path)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot slots[] = {
    {Py_tp_init, aead_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, aead_dealloc}, {Py_tp_methods, methods},
    {Py_tp_getset, getset},        {0, NULL}};

static PyType_Spec spec = {"aesir._aesir.AEAD", sizeof(Aead), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};

int aesirpy_add_aead(PyObject *m)
{
    return aesirpy_add_type(m, &spec, "AEAD");
}

void *aesirpy_aead_key(PyObject *o, int kindno, size_t *tag)
{
    PyObject *t =
        PyObject_GetAttrString(PyImport_AddModule("aesir._aesir"), "AEAD");
    int ok = t != NULL && PyObject_IsInstance(o, t) == 1;
    Py_XDECREF(t);
    if (!ok || ((Aead *)o)->kindno != kindno || ((Aead *)o)->key == NULL) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "wrong key object for this mode");
        return NULL;
    }
    *tag = ((Aead *)o)->tag;
    return ((Aead *)o)->key;
}
