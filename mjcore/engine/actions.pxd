# Compiled by Cython: declarations that type actions.py when the wheel is built (CMakeLists.txt).
# Augments actions.py when compiled: the legal actions' texts of every view as a C loop.

cimport cython


@cython.locals(known=dict)
cpdef list action_texts(actions)
