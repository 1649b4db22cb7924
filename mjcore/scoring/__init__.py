"""Scoring vocabulary shared by every variant: the win described, the breakdown, payments."""

from .context import Breakdown, Hit, Payment, WinContext

__all__ = ["Breakdown", "Hit", "Payment", "WinContext"]
