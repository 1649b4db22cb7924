/* String equality for the Cython-compiled Python modules (CMakeLists.txt includes this file
 * first in each of them).
 *
 * Cython 3.1+ tests two str objects for == / != with an identity check and then
 * PyUnicode_Compare, an ordering compare of ~90 instructions; the engine compares short
 * kinds and phases ("discard" == "hu", phase == "turn") on every step, and most such
 * compares are of unequal strings. Equality only needs the lengths, the kinds and the bytes:
 * this file defines Cython's four equality helpers that way, under the guard macros Cython
 * checks before defining its own (a Cython without them simply never calls these).
 * From Python 3.14 Cython calls PyUnicode_Equal, which is already this test. */
#ifndef MJ_STR_EQUAL_H
#define MJ_STR_EQUAL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#if !defined(Py_LIMITED_API) && PY_VERSION_HEX < 0x030E0000

/* a == b for two str objects (exact or subclasses: both are read through the same macros). */
static inline int mj_str_equal(PyObject *a, PyObject *b) {
    Py_ssize_t n;
    if (a == b) return 1;
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(a) || !PyUnicode_IS_READY(b)) return PyUnicode_Compare(a, b) == 0;
#endif
    n = PyUnicode_GET_LENGTH(a);
    if (n != PyUnicode_GET_LENGTH(b) || PyUnicode_KIND(a) != PyUnicode_KIND(b)) return 0;
    return memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)n * PyUnicode_KIND(a)) == 0;
}

#define __Pyx_DEFINED_PyObject_CompareStrStrBoolEq
static inline int __Pyx_PyObject_CompareStrStrBoolEq(PyObject *s1, PyObject *s2) {
    return mj_str_equal(s1, s2);
}

#define __Pyx_DEFINED_PyObject_CompareStrStrBoolNe
static inline int __Pyx_PyObject_CompareStrStrBoolNe(PyObject *s1, PyObject *s2) {
    return !mj_str_equal(s1, s2);
}

/* (the same tests where the result is kept as a Python bool) */
#define __Pyx_DEFINED_PyObject_CompareStrStrEq
static inline PyObject *__Pyx_PyObject_CompareStrStrEq(PyObject *s1, PyObject *s2) {
    if (mj_str_equal(s1, s2)) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

#define __Pyx_DEFINED_PyObject_CompareStrStrNe
static inline PyObject *__Pyx_PyObject_CompareStrStrNe(PyObject *s1, PyObject *s2) {
    if (mj_str_equal(s1, s2)) Py_RETURN_FALSE;
    Py_RETURN_TRUE;
}

#endif
#endif
