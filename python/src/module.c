/*
 * module.c -- the _aesir extension module: error mapping, the engine
 * registry (aesir_engine_* of include/aesir.h), and the helpers the
 * other files share (argument parsing, buffers, aligned key memory).
 *
 * Errors follow pyca/cryptography's habits, so code moving from it keeps
 * its except clauses: misuse (key, nonce, tag or output sizes, padding,
 * state) is ValueError, a wrong type TypeError (raised by the buffer
 * protocol), authentication failure aesir.InvalidTag; an engine name the
 * build or the CPU lacks is aesir.EngineError, a ValueError.
 */
#include "_aesir.h"

#include <stdlib.h>
#include <string.h>

PyObject *aesirpy_InvalidTag;
PyObject *aesirpy_EngineError;

/*
 * Releasing and retaking the GIL costs two atomic operations and, when
 * another thread waits, a hand-over; at 64 bytes that is a large share of
 * a ~150 ns call. Measured (python/README.md, "Design"): from about 4 KiB
 * on, a GCM call is long enough that the release is lost in the noise,
 * and other threads get to run during it.
 */
Py_ssize_t aesirpy_gil_min = 4096;

int aesirpy_error(int rc)
{
    PyObject *type = PyExc_ValueError;
    if (rc == AESIR_E_AUTH)
        type = aesirpy_InvalidTag;
    else if (rc == AESIR_E_ENGINE_UNKNOWN || rc == AESIR_E_ENGINE_UNAVAILABLE)
        type = aesirpy_EngineError;
    else if (rc == AESIR_E_SELFTEST)
        type = PyExc_RuntimeError;
    PyErr_SetString(type, aesir_strerror(rc));
    return -1;
}

void *aesirpy_alloc(size_t n)
{
    /* aligned_alloc wants a multiple of the alignment. */
    void *p = aligned_alloc(64, (n + 63) & ~(size_t)63);
    if (p == NULL)
        PyErr_NoMemory();
    else
        memset(p, 0, n);
    return p;
}

void aesirpy_free(void *p, size_t n)
{
    if (p == NULL)
        return;
    /* The C API's *_clear() wipes key material; this is for contexts
     * that have none, and a second line of defence. volatile keeps the
     * compiler from dropping a store to memory about to be freed. */
    volatile unsigned char *v = p;
    for (size_t i = 0; i < n; i++)
        v[i] = 0;
    free(p);
}

int aesirpy_engine_arg(PyObject *o, const char **name)
{
    *name = NULL;
    if (o == NULL || o == Py_None)
        return 0;
    if (!PyUnicode_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "engine must be a str or None");
        return -1;
    }
    *name = PyUnicode_AsUTF8AndSize(o, NULL);
    return *name == NULL ? -1 : 0;
}

int aesirpy_buf(PyObject *o, Py_buffer *b, int writable, int none_ok)
{
    memset(b, 0, sizeof *b);
    if (o == NULL || o == Py_None) {
        if (none_ok)
            return 0;
        PyErr_SetString(PyExc_TypeError, "a bytes-like object is required");
        return -1;
    }
    if (PyUnicode_Check(o)) {
        /* str has no buffer anyway; say what is wanted. */
        PyErr_SetString(PyExc_TypeError,
                        "a bytes-like object is required, not 'str'");
        return -1;
    }
    if (PyObject_GetBuffer(o, b, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) == 0)
        return 0;
    /* Read-only where a writable buffer is needed, or not contiguous:
     * the wrong kind of object, so TypeError like any other. */
    if (PyErr_ExceptionMatches(PyExc_BufferError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError,
                        writable ? "a writable, contiguous bytes-like object "
                                   "is required"
                                 : "a contiguous bytes-like object is "
                                   "required");
    }
    return -1;
}

void aesirpy_release(Py_buffer *b)
{
    if (b->obj != NULL)
        PyBuffer_Release(b);
}

int aesirpy_args(const char *fn, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, const char *const *names, int n, int nreq,
                 PyObject **out)
{
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments", fn, n);
        return -1;
    }
    for (int i = 0; i < n; i++)
        out[i] = i < nargs ? args[i] : NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_Size(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *kn = PyTuple_GetItem(kwnames, k);
        int i = 0;
        while (i < n && PyUnicode_CompareWithASCIIString(kn, names[i]) != 0)
            i++;
        if (i == n || out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got %s keyword argument %R", fn,
                         i == n ? "an unexpected" : "a repeated", kn);
            return -1;
        }
        out[i] = args[nargs + k];
    }
    for (int i = 0; i < nreq; i++)
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing argument '%s'", fn,
                         names[i]);
            return -1;
        }
    return 0;
}

int aesirpy_add_type(PyObject *m, PyType_Spec *spec, const char *name)
{
    PyObject *t = PyType_FromSpec(spec);
    if (t == NULL)
        return -1;
    if (PyModule_AddObject(m, name, t) < 0) {
        Py_DECREF(t);
        return -1;
    }
    return 0;
}

/* engines() -> list of (name, description, flags) for every engine of
 * the build, in the library's order; aesir/__init__.py makes them
 * named tuples. ghash is 1 for the GHASH multipliers' registry. */
static PyObject *list_engines(PyObject *self, PyObject *arg)
{
    (void)self;
    int ghash = PyObject_IsTrue(arg);
    if (ghash < 0)
        return NULL;
    size_t n = ghash ? aesir_ghash_engine_count() : aesir_engine_count();
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < n; i++) {
        const char *name =
            ghash ? aesir_ghash_engine_name(i) : aesir_engine_name(i);
        const char *desc = ghash ? aesir_ghash_engine_description(i)
                                 : aesir_engine_description(i);
        unsigned fl =
            ghash ? aesir_ghash_engine_flags(i) : aesir_engine_flags(i);
        PyObject *t = Py_BuildValue("(ssI)", name, desc ? desc : "", fl);
        if (t == NULL || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

static PyObject *default_engine(PyObject *self, PyObject *arg)
{
    (void)self;
    int ghash = PyObject_IsTrue(arg);
    if (ghash < 0)
        return NULL;
    return PyUnicode_FromString(ghash ? aesir_ghash_engine_default()
                                      : aesir_engine_default());
}

static PyObject *selftest(PyObject *self, PyObject *arg)
{
    (void)self;
    const char *name;
    if (aesirpy_engine_arg(arg, &name) < 0)
        return NULL;
    int rc = aesir_engine_selftest(name ? name : aesir_engine_default());
    if (rc != AESIR_OK)
        return aesirpy_error(rc), NULL;
    Py_RETURN_NONE;
}

/* _set_gil_threshold(n) -> the previous threshold (tests, benchmarks). */
static PyObject *set_gil_threshold(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t old = aesirpy_gil_min;
    aesirpy_gil_min = n < 0 ? 0 : n;
    return PyLong_FromSsize_t(old);
}

static PyMethodDef functions[] = {
    {"engines", list_engines, METH_O,
     "engines(ghash) -> [(name, desc, flags)]"},
    {"default_engine", default_engine, METH_O, "default_engine(ghash) -> str"},
    {"selftest", selftest, METH_O, "selftest(engine): known-answer test"},
    {"_set_gil_threshold", set_gil_threshold, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    "_aesir",
    "aesir's C library for Python (use the aesir package)",
    -1,
    functions,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__aesir(void)
{
    PyObject *m = PyModule_Create(&moduledef);
    if (m == NULL)
        return NULL;
    aesirpy_InvalidTag = PyErr_NewExceptionWithDoc(
        "aesir.InvalidTag",
        "Authentication failed: the tag, or the integrity check, does not "
        "match (wrong key, nonce, associated data, or tampered data).",
        NULL, NULL);
    aesirpy_EngineError =
        PyErr_NewExceptionWithDoc("aesir.EngineError",
                                  "No engine of that name in this build, or "
                                  "not on this CPU.",
                                  PyExc_ValueError, NULL);
    if (aesirpy_InvalidTag == NULL || aesirpy_EngineError == NULL)
        goto fail;
    Py_INCREF(aesirpy_InvalidTag);
    Py_INCREF(aesirpy_EngineError);
    if (PyModule_AddObject(m, "InvalidTag", aesirpy_InvalidTag) < 0 ||
        PyModule_AddObject(m, "EngineError", aesirpy_EngineError) < 0 ||
        PyModule_AddStringConstant(m, "c_version", aesir_version()) < 0 ||
        PyModule_AddIntConstant(m, "CONSTANT_TIME",
                                AESIR_ENGINE_CONSTANT_TIME) < 0 ||
        PyModule_AddIntConstant(m, "HARDWARE", AESIR_ENGINE_HARDWARE) < 0 ||
        PyModule_AddIntConstant(m, "AVAILABLE", AESIR_ENGINE_AVAILABLE) < 0)
        goto fail;
    if (aesirpy_add_aead(m) < 0 || aesirpy_add_stream(m) < 0 ||
        aesirpy_add_block(m) < 0 || aesirpy_add_cmac(m) < 0 ||
        aesirpy_add_xts_kw(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
