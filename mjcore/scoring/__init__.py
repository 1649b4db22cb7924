"""Scoring vocabulary shared by every variant: the win described, the breakdown, payments,
and the registry entries of a pattern and of a payment reason."""

from .context import Breakdown, Hit, Pattern, Payment, PayReason, WinContext

__all__ = ["Breakdown", "Hit", "Pattern", "PayReason", "Payment", "WinContext"]
