# Compiled by Cython: declarations that type random_bot.py when the wheel is built
# (CMakeLists.txt). Augments random_bot.py when compiled: the pick (every decision of a random
# hand) is a C call from the bot's methods, and its draw one on the bot (base.pxd).

cimport cython

from mjcore.bots.base cimport BaseBot
from mjcore.engine.actions cimport Action


@cython.locals(options=tuple, n=Py_ssize_t, last=Action, a=Action)
cpdef _pick(BaseBot bot, legal)
