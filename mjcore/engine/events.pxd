# Augments events.py when compiled: the event log's columns in a C struct, append as a C call.

cdef class EventLog:
    cdef object _kinds, _ends
    cdef list _values

    cpdef int append(self, str kind, dict data) except -1
