/*
 * cmac.c -- AES-CMAC (SP 800-38B, RFC 4493) as _aesir.CMAC: update /
 * finalize / verify in the shape of pyca/cryptography's cmac.CMAC, plus
 * one-shot tag() and verify_tag() on the same key (the C API's
 * aesir_cmac_tag / aesir_cmac_tag_verify, no context set up per call).
 * Verification compares in constant time inside the C library.
 */
#include "_aesir.h"

#include <string.h>

typedef struct {
    PyObject_HEAD aesir_cmac_key *key;
    aesir_cmac *ctx;
    int done;
    int busy; /* an update runs with the GIL released */
} Cmac;

static void cmac_free(Cmac *c)
{
    if (c->ctx != NULL) {
        aesir_cmac_abort(c->ctx);
        aesirpy_free(c->ctx, sizeof(aesir_cmac));
        c->ctx = NULL;
    }
    if (c->key != NULL) {
        aesir_cmac_clear(c->key);
        aesirpy_free(c->key, sizeof(aesir_cmac_key));
        c->key = NULL;
    }
}

/* CMAC(key, engine=None) */
static int cmac_init(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"key", "engine", NULL};
    Cmac *c = (Cmac *)self;
    Py_buffer k;
    PyObject *eo = Py_None;
    const char *e;
    if (c->key != NULL) {
        PyErr_SetString(PyExc_TypeError, "already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|$O", kwlist, &k, &eo))
        return -1;
    int rc = -1, err;
    if (aesirpy_engine_arg(eo, &e) < 0)
        goto out;
    c->key = aesirpy_alloc(sizeof(aesir_cmac_key));
    c->ctx = aesirpy_alloc(sizeof(aesir_cmac));
    if (c->key == NULL || c->ctx == NULL)
        goto out;
    err = aesir_cmac_init_ex(c->key, k.buf, (size_t)k.len, e);
    if (err == AESIR_OK)
        err = aesir_cmac_start(c->ctx, c->key);
    if (err != AESIR_OK) {
        aesirpy_error(err);
        goto out;
    }
    rc = 0;
out:
    if (rc < 0)
        cmac_free(c);
    PyBuffer_Release(&k);
    return rc;
}

static void cmac_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    cmac_free((Cmac *)self);
    ((freefunc)PyType_GetSlot(tp, Py_tp_free))(self);
    Py_DECREF(tp);
}

static int check_open(Cmac *c)
{
    if (c->ctx == NULL || c->done) {
        PyErr_SetString(PyExc_ValueError, "context already finalized");
        return -1;
    }
    /* Set and read with the GIL held: a second thread cannot slip in. */
    if (c->busy) {
        PyErr_SetString(PyExc_ValueError,
                        "context in use by another thread (a context "
                        "belongs to one thread at a time)");
        return -1;
    }
    return 0;
}

static PyObject *update(PyObject *self, PyObject *arg)
{
    Cmac *c = (Cmac *)self;
    Py_buffer b;
    if (check_open(c) < 0 || aesirpy_buf(arg, &b, 0, 0) < 0)
        return NULL;
    int rc;
    c->busy = 1;
    AESIRPY_NOGIL(b.len, rc = aesir_cmac_update(c->ctx, b.buf, (size_t)b.len));
    c->busy = 0;
    PyBuffer_Release(&b);
    if (rc != AESIR_OK) {
        c->done = 1;
        return aesirpy_error(rc), NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *finalize(PyObject *self, PyObject *unused)
{
    Cmac *c = (Cmac *)self;
    uint8_t tag[AESIR_CMAC_TAG_BYTES];
    (void)unused;
    if (check_open(c) < 0)
        return NULL;
    int rc = aesir_cmac_finish(c->ctx, tag, sizeof tag);
    c->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyBytes_FromStringAndSize((const char *)tag, sizeof tag);
}

static PyObject *verify(PyObject *self, PyObject *arg)
{
    Cmac *c = (Cmac *)self;
    Py_buffer t;
    if (check_open(c) < 0 || aesirpy_buf(arg, &t, 0, 0) < 0)
        return NULL;
    int rc = aesir_cmac_verify(c->ctx, t.buf, (size_t)t.len);
    PyBuffer_Release(&t);
    c->done = 1;
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    Py_RETURN_NONE;
}

/* tag(data, length=16) -> the tag of data alone, the object's own
 * incremental state untouched. */
static PyObject *tag(PyObject *self, PyObject *args)
{
    Cmac *c = (Cmac *)self;
    Py_buffer b;
    Py_ssize_t len = AESIR_CMAC_TAG_BYTES;
    uint8_t out[AESIR_CMAC_TAG_BYTES];
    if (c->key == NULL) {
        PyErr_SetString(PyExc_ValueError, "key not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*|n", &b, &len))
        return NULL;
    int rc = AESIR_E_ARGUMENT;
    if (len >= 0 && len <= AESIR_CMAC_TAG_BYTES)
        AESIRPY_NOGIL(b.len, rc = aesir_cmac_tag(c->key, b.buf, (size_t)b.len,
                                                 out, (size_t)len));
    PyBuffer_Release(&b);
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    return PyBytes_FromStringAndSize((const char *)out, len);
}

/* verify_tag(data, tag): raises InvalidTag when tag is not data's. */
static PyObject *verify_tag(PyObject *self, PyObject *args)
{
    Cmac *c = (Cmac *)self;
    Py_buffer b, t;
    if (c->key == NULL) {
        PyErr_SetString(PyExc_ValueError, "key not set up");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*y*", &b, &t))
        return NULL;
    int rc;
    AESIRPY_NOGIL(b.len,
                  rc = aesir_cmac_tag_verify(c->key, b.buf, (size_t)b.len,
                                             t.buf, (size_t)t.len));
    PyBuffer_Release(&b);
    PyBuffer_Release(&t);
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    Py_RETURN_NONE;
}

static PyObject *get_engine(PyObject *self, void *closure)
{
    Cmac *c = (Cmac *)self;
    (void)closure;
    const char *e = c->key ? aesir_cmac_engine(c->key) : NULL;
    if (e == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(e);
}

static PyMethodDef methods[] = {
    {"update", update, METH_O, "update(data): more message"},
    {"finalize", finalize, METH_NOARGS, "finalize() -> the 16-byte tag"},
    {"verify", verify, METH_O,
     "verify(tag): raises InvalidTag unless tag is the message's"},
    {"tag", tag, METH_VARARGS, "tag(data, length=16) -> one-shot tag"},
    {"verify_tag", verify_tag, METH_VARARGS,
     "verify_tag(data, tag): one-shot check, raises InvalidTag"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef getset[] = {
    {"engine", get_engine, NULL, "the AES engine's name", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot slots[] = {
    {Py_tp_init, cmac_init},       {Py_tp_new, PyType_GenericNew},
    {Py_tp_dealloc, cmac_dealloc}, {Py_tp_methods, methods},
    {Py_tp_getset, getset},        {0, NULL}};

static PyType_Spec spec = {"aesir.CMAC", sizeof(Cmac), 0, Py_TPFLAGS_DEFAULT,
                           slots};

int aesirpy_add_cmac(PyObject *m)
{
    return aesirpy_add_type(m, &spec, "CMAC");
}
