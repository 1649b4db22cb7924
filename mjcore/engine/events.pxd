# Compiled by Cython: declarations that type events.py when the wheel is built (CMakeLists.txt).
# Augments events.py when compiled: the log's fields in a C struct, writes as C calls.

cimport cython


cdef class Deferred:
    cdef public object fn
    cdef public tuple args


cdef class EventLog:
    cdef list _packed
    cdef Py_ssize_t _n
    cdef object _starts

    @cython.locals(packed=list)
    cpdef Py_ssize_t append(self, str kind, dict data) except -1
    cpdef Py_ssize_t adopt(self, str kind, dict data) except -1
    @cython.locals(packed=list, width=Py_ssize_t, widths=list)
    cpdef add(self, Py_ssize_t sid, a=*, b=*, c=*, d=*, e=*)
    @cython.locals(at=Py_ssize_t, end=Py_ssize_t, sid=Py_ssize_t, width=Py_ssize_t,
                   packed=list, widths=list, new=list)
    cpdef _index(self)
    @cython.locals(packed=list, widths=list, schemas=list, out=list, at=Py_ssize_t,
                   end=Py_ssize_t, sid=Py_ssize_t, width=Py_ssize_t)
    cpdef list types(self)
    @cython.locals(schemas=list, chosen=bytearray, packed=list, widths=list, out=list,
                   n=Py_ssize_t, at=Py_ssize_t, seq=Py_ssize_t, end=Py_ssize_t, sid=Py_ssize_t,
                   width=Py_ssize_t)
    cpdef list _select(self, tuple kinds)


cdef list _WIDTHS  # (schema number -> width: a C global, read at every event)


@cython.locals(ids=dict, key=tuple)
cdef Py_ssize_t _shape(str kind, dict data) except -1
@cython.locals(kind=type)
cpdef copy_plain(value)
