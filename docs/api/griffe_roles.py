"""A griffe extension for the API reference: reST roles in docstrings shown as code.

mjcore's docstrings name other objects the Sphinx way (:class:`~mjcore.errors.InvalidHandError`,
:meth:`Game.apply`); Markdown would show the role's colons and backticks as they are. This turns
each role into a code span of the name (``~`` keeps only its last part, as Sphinx does), so the
pages read as the docstrings mean. Loaded by mkdocs.yml (mkdocstrings ``extensions``).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj|const):`(~?)([^`]+)`")


def plain(text: str) -> str:
    """``text`` with every reST role replaced by a code span of its target."""
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


class RolesAsCode(griffe.Extension):
    """Rewrites each loaded object's docstring (see :func:`plain`)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Called by griffe for every object it loads, with the object."""
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
